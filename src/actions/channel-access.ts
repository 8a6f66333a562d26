import { realmOf, type App } from "../app";
import { hasBasicAccess, hasContentAccess, hasMetadataAccess, type ChannelAccess, type ChannelUser } from "../domain/channel-permissions";
import type { GroupSettingValue } from "../domain/group-setting";
import { isGuest } from "../domain/roles";
import { badRequest } from "../errors";
import type { Sql } from "../store/db";
import { findStreamById, findStreamByName, type StreamRow } from "../store/streams";
import { isSubscribed } from "../store/subscriptions";
import { userHasGroupPermission } from "./group-settings";

/**
 * The action-level side of src/domain/channel-permissions.ts: builds the facts the pure predicates
 * need (subscription, group membership from app.groups) and Zulip's access_stream_* lookups.
 */

/** The predicate input when the subscription is already known (no query). */
export function channelAccess(app: App, user: ChannelUser, channel: StreamRow, subscribed: boolean): ChannelAccess {
  return { user, channel, subscribed, inGroup: (g) => app.groups.isMember(g, user.id) };
}

/** The predicate input, looking the subscription up (one query). */
export async function loadChannelAccess(app: App, user: ChannelUser, channel: StreamRow, sql: Sql = app.db): Promise<ChannelAccess> {
  return channelAccess(app, user, channel, await isSubscribed(sql, user.id, channel.id));
}

export interface AccessOptions {
  /** content access (default) or only what Zulip's require_content_access=false allows */
  requireContentAccess?: boolean;
  /** accept archived channels (default false: they answer like missing ones) */
  allowArchived?: boolean;
  sql?: Sql;
}

async function access(app: App, user: ChannelUser, stream: StreamRow | undefined, error: string, opts: AccessOptions) {
  if (!stream || stream.realm_id !== realmOf(app).id) throw badRequest(error);
  const a = await loadChannelAccess(app, user, stream, opts.sql);
  if (stream.is_archived && !opts.allowArchived) throw badRequest(error);
  const ok = opts.requireContentAccess === false ? hasBasicAccess(a) : hasContentAccess(a);
  if (!ok) throw badRequest(error);
  return { stream, access: a };
}

/** Zulip's access_stream_by_id: "Invalid channel ID" for missing and inaccessible channels alike. */
export async function accessChannelById(app: App, user: ChannelUser, streamId: number, opts: AccessOptions = {}) {
  return access(app, user, await findStreamById(opts.sql ?? app.db, streamId), "Invalid channel ID", opts);
}

/** Zulip's access_stream_by_name: "Invalid channel name 'x'" for missing and inaccessible channels alike. */
export async function accessChannelByName(app: App, user: ChannelUser, name: string, opts: AccessOptions = {}) {
  return access(app, user, await findStreamByName(opts.sql ?? app.db, name), `Invalid channel name '${name}'`, opts);
}

/** Whether the user may know of the channel (metadata access), looking the subscription up. */
export async function canSeeChannel(app: App, user: ChannelUser, stream: StreamRow, sql: Sql = app.db): Promise<boolean> {
  return hasMetadataAccess(await loadChannelAccess(app, user, stream, sql));
}

/** Organization settings that never include guests (Zulip: allow_everyone_group=False). */
const REALM_SETTINGS_WITHOUT_GUESTS = new Set([
  "can_add_subscribers_group",
  "can_create_public_channel_group",
  "can_create_private_channel_group",
  "can_create_web_public_channel_group",
  "can_manage_all_groups",
  "can_move_messages_between_channels_group",
  "can_set_delete_message_policy_group",
  "can_set_topics_policy_group",
  "can_invite_users_group",
  "create_multiuse_invite_group",
  "can_create_groups",
  "can_add_custom_emoji_group",
  "can_create_bots_group",
  "can_create_write_only_bots_group",
]);

/** Whether the user holds an organization-level group permission (e.g. "can_add_subscribers_group"). */
export function hasRealmPermission(app: App, user: ChannelUser, settingName: string): boolean {
  const value = realmOf(app).settings[settingName] as GroupSettingValue | undefined;
  if (value === undefined) return false;
  if (REALM_SETTINGS_WITHOUT_GUESTS.has(settingName) && isGuest(user.role)) return false;
  return userHasGroupPermission(app, user, value);
}
