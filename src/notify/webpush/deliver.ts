/**
 * The timer loop's Web Push job: sends due deliveries (one per outbox row and subscription), each once.
 * A delivery is claimed in a committed write before the request goes out and marked after the answer;
 * 5xx, 429 and network failures are retried with exponential back-off up to MAX_ATTEMPTS, then given up
 * with a log line; 404/410 delete the subscription; a message read or deleted meanwhile is skipped.
 *
 * A process killed while a request was in flight leaves a claim: the next start releases it and the push
 * is sent again (its RFC 8030 Topic lets the push service keep only one, and the notification's tag
 * replaces rather than adds on the device). A claim of a live process that outlives LEASE_SECS is
 * released too, so a hung send cannot hold a delivery forever.
 */
import { nowSecs, type App } from "../../app";
import { isUnread } from "../../domain/flags";
import { emptyTopicNameOf } from "../../domain/topic";
import { avatarUrl } from "../../domain/user-format";
import { findMessage } from "../../store/messages";
import { findStreamById } from "../../store/streams";
import { findFlags } from "../../store/user-messages";
import { findUserById, listUsersByIds } from "../../store/users";
import {
  claimWebPushDelivery,
  deleteFinishedWebPushOutbox,
  deleteWebPushSubscription,
  finishWebPushDelivery,
  listDueWebPushDeliveries,
  releaseWebPushClaims,
  retryWebPushDeliveryAt,
  type DueDelivery,
} from "../../store/web-push";
import { buildPayload, type Conversation, type WebPushPayload } from "./payload";
import { sendWebPush, type SendOutcome } from "./send";
import { vapidKeys } from "./vapid";

/** Attempts before giving up: with BASE_BACKOFF_SECS doubling, about 2 hours of trying. */
export const MAX_ATTEMPTS = 8;
export const BASE_BACKOFF_SECS = 60;
const MAX_BACKOFF_SECS = 3600;
const MAX_RETRY_AFTER_SECS = 24 * 3600;
/** Longer than a send's timeout (15 s): a claim older than this belongs to a send that is gone. */
export const LEASE_SECS = 120;
const BATCH = 50;
/** Finished outbox rows are kept this long (for diagnostics), then deleted, once an hour. */
const KEEP_SECS = 7 * 24 * 3600;
const CLEANUP_EVERY_SECS = 3600;

/** Seconds before attempt `attempts + 1`, after `attempts` failures. */
export const backoffSecs = (attempts: number) => Math.min(MAX_BACKOFF_SECS, BASE_BACKOFF_SECS * 2 ** Math.max(0, attempts - 1));

/** The apps whose claims from an earlier process were released (once per process start). */
const started = new WeakSet<App>();
/** When each app last deleted old outbox rows. */
const cleaned = new WeakMap<App, number>();

/** Sends what is due; the number of deliveries finished (sent, skipped, given up or gone). */
export async function deliverDueWebPushes(app: App, signal?: AbortSignal): Promise<number> {
  if (!started.has(app)) {
    // one server per data dir (the serve lock): a claim left now is from a process that died mid-send
    await app.db.tx((sql) => releaseWebPushClaims(sql));
    started.add(app);
  }
  let finished = 0;
  const due = await listDueWebPushDeliveries(app.db, nowSecs(app), BATCH);
  for (const d of due) {
    if (signal?.aborted) break;
    const now = nowSecs(app);
    if (!(await app.db.tx((sql) => claimWebPushDelivery(sql, d.id, now, now + LEASE_SECS)))) continue;
    const payload = await payloadFor(app, d);
    if (!payload) {
      await app.db.tx((sql) => finishWebPushDelivery(sql, d.id, "skipped", nowSecs(app)));
      finished++;
      continue;
    }
    const outcome = await sendWebPush(d, JSON.stringify(payload), {
      vapid: vapidKeys(app.config.data_dir),
      subject: vapidSubject(app),
      allowInsecure: app.config.push.allow_insecure_web_push,
      topic: `m${d.message_id}`,
      signal,
    });
    if (await record(app, d, outcome)) finished++;
  }
  const now = nowSecs(app);
  if (now - (cleaned.get(app) ?? -Infinity) >= CLEANUP_EVERY_SECS) {
    cleaned.set(app, now);
    await app.db.tx((sql) => deleteFinishedWebPushOutbox(sql, now - KEEP_SECS));
  }
  return finished;
}

/** Writes the answer down; true when the delivery is over. */
async function record(app: App, d: DueDelivery, outcome: SendOutcome): Promise<boolean> {
  const now = nowSecs(app);
  const attempts = d.attempts + 1;
  const where = { delivery_id: d.id, subscription_id: d.subscription_id, user_id: d.user_id, message_id: d.message_id, endpoint_origin: new URL(d.endpoint).origin };
  switch (outcome.kind) {
    case "sent":
      await app.db.tx((sql) => finishWebPushDelivery(sql, d.id, "sent", now));
      return true;
    case "gone":
      app.log.info("web push subscription expired; deleted", { ...where, status: outcome.status });
      await app.db.tx((sql) => deleteWebPushSubscription(sql, d.subscription_id));
      return true;
    case "fail":
      app.log.warn("web push failed; not retried", { ...where, reason: outcome.reason });
      await app.db.tx((sql) => finishWebPushDelivery(sql, d.id, "failed", now, outcome.reason));
      return true;
    case "retry":
      if (attempts >= MAX_ATTEMPTS) {
        app.log.warn(`web push gave up after ${attempts} attempts`, { ...where, reason: outcome.reason });
        await app.db.tx((sql) => finishWebPushDelivery(sql, d.id, "failed", now, outcome.reason));
        return true;
      }
      // a push service's Retry-After is followed, up to a day
      const wait = Math.max(backoffSecs(attempts), Math.min(outcome.retryAfterSecs ?? 0, MAX_RETRY_AFTER_SECS));
      await app.db.tx((sql) => retryWebPushDeliveryAt(sql, d.id, now + wait, outcome.reason));
      return false;
  }
}

/** The VAPID `sub`: the server's https address, else a mailto: the organization's owner. */
function vapidSubject(app: App): string {
  const url = app.config.server.external_url;
  return url.startsWith("https://") ? url : `mailto:${app.config.organization.owner_email}`;
}

/** What to push for a delivery, or null when there is nothing to say any more (read, deleted, deactivated). */
async function payloadFor(app: App, d: DueDelivery): Promise<WebPushPayload | null> {
  const [m, flags, me] = await Promise.all([findMessage(app.db, d.message_id), findFlags(app.db, d.user_id, d.message_id), findUserById(app.db, d.user_id)]);
  if (!m || flags === undefined || !isUnread(flags) || !me?.is_active) return null;
  const sender = await findUserById(app.db, m.sender_id);
  if (!sender) return null;
  let conversation: Conversation;
  if (m.stream_id !== null) {
    const stream = await findStreamById(app.db, m.stream_id);
    if (!stream) return null;
    conversation = { type: "stream", channel_id: stream.id, channel: stream.name, topic: m.topic || emptyTopicNameOf(app.realm?.settings) };
  } else {
    const ids = (m.dm_key ?? "").split(",").map(Number).filter((id) => id && id !== d.user_id);
    const people = await listUsersByIds(app.db, ids.length ? ids : [m.sender_id]);
    conversation = { type: "private", people: people.map((u) => ({ id: u.id, name: u.full_name })) };
  }
  const base = app.config.server.external_url.replace(/\/+$/, "");
  const avatar = avatarUrl(sender, false);
  return buildPayload({
    externalUrl: base,
    messageId: m.id,
    trigger: d.trigger,
    sender: { id: sender.id, name: sender.full_name, avatar_url: avatar?.startsWith("/") ? base + avatar : avatar },
    conversation,
    renderedContent: m.rendered_content,
    // the server's rule (Zulip's PUSH_NOTIFICATION_REDACT_CONTENT), then the organization's
    showContent: !app.config.push.redact_content && app.realm?.settings.message_content_allowed_in_email_notifications !== false,
  });
}
