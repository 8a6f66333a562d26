/**
 * A person's browsers subscribe to Web Push (POST /users/me/web_push_subscriptions) and unsubscribe
 * (DELETE .../{id}). The endpoint is a URL the person chose, so it is checked as send.ts will use it.
 */
import { createPublicKey } from "node:crypto";
import { nowSecs, type App } from "../../app";
import { badRequest } from "../../errors";
import { requireHuman } from "../../actions/push";
import type { UserRow } from "../../store/users";
import { deleteWebPushSubscription, findWebPushSubscription, trimWebPushSubscriptions, upsertWebPushSubscription } from "../../store/web-push";
import { endpointRefusal } from "./address";

/** Browsers' endpoints are a few hundred characters; this bounds what we keep and send to. */
const MAX_ENDPOINT_LENGTH = 2048;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
/**
 * Browsers a person keeps subscribed: each message is pushed to every one, so the list is bounded; a
 * new browser past it replaces the oldest (browsers drop and renew subscriptions without telling us).
 */
export const MAX_SUBSCRIPTIONS = 10;

/** The bytes of a base64url text (padding optional), or null when it is not one. */
function base64url(text: string): Buffer | null {
  if (!BASE64URL.test(text)) return null;
  return Buffer.from(text.replace(/=+$/, ""), "base64url");
}

/** A P-256 public key as browsers give it: the 65-byte uncompressed point, on the curve. */
function validP256Point(bytes: Buffer): boolean {
  if (bytes.length !== 65 || bytes[0] !== 0x04) return false;
  try {
    const jwk = { kty: "EC", crv: "P-256", x: bytes.subarray(1, 33).toString("base64url"), y: bytes.subarray(33).toString("base64url") };
    createPublicKey({ key: jwk, format: "jwk" });
    return true;
  } catch {
    return false;
  }
}

export interface WebPushSubscriptionInput {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Adds the browser's subscription, or updates the keys of the same endpoint's; its id. */
export async function addWebPushSubscription(app: App, me: UserRow, input: WebPushSubscriptionInput): Promise<number> {
  requireHuman(me);
  if (input.endpoint.length > MAX_ENDPOINT_LENGTH) throw badRequest("Invalid endpoint: too long");
  const refusal = endpointRefusal(input.endpoint, app.config.push.allow_insecure_web_push);
  if (refusal) throw badRequest(refusal);
  const key = base64url(input.p256dh);
  if (!key || !validP256Point(key)) throw badRequest("Invalid p256dh: not a P-256 public key (65 bytes, base64url)");
  const auth = base64url(input.auth);
  if (!auth || auth.length !== 16) throw badRequest("Invalid auth: not a 16-byte secret (base64url)");
  return app.db.tx(async (sql) => {
    const id = await upsertWebPushSubscription(sql, {
      user_id: me.id,
      endpoint: input.endpoint,
      p256dh: key.toString("base64url"),
      auth: auth.toString("base64url"),
      created: nowSecs(app),
    });
    await trimWebPushSubscriptions(sql, me.id, MAX_SUBSCRIPTIONS);
    return id;
  });
}

/** Deletes one of the person's own subscriptions (and what was still to be sent to it). */
export async function removeWebPushSubscription(app: App, me: UserRow, id: number): Promise<void> {
  requireHuman(me);
  await app.db.tx(async (sql) => {
    const s = await findWebPushSubscription(sql, id);
    // someone else's subscription is as unknown as a missing one
    if (!s || s.user_id !== me.id) throw badRequest("Invalid subscription ID");
    await deleteWebPushSubscription(sql, id);
  });
}
