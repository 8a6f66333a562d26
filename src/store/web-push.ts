import type { Sql } from "./db";

export interface WebPushSubscriptionRow {
  id: number;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  created: number;
}

/** Adds a subscription, or updates the keys of the user's subscription with this endpoint; its id. */
export async function upsertWebPushSubscription(sql: Sql, s: Omit<WebPushSubscriptionRow, "id">): Promise<number> {
  await sql.run(
    `INSERT INTO web_push_subscriptions (user_id, endpoint, p256dh, auth, created) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (user_id, endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth`,
    [s.user_id, s.endpoint, s.p256dh, s.auth, s.created],
  );
  const row = await sql.get<{ id: number }>("SELECT id FROM web_push_subscriptions WHERE user_id = ? AND endpoint = ?", [s.user_id, s.endpoint]);
  return row!.id;
}

/** Keeps the user's `keep` newest subscriptions (by id), deleting older ones; how many went. */
export async function trimWebPushSubscriptions(sql: Sql, userId: number, keep: number): Promise<number> {
  const { changes } = await sql.run(
    "DELETE FROM web_push_subscriptions WHERE user_id = ? AND id NOT IN (SELECT id FROM web_push_subscriptions WHERE user_id = ? ORDER BY id DESC LIMIT ?)",
    [userId, userId, keep],
  );
  return changes;
}

export const findWebPushSubscription = (sql: Sql, id: number) =>
  sql.get<WebPushSubscriptionRow>("SELECT * FROM web_push_subscriptions WHERE id = ?", [id]);

export const listWebPushSubscriptions = (sql: Sql, userId: number) =>
  sql.all<WebPushSubscriptionRow>("SELECT * FROM web_push_subscriptions WHERE user_id = ? ORDER BY id", [userId]);

/** Deletes a subscription; its pending deliveries go with it (ON DELETE CASCADE). */
export const deleteWebPushSubscription = (sql: Sql, id: number) => sql.run("DELETE FROM web_push_subscriptions WHERE id = ?", [id]);

/**
 * Records that `userId` should be told about `messageId`, with a delivery per current subscription,
 * due at once (next_at 0, whatever the clock). Once per (user, message): a second call changes nothing. Returns the outbox row's id, or
 * null when it was already there.
 */
export async function insertWebPushOutbox(sql: Sql, o: { userId: number; messageId: number; trigger: string; now: number }): Promise<number | null> {
  const { changes, lastId } = await sql.run("INSERT OR IGNORE INTO web_push_outbox (user_id, message_id, trigger, created) VALUES (?, ?, ?, ?)", [
    o.userId,
    o.messageId,
    o.trigger,
    o.now,
  ]);
  if (changes === 0) return null;
  await sql.run("INSERT INTO web_push_deliveries (outbox_id, subscription_id, next_at) SELECT ?, id, 0 FROM web_push_subscriptions WHERE user_id = ?", [
    lastId,
    o.userId,
  ]);
  return lastId;
}

/**
 * insertWebPushOutbox for many (user, message) pairs in two statements, leaving out the users with no
 * subscription (a row for them would have no delivery). Returns how many rows were written.
 */
export async function insertWebPushOutboxRows(sql: Sql, rows: { userId: number; messageId: number; trigger: string }[], now: number): Promise<number> {
  if (!rows.length) return 0;
  // rowids grow: the rows written now are those past the largest before (the transaction holds the write lock)
  const before = (await sql.get<{ id: number }>("SELECT COALESCE(MAX(id), 0) AS id FROM web_push_outbox"))!.id;
  const { changes } = await sql.run(
    `INSERT OR IGNORE INTO web_push_outbox (user_id, message_id, trigger, created)
     SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), ? FROM json_each(?)
     WHERE EXISTS (SELECT 1 FROM web_push_subscriptions s WHERE s.user_id = json_extract(value, '$[0]'))`,
    [now, JSON.stringify(rows.map((r) => [r.userId, r.messageId, r.trigger]))],
  );
  if (changes === 0) return 0;
  await sql.run(
    "INSERT INTO web_push_deliveries (outbox_id, subscription_id, next_at) SELECT o.id, s.id, 0 FROM web_push_outbox o JOIN web_push_subscriptions s ON s.user_id = o.user_id WHERE o.id > ?",
    [before],
  );
  return changes;
}

export interface WebPushDeliveryRow {
  id: number;
  outbox_id: number;
  subscription_id: number;
  state: "pending" | "sending" | "sent" | "skipped" | "failed";
  attempts: number;
  next_at: number;
  claimed_until: number | null;
  done_at: number | null;
  last_error: string | null;
}

/** A delivery with what sending it needs: the outbox row and the subscription. */
export interface DueDelivery extends WebPushDeliveryRow {
  user_id: number;
  message_id: number;
  trigger: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Deliveries due at `now`: pending ones whose time has come, and claims that ran out (the sender died). */
export const listDueWebPushDeliveries = (sql: Sql, now: number, limit: number) =>
  sql.all<DueDelivery>(
    `SELECT d.*, o.user_id, o.message_id, o.trigger, s.endpoint, s.p256dh, s.auth
     FROM web_push_deliveries d JOIN web_push_outbox o ON o.id = d.outbox_id JOIN web_push_subscriptions s ON s.id = d.subscription_id
     WHERE d.state IN ('pending', 'sending') AND d.next_at <= ? AND (d.state = 'pending' OR d.claimed_until <= ?)
     ORDER BY d.next_at, d.id LIMIT ?`,
    [now, now, limit],
  );

/**
 * Claims a due delivery for sending until `until` (one attempt more); false when someone else did
 * first or it is no longer due. The claim is committed before the push goes out.
 */
export async function claimWebPushDelivery(sql: Sql, id: number, now: number, until: number): Promise<boolean> {
  const { changes } = await sql.run(
    `UPDATE web_push_deliveries SET state = 'sending', claimed_until = ?, attempts = attempts + 1
     WHERE id = ? AND next_at <= ? AND (state = 'pending' OR (state = 'sending' AND claimed_until <= ?))`,
    [until, id, now, now],
  );
  return changes > 0;
}

/** The delivery is over: sent, skipped (read or deleted meanwhile) or failed for good. */
export const finishWebPushDelivery = (sql: Sql, id: number, state: "sent" | "skipped" | "failed", now: number, error: string | null = null) =>
  sql.run("UPDATE web_push_deliveries SET state = ?, done_at = ?, claimed_until = NULL, last_error = ? WHERE id = ?", [state, now, error, id]);

/** Another attempt at `nextAt`. */
export const retryWebPushDeliveryAt = (sql: Sql, id: number, nextAt: number, error: string) =>
  sql.run("UPDATE web_push_deliveries SET state = 'pending', next_at = ?, claimed_until = NULL, last_error = ? WHERE id = ?", [nextAt, error, id]);

export const listWebPushDeliveries = (sql: Sql, userId: number) =>
  sql.all<WebPushDeliveryRow & { message_id: number }>(
    "SELECT d.*, o.message_id FROM web_push_deliveries d JOIN web_push_outbox o ON o.id = d.outbox_id WHERE o.user_id = ? ORDER BY d.id",
    [userId],
  );

/** Outbox rows older than `before` with nothing left to send: the record is no longer needed. */
export const deleteFinishedWebPushOutbox = (sql: Sql, before: number) =>
  sql.run(
    `DELETE FROM web_push_outbox WHERE created < ?
     AND NOT EXISTS (SELECT 1 FROM web_push_deliveries d WHERE d.outbox_id = web_push_outbox.id AND d.state IN ('pending', 'sending'))`,
    [before],
  );

/** Claims left by a process that is gone: due again at once. */
export const releaseWebPushClaims = (sql: Sql) =>
  sql.run("UPDATE web_push_deliveries SET state = 'pending', claimed_until = NULL WHERE state = 'sending'");
