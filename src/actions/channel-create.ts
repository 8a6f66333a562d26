import { nowSecs, realmOf, type App } from "../app";
import { hasRealmPermission } from "./channel-access";
import { storeGroupSetting, systemGroupId as systemGroup } from "./group-settings";
import { CHANNEL_GROUP_SETTINGS, type ChannelUser } from "../domain/channel-permissions";
import { channelNameProblem, parseRetentionDays, type TopicsPolicy } from "../domain/channel-format";
import { normalizeGroupSettingValue, type GroupSettingValue } from "../domain/group-setting";
import { isAdmin, isOwner } from "../domain/roles";
import { badRequest, ownerRequired, ZulipError } from "../errors";
import type { Sql } from "../store/db";
import { findChannelFolder } from "../store/channel-folders";
import { insertRecipient } from "../store/realm";
import { addDefaultStream, CHANNEL_GROUP_SETTING_NAMES, insertStream, updateStream, type ChannelGroupSettingName } from "../store/streams";

/** Creation properties of POST /users/me/subscriptions (they apply to channels it creates). */
export interface NewChannelOptions {
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean | null;
  isDefaultStream: boolean;
  messageRetentionDays: string | number;
  topicsPolicy: TopicsPolicy | null;
  folderId: number | null;
  groupSettings: Partial<Record<ChannelGroupSettingName, GroupSettingValue>>;
}

export const insufficientPermission = () => badRequest("Insufficient permission");
export const incompatibleParameters = (names: string[]) => badRequest(`Unsupported parameter combination: ${names.join(", ")}`);
export const channelExists = (name: string) => new ZulipError("CHANNEL_ALREADY_EXISTS", `Channel '${name}' already exists`, 400);

export function checkChannelName(app: App, name: string): void {
  const problem = channelNameProblem(name, app.config.limits.max_stream_name_length);
  if (problem) throw badRequest(problem);
}

/** Stored message_retention_days from the request value; REQUEST_VARIABLE_INVALID when malformed. */
export function retentionDaysValue(value: string | number): number | null {
  const parsed = parseRetentionDays(value);
  if (parsed === undefined) {
    throw new ZulipError("REQUEST_VARIABLE_INVALID", `Bad value for 'message_retention_days': ${value}`, 400, { var_name: "message_retention_days" });
  }
  return parsed;
}

/** Web-public channels need the server setting and spectator access. */
export function checkWebPublicAllowed(app: App, user: ChannelUser): void {
  const s = realmOf(app).settings;
  if (!s.web_public_streams_enabled || !s.enable_spectator_access) throw badRequest("Web-public channels are not enabled.");
  if (!hasRealmPermission(app, user, "can_create_web_public_channel_group")) throw insufficientPermission();
}

/** The history setting a channel gets: public channels always share history; private default to protected. */
export const effectiveHistoryPublic = (inviteOnly: boolean, requested: boolean | null) => (inviteOnly ? (requested ?? false) : true);

/**
 * Checks that apply to every request that carries creation properties (Zulip checks these even
 * when every named channel exists): topics_policy permission, retention value, group values'
 * special rules, folder.
 */
export async function checkCreationProperties(app: App, sql: Sql, me: ChannelUser, opts: NewChannelOptions): Promise<void> {
  if (opts.topicsPolicy !== null && opts.topicsPolicy !== "inherit" && !hasRealmPermission(app, me, "can_set_topics_policy_group")) throw insufficientPermission();
  retentionDaysValue(opts.messageRetentionDays);
  const nobody = systemGroup(app, "role:nobody");
  for (const name of ["can_delete_any_message_group", "can_delete_own_message_group"] as const) {
    const v = opts.groupSettings[name];
    if (v !== undefined && normalizeGroupSettingValue(v, nobody) !== nobody && !hasRealmPermission(app, me, "can_set_delete_message_policy_group")) {
      throw insufficientPermission();
    }
  }
  const topicGroup = opts.groupSettings.can_create_topic_group;
  if (topicGroup !== undefined && !effectiveHistoryPublic(opts.inviteOnly, opts.historyPublicToSubscribers)) {
    if (normalizeGroupSettingValue(topicGroup, nobody) !== systemGroup(app, "role:everyone")) {
      throw incompatibleParameters(["history_public_to_subscribers", "can_create_topic_group"]);
    }
  }
  if (opts.folderId !== null && !(await findChannelFolder(sql, opts.folderId))) throw badRequest("Invalid channel folder ID");
}

/** Who may create the requested kind of channel (Zulip's check_channel_creation_permissions). */
export function checkCreationPermission(app: App, me: ChannelUser, opts: NewChannelOptions): void {
  const group = opts.inviteOnly ? "can_create_private_channel_group" : "can_create_public_channel_group";
  if (!hasRealmPermission(app, me, group)) throw insufficientPermission();
  if (opts.isDefaultStream && !isAdmin(me.role)) throw insufficientPermission();
  if (opts.inviteOnly && opts.isDefaultStream) throw badRequest("A default channel cannot be private.");
  if (opts.isWebPublic) checkWebPublicAllowed(app, me);
  if (retentionDaysValue(opts.messageRetentionDays) !== null && !isOwner(me.role)) throw ownerRequired();
}

/**
 * Inserts a channel with its recipient, rendered description and group settings (requested values
 * or the defaults: the creator administers it). Returns the new id; inside the caller's transaction.
 * The caller reloads the group graph after commit (anonymous setting groups may be new).
 */
export async function insertChannel(
  app: App,
  sql: Sql,
  me: ChannelUser,
  channel: { name: string; description: string; renderedDescription: string },
  opts: NewChannelOptions,
): Promise<number> {
  const realm = realmOf(app);
  const groups = {} as Record<ChannelGroupSettingName, number>;
  for (const setting of CHANNEL_GROUP_SETTING_NAMES) {
    const config = CHANNEL_GROUP_SETTINGS[setting];
    const requested = opts.groupSettings[setting];
    let value: GroupSettingValue;
    if (requested !== undefined) value = requested;
    else if (config.defaultGroup === "channel_creator") value = { direct_members: [me.id], direct_subgroups: [] };
    else value = systemGroup(app, config.defaultGroup);
    groups[setting] = (await storeGroupSetting(app, sql, value, setting, config)).groupId;
  }
  const id = await insertStream(sql, {
    realm_id: realm.id,
    name: channel.name,
    description: channel.description,
    rendered_description: channel.renderedDescription,
    invite_only: opts.inviteOnly ? 1 : 0,
    is_web_public: opts.isWebPublic ? 1 : 0,
    history_public_to_subscribers: effectiveHistoryPublic(opts.inviteOnly, opts.historyPublicToSubscribers) ? 1 : 0,
    date_created: nowSecs(app),
    creator_id: me.id,
    message_retention_days: retentionDaysValue(opts.messageRetentionDays),
    folder_id: opts.folderId,
    topics_policy: opts.topicsPolicy ?? "inherit",
    ...groups,
  });
  await updateStream(sql, id, { recipient_id: await insertRecipient(sql, 2, id) });
  if (opts.isDefaultStream) await addDefaultStream(sql, realm.id, id);
  return id;
}
