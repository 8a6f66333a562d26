import type { Sql } from "./db";

export interface SubscriptionRow {
  user_id: number;
  stream_id: number;
  active: number;
  color: string;
  is_muted: number;
  pin_to_top: number;
  desktop_notifications: number | null;
  audible_notifications: number | null;
  push_notifications: number | null;
  email_notifications: number | null;
  wildcard_mentions_notify: number | null;
}

const list = (n: number) => Array(n).fill("?").join(",");

/** Active subscribers of a channel who are active users (one query; the send fan-out). */
export const listSubscriberIds = async (sql: Sql, streamId: number) =>
  (await sql.all<{ user_id: number }>(
    "SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE s.stream_id = ? AND s.active = 1 AND u.is_active = 1 ORDER BY s.user_id",
    [streamId],
  )).map((r) => r.user_id);

/** Active subscribers (active users) of several channels: stream id → user ids. */
export async function mapSubscriberIds(sql: Sql, streamIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(streamIds.map((id) => [id, []]));
  if (!streamIds.length) return out;
  const rows = await sql.all<{ stream_id: number; user_id: number }>(
    `SELECT s.stream_id, s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
      WHERE s.stream_id IN (${list(streamIds.length)}) AND s.active = 1 AND u.is_active = 1 ORDER BY s.user_id`,
    streamIds,
  );
  for (const r of rows) out.get(r.stream_id)!.push(r.user_id);
  return out;
}

/** Subscriber counts (active subscriptions of active users), for every channel of the realm. */
export async function mapSubscriberCounts(sql: Sql): Promise<Map<number, number>> {
  const rows = await sql.all<{ stream_id: number; n: number }>(
    "SELECT s.stream_id, count(*) AS n FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE s.active = 1 AND u.is_active = 1 GROUP BY s.stream_id",
  );
  return new Map(rows.map((r) => [r.stream_id, r.n]));
}

export const isSubscribed = async (sql: Sql, userId: number, streamId: number) =>
  (await sql.get("SELECT 1 AS x FROM subscriptions WHERE user_id = ? AND stream_id = ? AND active = 1", [userId, streamId])) !== undefined;

/** The channel ids a user is actively subscribed to. */
export const listSubscribedStreamIds = async (sql: Sql, userId: number) =>
  (await sql.all<{ stream_id: number }>("SELECT stream_id FROM subscriptions WHERE user_id = ? AND active = 1 ORDER BY stream_id", [userId])).map((r) => r.stream_id);

export const findSubscription = (sql: Sql, userId: number, streamId: number) =>
  sql.get<SubscriptionRow>("SELECT * FROM subscriptions WHERE user_id = ? AND stream_id = ?", [userId, streamId]);

/** Every subscription row of a user, active or not (the unsubscribed list keeps old settings). */
export const listUserSubscriptionRows = (sql: Sql, userId: number) =>
  sql.all<SubscriptionRow>("SELECT * FROM subscriptions WHERE user_id = ? ORDER BY stream_id", [userId]);

/** Subscription rows (any state) of several users in several channels. */
export async function listSubscriptionRows(sql: Sql, userIds: number[], streamIds: number[]): Promise<SubscriptionRow[]> {
  if (!userIds.length || !streamIds.length) return [];
  return sql.all<SubscriptionRow>(
    `SELECT * FROM subscriptions WHERE user_id IN (${list(userIds.length)}) AND stream_id IN (${list(streamIds.length)})`,
    [...userIds, ...streamIds],
  );
}

/** Subscribes (or re-activates, keeping old settings) in one batch. */
export async function upsertSubscriptions(sql: Sql, rows: { userId: number; streamId: number; color: string }[]) {
  if (!rows.length) return;
  await sql.batch(
    rows.map((r) => ({
      sql: `INSERT INTO subscriptions (user_id, stream_id, color, active) VALUES (?, ?, ?, 1)
            ON CONFLICT (user_id, stream_id) DO UPDATE SET active = 1`,
      args: [r.userId, r.streamId, r.color],
    })),
  );
}

export async function deactivateSubscriptions(sql: Sql, rows: { userId: number; streamId: number }[]) {
  if (!rows.length) return;
  await sql.batch(rows.map((r) => ({ sql: "UPDATE subscriptions SET active = 0 WHERE user_id = ? AND stream_id = ?", args: [r.userId, r.streamId] })));
}

export const SUBSCRIPTION_COLUMNS = [
  "color", "is_muted", "pin_to_top", "desktop_notifications", "audible_notifications", "push_notifications", "email_notifications", "wildcard_mentions_notify",
] as const;
export type SubscriptionColumn = (typeof SUBSCRIPTION_COLUMNS)[number];

export const updateSubscriptionColumn = (sql: Sql, userId: number, streamId: number, column: SubscriptionColumn, value: string | number | null) =>
  sql.run(`UPDATE subscriptions SET ${column} = ? WHERE user_id = ? AND stream_id = ?`, [value, userId, streamId]);

/** Colours each user already uses (new subscriptions prefer unused ones). */
export async function mapUsedColors(sql: Sql, userIds: number[]): Promise<Map<number, Set<string>>> {
  const out = new Map<number, Set<string>>(userIds.map((id) => [id, new Set()]));
  if (!userIds.length) return out;
  const rows = await sql.all<{ user_id: number; color: string }>(`SELECT user_id, color FROM subscriptions WHERE user_id IN (${list(userIds.length)})`, userIds);
  for (const r of rows) out.get(r.user_id)!.add(r.color);
  return out;
}
