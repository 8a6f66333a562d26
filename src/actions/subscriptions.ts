import { realmOf, reloadGroups, type App } from "../app";
import { accessChannelById, channelAccess, hasRealmPermission, loadChannelAccess } from "./channel-access";
import {
  checkChannelName,
  checkCreationPermission,
  checkCreationProperties,
  channelExists,
  insertChannel,
  insufficientPermission,
  type NewChannelOptions,
} from "./channel-create";
import { formatContext, formatSubscriptions, loadAudience, metadataAudience, renderDescription } from "./channel-data";
import { streamDict, subscriptionDict } from "../domain/channel-format";
import { publishDefaultStreams } from "./default-streams";
import { notifyNewChannels } from "./channel-notices";
import { canAddSubscribers, canRemoveSubscribers, hasBasicAccess, hasContentAccess, hasMetadataAccess } from "../domain/channel-permissions";
import { isHexColor, pickColor } from "../domain/stream-colors";
import { isAdmin, isGuest } from "../domain/roles";
import { badRequest, streamDoesNotExist } from "../errors";
import type { Sql } from "../store/db";
import { findStreamById, listStreamsByIds, mapStreamsByNames, type StreamRow } from "../store/streams";
import {
  deactivateSubscriptions,
  findSubscription,
  isSubscribed,
  listSubscriptionRows,
  listUserSubscriptionRows,
  listSubscriberIds,
  mapSubscriberIds,
  mapUsedColors,
  updateSubscriptionColumn,
  upsertSubscriptions,
  type SubscriptionColumn,
  type SubscriptionRow,
} from "../store/subscriptions";
import { findUserByEmail, findUserById, listUsersByIds, type UserRow } from "../store/users";
import { watchUserAccess } from "./user-access";

const noSuchUser = () => badRequest("No such user");

/** Principals (all ids or all emails) → active users of the organization; "No such user" otherwise. */
export async function resolvePrincipals(app: App, sql: Sql, principals: (number | string)[]): Promise<UserRow[]> {
  const realm = realmOf(app);
  const ids = principals.filter((p): p is number => typeof p === "number");
  const emails = principals.filter((p): p is string => typeof p === "string");
  const found = new Map<number, UserRow>();
  const byId = await listUsersByIds(sql, [...new Set(ids)]);
  if (byId.length !== new Set(ids).size) throw noSuchUser();
  for (const u of byId) found.set(u.id, u);
  for (const email of emails) {
    const u = await findUserByEmail(sql, realm.id, email.trim());
    if (!u) throw noSuchUser();
    found.set(u.id, u);
  }
  for (const u of found.values()) if (!u.is_active || u.realm_id !== realm.id) throw noSuchUser();
  return [...found.values()];
}

export interface SubscribeInput extends NewChannelOptions {
  subscriptions: { name: string; description?: string; color?: string }[];
  principals: (number | string)[] | null;
  authorizationErrorsFatal: boolean;
  announce: boolean;
  /** send "X subscribed you to ..." direct messages (send_new_subscription_messages) */
  sendSubscriptionMessages: boolean;
}

export interface SubscribeResult {
  subscribed: Record<string, string[]>;
  already_subscribed: Record<string, string[]>;
  unauthorized?: string[];
  new_subscription_messages_sent?: boolean;
}

/**
 * POST /users/me/subscriptions: subscribes the caller (or `principals`) to channels by name,
 * creating the missing ones with the requested properties. Permission rules follow Zulip's
 * add_subscriptions_backend; everything is written in one transaction, then the events go out.
 */
export async function subscribe(app: App, me: UserRow, input: SubscribeInput): Promise<SubscribeResult> {
  if (isGuest(me.role)) throw badRequest("Not allowed for guest users");
  const maxDescription = app.config.limits.max_stream_description_length;
  const wanted = input.subscriptions.map((s) => ({ ...s, name: s.name.trim(), description: (s.description ?? "").replace(/\n/g, " ") }));
  for (const s of wanted) {
    checkChannelName(app, s.name);
    if ([...s.description].length > maxDescription) throw badRequest(`description is too long (limit: ${maxDescription} characters)`);
    if (s.color !== undefined && !isHexColor(s.color)) throw badRequest("add.color is not a valid hex color code");
  }
  await checkCreationProperties(app, app.db, me, input);
  const targets = input.principals?.length ? await resolvePrincipals(app, app.db, input.principals) : [me];
  const subscribingOthers = targets.some((u) => u.id !== me.id);

  const existing = await mapStreamsByNames(app.db, wanted.map((s) => s.name));
  const toCreate = dedupeByName(wanted.filter((s) => !existing.has(s.name.toLowerCase())));
  if (toCreate.length) checkCreationPermission(app, me, input);
  const rendered = await Promise.all(toCreate.map((s) => renderDescription(app, me, s.description)));

  const existingStreams = [...new Map([...existing.values()].map((s) => [s.id, s])).values()];
  const authorized: StreamRow[] = [];
  const unauthorized: StreamRow[] = [];
  const realmAllowsAdding = hasRealmPermission(app, me, "can_add_subscribers_group");
  for (const stream of existingStreams) {
    const a = await loadChannelAccess(app, me, stream);
    if (stream.is_archived || !hasContentAccess(a)) unauthorized.push(stream);
    else if (subscribingOthers && !canAddSubscribers(a, realmAllowsAdding)) throw insufficientPermission();
    else authorized.push(stream);
  }
  if (unauthorized.length && input.authorizationErrorsFatal) throw badRequest(`Unable to access channel (${unauthorized[0]!.name}).`);

  const colorByName = new Map(wanted.filter((s) => s.color).map((s) => [s.name.toLowerCase(), s.color!]));
  const access = await watchUserAccess(app, { userIds: targets.map((u) => u.id), streamIds: authorized.map((s) => s.id) });
  const { created, added, already } = await app.db.tx(async (sql) => {
    const created: StreamRow[] = [];
    for (const [i, s] of toCreate.entries()) {
      if ((await mapStreamsByNames(sql, [s.name])).size) throw channelExists(s.name);
      const id = await insertChannel(app, sql, me, { name: s.name, description: s.description, renderedDescription: rendered[i]! }, input);
      created.push((await findStreamById(sql, id))!);
    }
    const streams = [...authorized, ...created];
    const rows = await listSubscriptionRows(sql, targets.map((u) => u.id), streams.map((s) => s.id));
    const rowOf = new Map(rows.map((r) => [`${r.user_id}:${r.stream_id}`, r]));
    const used = await mapUsedColors(sql, targets.map((u) => u.id));
    const added: { user: UserRow; stream: StreamRow }[] = [];
    const already: { user: UserRow; stream: StreamRow }[] = [];
    const upserts: { userId: number; streamId: number; color: string }[] = [];
    for (const user of targets) {
      for (const stream of streams) {
        const row = rowOf.get(`${user.id}:${stream.id}`);
        if (row?.active) {
          already.push({ user, stream });
          continue;
        }
        const color = row?.color ?? colorByName.get(stream.name.toLowerCase()) ?? pickColor(used.get(user.id)!);
        upserts.push({ userId: user.id, streamId: stream.id, color });
        added.push({ user, stream });
      }
    }
    await upsertSubscriptions(sql, upserts);
    return { created, added, already };
  });
  if (created.length) await reloadGroups(app);

  // Guests first learn about the users they can now see, then about the subscriptions.
  await access.publish();
  await publishSubscriptionAdds(app, created, added);
  if (created.length && input.isDefaultStream) await publishDefaultStreams(app);
  const messagesSent = await notifyNewChannels(app, me, { created, added, announce: input.announce, sendSubscriptionMessages: input.sendSubscriptionMessages });

  const result: SubscribeResult = { subscribed: groupNames(added), already_subscribed: groupNames(already) };
  if (!input.authorizationErrorsFatal) result.unauthorized = unauthorized.map((s) => s.name);
  if (subscribingOthers && input.sendSubscriptionMessages) result.new_subscription_messages_sent = messagesSent;
  return result;
}

function dedupeByName<T extends { name: string }>(items: T[]): T[] {
  const seen = new Map<string, T>();
  for (const i of items) if (!seen.has(i.name.toLowerCase())) seen.set(i.name.toLowerCase(), i);
  return [...seen.values()];
}

function groupNames(pairs: { user: UserRow; stream: StreamRow }[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const { user, stream } of pairs) (out[String(user.id)] ??= []).push(stream.name);
  return out;
}

/**
 * Events after subscribing: stream create for channels that are new or newly visible to a
 * subscriber, subscription add to each subscriber (with subscriber lists), peer_add to everyone
 * else who may see the channel's subscribers. createUser uses it for a new user's channels.
 */
export async function publishSubscriptionAdds(app: App, created: StreamRow[], added: { user: UserRow; stream: StreamRow }[]) {
  const streams = [...new Map([...created, ...added.map((a) => a.stream)].map((s) => [s.id, s])).values()];
  if (!streams.length) return;
  const fresh = await listStreamsByIds(app.db, streams.map((s) => s.id));
  const audience = await loadAudience(app, app.db, fresh.map((s) => s.id));
  const streamCtx = await formatContext(app, app.db, fresh);
  const formatted = new Map(fresh.map((f) => [f.id, streamDict(f, streamCtx)]));
  const createdIds = new Set(created.map((s) => s.id));
  for (const stream of fresh.filter((s) => createdIds.has(s.id))) {
    app.events.publish({ type: "stream", op: "create", streams: [formatted.get(stream.id)!] }, metadataAudience(app, audience, stream));
  }
  const byUser = new Map<number, StreamRow[]>();
  for (const { user, stream } of added) {
    const current = fresh.find((s) => s.id === stream.id)!;
    if (!createdIds.has(stream.id) && !hasMetadataAccess(channelAccess(app, user, current, false))) {
      app.events.publish({ type: "stream", op: "create", streams: [formatted.get(stream.id)!] }, [user.id]);
    }
    byUser.set(user.id, [...(byUser.get(user.id) ?? []), current]);
  }
  const rows = await listSubscriptionRows(app.db, [...byUser.keys()], fresh.map((s) => s.id));
  const rowOf = new Map(rows.map((r) => [`${r.user_id}:${r.stream_id}`, r]));
  for (const [userId, streamsOfUser] of byUser) {
    const subs = streamsOfUser.map((stream) => subscriptionDict(stream, rowOf.get(`${userId}:${stream.id}`)!, streamCtx, audience.subscribers.get(stream.id)));
    app.events.publish({ type: "subscription", op: "add", subscriptions: subs }, [userId]);
  }
  for (const stream of fresh) {
    const altered = new Set(added.filter((a) => a.stream.id === stream.id).map((a) => a.user.id));
    if (!altered.size) continue;
    const peers = metadataAudience(app, audience, stream).filter((u) => !altered.has(u));
    app.events.publish({ type: "subscription", op: "peer_add", stream_ids: [stream.id], user_ids: [...altered].sort((a, b) => a - b) }, peers);
  }
}


export interface UnsubscribeResult {
  removed: string[];
  not_removed: string[];
}

/** DELETE /users/me/subscriptions: by channel names, for the caller or `principals`. */
export async function unsubscribe(app: App, me: UserRow, names: string[], principals: (number | string)[] | null): Promise<UnsubscribeResult> {
  const targets = principals?.length ? await resolvePrincipals(app, app.db, principals) : [me];
  const othersAffected = targets.some((u) => u.id !== me.id && !(u.is_bot && u.bot_owner_id === me.id));
  const byName = await mapStreamsByNames(app.db, names);
  if (othersAffected) {
    for (const stream of byName.values()) {
      if (!canRemoveSubscribers(await loadChannelAccess(app, me, stream))) throw insufficientPermission();
    }
  }
  const missing = names.find((n) => !byName.has(n.trim().toLowerCase()));
  if (missing !== undefined) throw streamDoesNotExist(missing.trim());
  const streams = [...new Map(names.map((n) => byName.get(n.trim().toLowerCase())!).map((s) => [s.id, s])).values()];

  const access = await watchUserAccess(app, { userIds: targets.map((u) => u.id), streamIds: streams.map((s) => s.id) });
  const removed = await app.db.tx(async (sql) => {
    const rows = await listSubscriptionRows(sql, targets.map((u) => u.id), streams.map((s) => s.id));
    const active = rows.filter((r) => r.active);
    await deactivateSubscriptions(sql, active.map((r) => ({ userId: r.user_id, streamId: r.stream_id })));
    return active;
  });
  const result: UnsubscribeResult = { removed: [], not_removed: [] };
  for (const user of targets) {
    for (const stream of streams) {
      const gone = removed.some((r) => r.user_id === user.id && r.stream_id === stream.id);
      (gone ? result.removed : result.not_removed).push(stream.name);
    }
  }
  await publishSubscriptionRemovals(app, streams, targets, removed);
  if (removed.length) await access.publish();
  return result;
}

/** subscription remove to each user, stream delete to those who lost sight of a channel, peer_remove to the rest. */
async function publishSubscriptionRemovals(app: App, streams: StreamRow[], users: UserRow[], removed: SubscriptionRow[]) {
  if (!removed.length) return;
  const audience = await loadAudience(app, app.db, streams.map((s) => s.id));
  for (const user of users) {
    const mine = streams.filter((s) => removed.some((r) => r.user_id === user.id && r.stream_id === s.id));
    if (!mine.length) continue;
    app.events.publish({ type: "subscription", op: "remove", subscriptions: mine.map((s) => ({ name: s.name, stream_id: s.id })) }, [user.id]);
    const lost = isAdmin(user.role) ? [] : mine.filter((s) => !hasBasicAccess(channelAccess(app, user, s, false)));
    if (lost.length) app.events.publish(streamDeleteEvent(lost.map((s) => s.id)), [user.id]);
  }
  for (const stream of streams) {
    const altered = new Set(removed.filter((r) => r.stream_id === stream.id).map((r) => r.user_id));
    if (!altered.size) continue;
    const peers = metadataAudience(app, audience, stream).filter((u) => !altered.has(u));
    app.events.publish({ type: "subscription", op: "peer_remove", stream_ids: [stream.id], user_ids: [...altered].sort((a, b) => a - b) }, peers);
  }
}

export const streamDeleteEvent = (streamIds: number[]) => ({
  type: "stream",
  op: "delete",
  streams: streamIds.map((id) => ({ stream_id: id })),
  stream_ids: streamIds,
});

/** GET /users/me/subscriptions: the caller's active subscriptions, optionally with subscriber lists. */
export async function listOwnSubscriptions(app: App, me: UserRow, includeSubscribers: boolean) {
  const rows = (await listUserSubscriptionRows(app.db, me.id)).filter((r) => r.active);
  const streams = await listStreamsByIds(app.db, rows.map((r) => r.stream_id));
  const subscribers = includeSubscribers ? await mapSubscriberIds(app.db, streams.map((s) => s.id)) : undefined;
  const pairs = streams.map((stream) => ({ stream, sub: rows.find((r) => r.stream_id === stream.id)! }));
  return formatSubscriptions(app, app.db, pairs, subscribers);
}

/** GET /streams/{stream_id}/members */
export async function channelSubscribers(app: App, me: UserRow, streamId: number): Promise<number[]> {
  const { stream } = await accessChannelById(app, me, streamId, { requireContentAccess: false, allowArchived: true });
  return listSubscriberIds(app.db, stream.id);
}

/** GET /users/{user_id}/subscriptions/{stream_id} */
export async function subscriptionStatus(app: App, me: UserRow, userId: number, streamId: number): Promise<boolean> {
  const target = await findUserById(app.db, userId);
  if (!target || target.realm_id !== me.realm_id) throw noSuchUser();
  const { stream } = await accessChannelById(app, me, streamId, { requireContentAccess: false, allowArchived: true });
  return isSubscribed(app.db, target.id, stream.id);
}

export const SUBSCRIPTION_PROPERTIES = [
  "color",
  "is_muted",
  "in_home_view",
  "pin_to_top",
  "desktop_notifications",
  "audible_notifications",
  "push_notifications",
  "email_notifications",
  "wildcard_mentions_notify",
] as const;

export interface PropertyChange {
  stream_id: number;
  property: string;
  value: boolean | string;
}

/** Validates one change: a hex colour for `color`, booleans for the rest (Zulip's texts). */
function checkPropertyValue(change: PropertyChange): void {
  if (change.property === "color") {
    if (typeof change.value !== "string" || !isHexColor(change.value)) throw badRequest("color is not a valid hex color code");
  } else if ((SUBSCRIPTION_PROPERTIES as readonly string[]).includes(change.property)) {
    if (typeof change.value !== "boolean") throw badRequest(`${change.property} is not a boolean`);
  } else {
    throw badRequest(`Unknown subscription property: ${change.property}`);
  }
}

/**
 * PATCH /users/me/subscriptions/{id} and POST /users/me/subscriptions/properties: personal
 * settings of the caller's subscriptions, in one transaction. is_muted / in_home_view changes
 * emit two update events (in_home_view first, then is_muted).
 */
export async function updateSubscriptionProperties(app: App, me: UserRow, changes: PropertyChange[]): Promise<void> {
  for (const change of changes) {
    checkPropertyValue(change);
    await accessChannelById(app, me, change.stream_id, { allowArchived: true });
    const sub = await findSubscription(app.db, me.id, change.stream_id);
    if (!sub?.active) throw badRequest(`Not subscribed to channel ID ${change.stream_id}`);
  }
  const events: Record<string, unknown>[] = [];
  await app.db.tx(async (sql) => {
    for (const { stream_id, property, value } of changes) {
      if (property === "is_muted" || property === "in_home_view") {
        const muted = property === "is_muted" ? (value as boolean) : !(value as boolean);
        await updateSubscriptionColumn(sql, me.id, stream_id, "is_muted", muted ? 1 : 0);
        events.push({ type: "subscription", op: "update", property: "in_home_view", value: !muted, stream_id });
        events.push({ type: "subscription", op: "update", property: "is_muted", value: muted, stream_id });
      } else {
        const stored = typeof value === "boolean" ? (value ? 1 : 0) : value;
        await updateSubscriptionColumn(sql, me.id, stream_id, property as SubscriptionColumn, stored);
        events.push({ type: "subscription", op: "update", property, value, stream_id });
      }
    }
  });
  for (const e of events) app.events.publish(e as never, [me.id]);
}

/** The form value of `value`: JSON booleans become booleans, anything else stays a string. */
export function parsePropertyValue(raw: string): boolean | string {
  if (raw === "true") return true;
  if (raw === "false") return false;
  return raw;
}
