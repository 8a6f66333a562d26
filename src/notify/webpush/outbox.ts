/**
 * The door into Web Push: whoever decides that a person should hear about a message (the missed-message
 * rules, src/notify/) calls enqueueWebPush inside the transaction that made that decision. The row is
 * durable from then on; the timer loop's job (deliverDueWebPushes in ./deliver.ts) sends it to each of
 * the person's browsers once, retrying with back-off, and skips it if the message was read or deleted
 * meanwhile.
 */
import type { Sql } from "../../store/db";
import { insertWebPushOutbox, insertWebPushOutboxRows } from "../../store/web-push";

/**
 * Why the person is told, in Zulip's words (zerver/lib/push_notifications.py NotificationTriggers):
 * "private_message", "mentioned", "topic_wildcard_mentioned", "stream_wildcard_mentioned",
 * "stream_push_notify", "followed_topic_push_notify", ... Kept as given; the payload carries it.
 */
export type WebPushTrigger = string;

export interface WebPushRequest {
  userId: number;
  messageId: number;
  trigger: WebPushTrigger;
  /** seconds since the epoch (the app's clock); the row's record time, not when it is due */
  now?: number;
}

/**
 * Queues one push per (user, message), due at once, to every Web Push subscription the user has now.
 * Calling it again for the same user and message does nothing. Returns whether a row was written.
 */
export async function enqueueWebPush(sql: Sql, req: WebPushRequest): Promise<boolean> {
  const id = await insertWebPushOutbox(sql, { userId: req.userId, messageId: req.messageId, trigger: req.trigger, now: req.now ?? Date.now() / 1000 });
  return id !== null;
}

/**
 * enqueueWebPush for a batch (the missed-message scan's), in two statements. People with no Web Push
 * subscription get no row: nothing could be delivered to them. Returns how many rows were written.
 */
export const enqueueWebPushes = (sql: Sql, reqs: WebPushRequest[], now: number): Promise<number> => insertWebPushOutboxRows(sql, reqs, now);
