import { realmOf, type App } from "../app";
import { ZULIP_VERSION } from "../domain/version";
import { badRequest, ZulipError } from "../errors";
import type { UserRow } from "../store/users";

/**
 * The client of the push relay: an HTTP service at `[push] relay_url` speaking Zulip's push
 * notification bouncer protocol (POST {relay}/api/v1/remotes/push/{register,unregister,test_notification},
 * HTTP Basic with the server's id and key). The credentials ride in the URL's user info:
 * `https://SERVER_UUID:API_KEY@push.example.com`.
 */

/** Zulip's PushDeviceToken kinds, as the bouncer protocol numbers them. */
export const TOKEN_KIND = { apns: 1, fcm: 2 } as const;
export type TokenKind = keyof typeof TOKEN_KIND;

interface Relay {
  base: string;
  serverUuid: string;
  authorization: string | null;
}

/** The configured relay, or null when push notifications are not configured. */
export function relayOf(app: App): Relay | null {
  const raw = app.config.push.relay_url.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    app.log.error("[push] relay_url is not a URL; push notifications are off");
    return null;
  }
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = "";
  url.password = "";
  return {
    base: url.toString().replace(/\/+$/, ""),
    serverUuid: user,
    authorization: user || password ? "Basic " + btoa(`${user}:${password}`) : null,
  };
}

export const pushServiceNotConfigured = () =>
  new ZulipError("PUSH_SERVICE_NOT_CONFIGURED", "Server is not configured to use push notification service.", 400);

export const invalidPushDeviceToken = () => new ZulipError("INVALID_PUSH_DEVICE_TOKEN", "Device not recognized", 400);
export const invalidRemotePushDeviceToken = () =>
  new ZulipError("INVALID_REMOTE_PUSH_DEVICE_TOKEN", "Device not recognized by the push bouncer", 400);

/** A stable UUID-shaped identity derived from a seed (the relay keys devices by realm and user uuid). */
function stableUuid(seed: string): string {
  const h = new Bun.CryptoHasher("sha256").update(seed).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
export const realmUuid = (app: App) => {
  const realm = realmOf(app);
  return stableUuid(`parley-realm:${realm.id}:${realm.date_created}`);
};
export const userUuid = (user: Pick<UserRow, "id" | "date_joined">) => stableUuid(`parley-user:${user.id}:${user.date_joined}`);

type Endpoint = "push/register" | "push/unregister" | "push/test_notification";

/**
 * One request to the relay. Errors map the way Zulip's send_to_push_bouncer maps them: network
 * failures and 5xx answers are 502s, the relay's 4xx `msg` becomes a BAD_REQUEST, and an unknown
 * device on the test endpoint is INVALID_REMOTE_PUSH_DEVICE_TOKEN.
 */
async function relayRequest(app: App, endpoint: Endpoint, body: Record<string, unknown>, json: boolean): Promise<Record<string, unknown>> {
  const relay = relayOf(app);
  if (!relay) throw pushServiceNotConfigured();
  const headers: Record<string, string> = { "user-agent": `ZulipServer/${ZULIP_VERSION} (Parley)` };
  if (relay.authorization) headers.authorization = relay.authorization;
  let payload: string;
  if (json) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  } else {
    headers["content-type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])).toString();
  }
  let res: Response;
  try {
    res = await fetch(`${relay.base}/api/v1/remotes/${endpoint}`, { method: "POST", headers, body: payload, signal: AbortSignal.timeout(30_000) });
  } catch (e) {
    app.log.warn("push relay unreachable", { endpoint, error: String(e) });
    throw new ZulipError("BAD_REQUEST", "ConnectionError while trying to connect to push notification bouncer", 502);
  }
  const text = await res.text();
  let result: Record<string, unknown> = {};
  try {
    result = JSON.parse(text);
  } catch {
    // a non-JSON answer is handled by status below
  }
  if (res.status >= 500) {
    app.log.warn("push relay error", { endpoint, status: res.status });
    throw new ZulipError("BAD_REQUEST", `Received ${res.status} from push notification bouncer`, 502);
  }
  if (res.status >= 400) {
    const msg = typeof result.msg === "string" ? result.msg : `Received ${res.status} from push notification bouncer`;
    if (result.code === "INVALID_ZULIP_SERVER") throw badRequest(`Push notifications bouncer error: ${msg}`);
    if (endpoint === "push/test_notification" && result.code === "INVALID_REMOTE_PUSH_DEVICE_TOKEN") throw invalidRemotePushDeviceToken();
    throw badRequest(msg);
  }
  if (res.status !== 200) throw new ZulipError("BAD_REQUEST", "Error received from push notification bouncer", 502);
  return result;
}

export interface RelayDevice {
  user: Pick<UserRow, "id" | "date_joined">;
  kind: TokenKind;
  token: string;
  appid?: string | null;
}

function identity(app: App, d: RelayDevice) {
  return { realm_uuid: realmUuid(app), user_uuid: userUuid(d.user), user_id: d.user.id, token: d.token, token_kind: TOKEN_KIND[d.kind] };
}

/** Registers a device with the relay (Zulip: push/register, form-encoded). */
export async function relayRegister(app: App, d: RelayDevice): Promise<void> {
  const body: Record<string, unknown> = { server_uuid: relayOf(app)?.serverUuid ?? "", ...identity(app, d), user_id: String(d.user.id) };
  if (d.kind === "apns") body.ios_app_id = d.appid ?? "";
  await relayRequest(app, "push/register", body, false);
}

/** Unregisters a device (Zulip: push/unregister, form-encoded). */
export async function relayUnregister(app: App, d: RelayDevice): Promise<void> {
  await relayRequest(app, "push/unregister", { server_uuid: relayOf(app)?.serverUuid ?? "", ...identity(app, d) }, false);
}

/** Asks the relay to deliver a test notification to one device (Zulip: push/test_notification, JSON). */
export async function relayTestNotification(app: App, d: RelayDevice): Promise<void> {
  const realm = realmOf(app);
  const url = app.config.server.external_url;
  const basePayload = {
    server: url ? new URL(url).host : "",
    realm_id: realm.id,
    realm_uri: url,
    realm_url: url,
    realm_name: realm.name,
    user_id: d.user.id,
  };
  await relayRequest(app, "push/test_notification", { ...identity(app, d), base_payload: basePayload }, true);
}
