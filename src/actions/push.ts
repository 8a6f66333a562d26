import { nowSecs, type App } from "../app";
import { badRequest } from "../errors";
import { deletePushDevice, findPushDevice, insertPushDevice, listPushDevices, listPushDevicesByToken } from "../store/push-devices";
import type { UserRow } from "../store/users";
import { invalidPushDeviceToken, pushServiceNotConfigured, relayOf, relayRegister, relayTestNotification, relayUnregister, type TokenKind } from "./push-relay";

/** Zulip's limit on a device token's length (PushDeviceToken.token). */
const MAX_TOKEN_LENGTH = 4096;
const APP_ID = /^[.a-zA-Z0-9-]+$/;

/** Zulip's human_users_only: bots have no mobile devices. */
export function requireHuman(user: UserRow): void {
  if (user.is_bot) throw badRequest("This endpoint does not accept bot requests.");
}

/** Zulip's validate_token: non-empty, bounded, and for APNs an even-length hex string. */
function validateToken(token: string, kind: TokenKind): void {
  if (token === "" || token.length > MAX_TOKEN_LENGTH) throw badRequest("Empty or invalid length token");
  if (kind === "apns" && (token.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(token))) throw badRequest("Invalid APNS token");
}

/**
 * POST /users/me/apns_device_token and /users/me/android_gcm_reg_id: stores the token (an identical
 * registration is kept) and, with a relay configured, registers it there too.
 */
export async function addPushDevice(app: App, me: UserRow, kind: TokenKind, token: string, appid: string | null = null): Promise<void> {
  requireHuman(me);
  validateToken(token, kind);
  if (kind === "apns" && (appid === null || !APP_ID.test(appid))) throw badRequest("Invalid app ID");
  await app.db.tx((sql) => insertPushDevice(sql, { user_id: me.id, kind, token, appid, created: nowSecs(app) }));
  if (relayOf(app)) await relayRegister(app, { user: me, kind, token, appid });
}

/** DELETE /users/me/apns_device_token and /users/me/android_gcm_reg_id: "Token does not exist" when unknown. */
export async function removePushDevice(app: App, me: UserRow, kind: TokenKind, token: string): Promise<void> {
  requireHuman(me);
  validateToken(token, kind);
  const device = await app.db.tx(async (sql) => {
    const d = await findPushDevice(sql, me.id, kind, token);
    if (!d) throw badRequest("Token does not exist");
    await deletePushDevice(sql, d.id);
    return d;
  });
  if (relayOf(app)) await relayUnregister(app, { user: me, kind: device.kind, token: device.token, appid: device.appid });
}

/**
 * POST /mobile_push/test_notification: to the device with `token`, or to every device of the user.
 * A token the server does not know is INVALID_PUSH_DEVICE_TOKEN; the relay's own refusal is
 * INVALID_REMOTE_PUSH_DEVICE_TOKEN; without a relay, PUSH_SERVICE_NOT_CONFIGURED.
 */
export async function sendTestPushNotification(app: App, me: UserRow, token: string | undefined): Promise<void> {
  requireHuman(me);
  const devices = token !== undefined ? await listPushDevicesByToken(app.db, me.id, token) : await listPushDevices(app.db, me.id);
  if (token !== undefined && devices.length === 0) throw invalidPushDeviceToken();
  if (!relayOf(app)) throw pushServiceNotConfigured();
  for (const d of token !== undefined ? devices.slice(0, 1) : devices) {
    await relayTestNotification(app, { user: me, kind: d.kind, token: d.token, appid: d.appid });
  }
}
