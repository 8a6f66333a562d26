import { realmOf, type App } from "../app";
import { channelAccess } from "./channel-access";
import { groupSettingApiValues } from "./group-settings";
import { hasMetadataAccess } from "../domain/channel-permissions";
import { streamDict, subscriptionDict, type FormatContext } from "../domain/channel-format";
import { loadDirectory } from "./messages/directory";
import { render } from "./messages/render";
import type { Sql } from "../store/db";
import { CHANNEL_GROUP_SETTING_NAMES, type StreamRow } from "../store/streams";
import { mapSubscriberCounts, mapSubscriberIds, type SubscriptionRow } from "../store/subscriptions";
import { listUsers } from "../store/users";

/**
 * Batch loaders shared by the channel actions and /register: channel objects (a few queries for
 * any number of channels) and the audiences of channel events (who may know of a channel).
 */

/**
 * Renders a channel or folder description the way messages are rendered for `actor` (mentions and
 * channel links resolve as in the actor's messages). Call it before opening a write transaction.
 */
export async function renderDescription(app: App, actor: { id: number; role: number }, text: string): Promise<string> {
  if (!text) return "";
  return (await render(app, await loadDirectory(app), actor, text)).html;
}

export async function formatContext(app: App, sql: Sql, rows: StreamRow[]): Promise<FormatContext> {
  const ids = rows.flatMap((r) => CHANNEL_GROUP_SETTING_NAMES.map((n) => r[n]));
  const [groupValues, subscriberCounts] = await Promise.all([groupSettingApiValues(sql, ids), mapSubscriberCounts(sql)]);
  const names = new Map([...app.systemGroups].map(([name, id]) => [id, name as string]));
  return { groupValues, subscriberCounts, systemGroupName: (id) => names.get(id) };
}

/** Channel objects for rows, in the given order. */
export async function formatStreams(app: App, sql: Sql, rows: StreamRow[]): Promise<Record<string, unknown>[]> {
  if (!rows.length) return [];
  const ctx = await formatContext(app, sql, rows);
  return rows.map((r) => streamDict(r, ctx));
}

export async function formatStream(app: App, sql: Sql, row: StreamRow): Promise<Record<string, unknown>> {
  return (await formatStreams(app, sql, [row]))[0]!;
}

/** Subscription objects for (channel, subscription) pairs, with subscriber lists when given. */
export async function formatSubscriptions(
  app: App,
  sql: Sql,
  pairs: { stream: StreamRow; sub: SubscriptionRow }[],
  subscribers?: Map<number, number[]>,
): Promise<Record<string, unknown>[]> {
  if (!pairs.length) return [];
  const ctx = await formatContext(app, sql, pairs.map((p) => p.stream));
  return pairs.map((p) => subscriptionDict(p.stream, p.sub, ctx, subscribers?.get(p.stream.id)));
}

export interface Audience {
  /** active users (id, role) */
  users: { id: number; role: number }[];
  /** active subscribers of each channel */
  subscribers: Map<number, number[]>;
}

/** Active users and the channels' active subscribers: the facts the audience questions need. */
export async function loadAudience(app: App, sql: Sql, streamIds: number[]): Promise<Audience> {
  const [users, subscribers] = await Promise.all([listUsers(sql, realmOf(app).id), mapSubscriberIds(sql, streamIds)]);
  return { users: users.filter((u) => u.is_active).map((u) => ({ id: u.id, role: u.role })), subscribers };
}

/** Users who may know of the channel (metadata access): the recipients of its stream events. */
export function metadataAudience(app: App, audience: Audience, stream: StreamRow): number[] {
  const subs = new Set(audience.subscribers.get(stream.id) ?? []);
  return audience.users.filter((u) => hasMetadataAccess(channelAccess(app, u, stream, subs.has(u.id)))).map((u) => u.id);
}

/** Who may know of each channel, for several channels at once. */
export async function metadataAudiences(app: App, sql: Sql, streams: StreamRow[]): Promise<Map<number, number[]>> {
  const audience = await loadAudience(app, sql, streams.map((s) => s.id));
  return new Map(streams.map((s) => [s.id, metadataAudience(app, audience, s)]));
}
