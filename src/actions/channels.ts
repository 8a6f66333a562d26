import { realmOf, reloadGroups, reloadRealm, type App } from "../app";
import { accessChannelById, accessChannelByName, channelAccess, hasRealmPermission, loadChannelAccess } from "./channel-access";
import {
  channelExists,
  checkChannelName,
  checkWebPublicAllowed,
  incompatibleParameters,
  insufficientPermission,
  retentionDaysValue,
} from "./channel-create";
import { formatStream, formatStreams, loadAudience, metadataAudience, renderDescription } from "./channel-data";
import { accessBotById } from "./bots";
import { publishDefaultStreams } from "./default-streams";
import { dropArchivedChannel, publishDefaultStreamGroups } from "./default-stream-groups";
import { groupSettingApiValue, systemGroupId, updateGroupSetting } from "./group-settings";
import { postChannelNotice } from "./channel-notices";
import {
  accessChangedNotice,
  archivedNotice,
  descriptionChangedNotice,
  postingPermissionChangedNotice,
  renamedNotice,
  retentionChangedNotice,
  settingHoldersText,
  topicsPolicyChangedNotice,
  unarchivedNotice,
} from "../domain/channel-notices";
import type { GroupSettingValue } from "../domain/group-setting";
import { channelKind } from "../domain/channel-permissions";
import { listGroupsByIds } from "../store/group-settings";
import { listUsersByIds } from "../store/users";
import { streamDeleteEvent } from "./subscriptions";
import {
  canAdminister,
  CHANNEL_GROUP_SETTINGS,
  hasContentAccess,
  hasMetadataAccess,
  SETTINGS_REQUIRING_CONTENT_ACCESS,
} from "../domain/channel-permissions";
import type { TopicsPolicy } from "../domain/channel-format";
import { normalizeGroupSettingValue, type GroupSettingUpdate } from "../domain/group-setting";
import { ANNOUNCEMENT_SETTINGS } from "../domain/realm-settings";
import { isAdmin, isGuest, isOwner } from "../domain/roles";
import { badRequest, ownerRequired } from "../errors";
import { findChannelFolder } from "../store/channel-folders";
import { findRealm, updateRealm } from "../store/realm";
import {
  addDefaultStream,
  countMessagesOutsideEmptyTopic,
  findStreamById,
  findStreamByName,
  listDefaultStreamIds,
  listStreams,
  listTopics,
  removeDefaultStream,
  updateStream,
  type ChannelGroupSettingName,
  type StreamRow,
} from "../store/streams";
import { listSubscribedStreamIds, listSubscriberIds } from "../store/subscriptions";
import { listUsers, type UserRow } from "../store/users";

export interface ListStreamsInput {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  excludeArchived: boolean;
  includeAll: boolean;
  includeDefault: boolean;
  includeOwnerSubscribed: boolean;
  includeCanAccessContent: boolean;
}

/** GET /streams: the channels the caller asked for among those they may know of, sorted by name. */
export async function listChannels(app: App, me: UserRow, input: ListStreamsInput) {
  const realm = realmOf(app);
  let all = await listStreams(app.db, realm.id);
  if (input.excludeArchived) all = all.filter((s) => !s.is_archived);
  const subscribed = new Set(await listSubscribedStreamIds(app.db, me.id));
  const access = (s: StreamRow) => channelAccess(app, me, s, subscribed.has(s.id));
  let chosen: StreamRow[];
  if (input.includeAll) chosen = all.filter((s) => hasMetadataAccess(access(s)));
  else {
    const ownerSubscribed =
      input.includeOwnerSubscribed && me.is_bot && me.bot_owner_id ? new Set(await listSubscribedStreamIds(app.db, me.bot_owner_id)) : new Set<number>();
    chosen = all.filter(
      (s) =>
        (input.includeCanAccessContent && hasContentAccess(access(s))) ||
        (input.includeSubscribed && subscribed.has(s.id)) ||
        (input.includePublic && !isGuest(me.role) && !s.invite_only) ||
        (input.includeWebPublic && s.is_web_public && !s.is_archived) ||
        ownerSubscribed.has(s.id),
    );
  }
  chosen.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const dicts = await formatStreams(app, app.db, chosen);
  if (input.includeDefault) {
    const defaults = new Set(await listDefaultStreamIds(app.db, realm.id));
    for (const d of dicts) d.is_default = defaults.has(d.stream_id as number);
  }
  return dicts;
}

/** GET /streams/{stream_id} */
export async function getChannel(app: App, me: UserRow, streamId: number) {
  const { stream } = await accessChannelById(app, me, streamId, { requireContentAccess: false, allowArchived: true });
  return formatStream(app, app.db, stream);
}

/**
 * GET /streams/{stream_id}/email_address (Zulip's get_stream_email_address). Parley has no incoming-email
 * gateway, so the address is "" as Zulip answers when EMAIL_GATEWAY_PATTERN is empty; the channel and the
 * sender are still checked as Zulip does: the caller may read the channel, and `sender_id` is the caller or
 * a bot they administer (Zulip's access_bot_by_id).
 */
export async function channelEmailAddress(app: App, me: UserRow, streamId: number, senderId: number | undefined): Promise<string> {
  await accessChannelById(app, me, streamId);
  if (senderId !== undefined && senderId !== me.id) await accessBotById(app, me, senderId);
  return "";
}

/** GET /get_stream_id */
export async function getChannelId(app: App, me: UserRow, name: string): Promise<number> {
  return (await accessChannelByName(app, me, name)).stream.id;
}

/** GET /users/me/{stream_id}/topics: topics with their newest message the caller may see, newest first. */
export async function listChannelTopics(app: App, me: UserRow, streamId: number, allowEmptyTopicName: boolean) {
  const { stream } = await accessChannelById(app, me, streamId, { allowArchived: true });
  const rows = await listTopics(app.db, stream.id, stream.history_public_to_subscribers ? null : me.id);
  const seen = new Set<string>();
  const display = realmOf(app).settings.empty_topic_display_name;
  const out: { name: string; max_id: number }[] = [];
  for (const r of rows) {
    const key = r.topic.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ name: r.topic === "" && !allowEmptyTopicName ? display : r.topic, max_id: r.max_id });
  }
  return out;
}

/**
 * Zulip's access_stream_for_delete_or_update_requiring_metadata_access: administrators and the
 * channel's administrators pass; others who can read it are told they cannot administer it; the
 * rest get "Invalid channel ID" as if it did not exist.
 */
async function accessForAdministration(app: App, me: UserRow, streamId: number) {
  const stream = await findStreamById(app.db, streamId);
  if (!stream || stream.realm_id !== realmOf(app).id) throw badRequest("Invalid channel ID");
  const a = await loadChannelAccess(app, me, stream);
  if (canAdminister(a)) return { stream, access: a };
  if (hasContentAccess(a)) throw badRequest("You do not have permission to administer this channel.");
  throw badRequest("Invalid channel ID");
}

export interface UpdateChannelInput {
  description?: string;
  newName?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  isDefaultStream?: boolean;
  messageRetentionDays?: string | number;
  isArchived?: boolean;
  folderId?: number | null;
  topicsPolicy?: TopicsPolicy;
  groupSettings: Partial<Record<ChannelGroupSettingName, GroupSettingUpdate>>;
}

type StreamEvent = Record<string, unknown>;

/**
 * PATCH /streams/{stream_id}: every change is validated first, then written in one transaction.
 * Events: users who knew of the channel before and after get one `stream update` per property;
 * users who newly may know get `stream create` (+ peer_add), those who no longer may get `stream delete`.
 */
export async function updateChannel(app: App, me: UserRow, streamId: number, input: UpdateChannelInput): Promise<void> {
  const realm = realmOf(app);
  const { stream, access } = await accessForAdministration(app, me, streamId);
  const defaults = new Set(await listDefaultStreamIds(app.db, realm.id));
  const proposedPrivate = input.isPrivate ?? Boolean(stream.invite_only);
  const proposedWebPublic = input.isWebPublic ?? Boolean(stream.is_web_public);
  const proposedDefault = input.isDefaultStream ?? defaults.has(stream.id);
  const proposedHistory =
    input.historyPublicToSubscribers ?? (input.isPrivate !== undefined ? !input.isPrivate : Boolean(stream.history_public_to_subscribers));
  if (proposedWebPublic && !proposedHistory) throw badRequest("Invalid parameters");
  if (proposedWebPublic && proposedPrivate) throw badRequest("Invalid parameters");
  if (!proposedPrivate && !proposedHistory) throw badRequest("Invalid parameters");
  if (proposedPrivate && proposedDefault) throw badRequest("A default channel cannot be private.");
  if (input.isPrivate !== undefined) {
    if (!hasContentAccess(access)) throw badRequest("Channel content access is required.");
    const group = input.isPrivate ? "can_create_private_channel_group" : "can_create_public_channel_group";
    if (!hasRealmPermission(app, me, group)) throw insufficientPermission();
  }
  if (input.isWebPublic) checkWebPublicAllowed(app, me);
  const everyone = systemGroupId(app, "role:everyone");
  const nobody = systemGroupId(app, "role:nobody");
  const topicGroupUpdate = input.groupSettings.can_create_topic_group;
  const proposedTopicGroup = topicGroupUpdate ? normalizeGroupSettingValue(topicGroupUpdate.new, nobody) : stream.can_create_topic_group;
  if (!proposedHistory && proposedTopicGroup !== everyone) throw incompatibleParameters(["history_public_to_subscribers", "can_create_topic_group"]);
  if (input.isDefaultStream !== undefined && !isAdmin(me.role)) throw badRequest("You do not have permission to change default channels.");
  let retention: number | null | undefined;
  if (input.messageRetentionDays !== undefined) {
    if (!isOwner(me.role)) throw ownerRequired();
    retention = retentionDaysValue(input.messageRetentionDays);
  }
  const unarchive = input.isArchived === false;
  if (unarchive) {
    if (!stream.is_archived) throw badRequest("Channel is not currently deactivated");
    if (stream.invite_only && !(await listSubscriberIds(app.db, stream.id)).length) throw badRequest("Channel is private and have no subscribers");
  }
  if (input.topicsPolicy !== undefined) {
    if (!hasRealmPermission(app, me, "can_set_topics_policy_group")) throw insufficientPermission();
    if (input.topicsPolicy === "empty_topic_only" && (await countMessagesOutsideEmptyTopic(app.db, stream.id)) > 0) {
      const display = realm.settings.empty_topic_display_name;
      throw badRequest(`To enable this configuration, all messages in this channel must be in the "${display}" topic. Consider renaming or deleting other topics.`);
    }
  }
  let description: string | undefined;
  let renderedDescription = "";
  if (input.description !== undefined) {
    description = input.description.replace(/\n/g, " ");
    const max = app.config.limits.max_stream_description_length;
    if ([...description].length > max) throw badRequest(`description is too long (limit: ${max} characters)`);
    renderedDescription = await renderDescription(app, me, description);
  }
  let newName: string | undefined;
  if (input.newName !== undefined) {
    newName = input.newName.trim();
    if (newName === stream.name) throw badRequest("Channel already has that name.");
    checkChannelName(app, newName);
    if (newName.toLowerCase() !== stream.name.toLowerCase() && (await findStreamByName(app.db, newName))) throw channelExists(newName);
  }
  if (input.folderId !== undefined && input.folderId !== null) {
    const folder = await findChannelFolder(app.db, input.folderId);
    if (!folder || folder.realm_id !== realm.id) throw badRequest("Invalid channel folder ID");
  }
  for (const [name, update] of Object.entries(input.groupSettings) as [ChannelGroupSettingName, GroupSettingUpdate][]) {
    if (SETTINGS_REQUIRING_CONTENT_ACCESS.includes(name) && !hasContentAccess(access)) throw badRequest("Channel content access is required.");
    if (
      (name === "can_delete_any_message_group" || name === "can_delete_own_message_group") &&
      normalizeGroupSettingValue(update.new, nobody) !== nobody &&
      !hasRealmPermission(app, me, "can_set_delete_message_policy_group")
    ) {
      throw insufficientPermission();
    }
  }

  const oldPosting = input.groupSettings.can_send_message_group ? await groupSettingApiValue(app.db, stream.can_send_message_group) : null;
  const before = await loadAudience(app, app.db, [stream.id]);
  const knewBefore = new Set(metadataAudience(app, before, stream));
  const events: StreamEvent[] = [];
  const base = (property: string, value: unknown, name = stream.name): StreamEvent => ({ type: "stream", op: "update", stream_id: stream.id, name, property, value });
  let defaultsChanged = false;
  let groupsCreated = false;
  await app.db.tx(async (sql) => {
    const fields: Partial<StreamRow> = {};
    if (input.isPrivate !== undefined || input.isWebPublic !== undefined || input.historyPublicToSubscribers !== undefined) {
      fields.invite_only = proposedPrivate ? 1 : 0;
      fields.is_web_public = proposedWebPublic ? 1 : 0;
      fields.history_public_to_subscribers = proposedHistory ? 1 : 0;
      events.push({ ...base("invite_only", proposedPrivate), history_public_to_subscribers: proposedHistory, is_web_public: proposedWebPublic });
    }
    if (input.isDefaultStream !== undefined && input.isDefaultStream !== defaults.has(stream.id)) {
      if (input.isDefaultStream) await addDefaultStream(sql, realm.id, stream.id);
      else await removeDefaultStream(sql, realm.id, stream.id);
      defaultsChanged = true;
    }
    if (retention !== undefined) {
      fields.message_retention_days = retention;
      events.push(base("message_retention_days", retention));
    }
    if (unarchive) {
      fields.is_archived = 0;
      events.push(base("is_archived", false));
    }
    if (input.topicsPolicy !== undefined && input.topicsPolicy !== stream.topics_policy) {
      fields.topics_policy = input.topicsPolicy;
      events.push(base("topics_policy", input.topicsPolicy));
    }
    if (description !== undefined) {
      fields.description = description;
      fields.rendered_description = renderedDescription;
      events.push({ ...base("description", description), rendered_description: fields.rendered_description });
    }
    if (newName !== undefined) {
      fields.name = newName;
      events.push(base("name", newName));
    }
    if (input.folderId !== undefined && input.folderId !== stream.folder_id) {
      fields.folder_id = input.folderId;
      events.push(base("folder_id", input.folderId));
    }
    for (const [name, update] of Object.entries(input.groupSettings) as [ChannelGroupSettingName, GroupSettingUpdate][]) {
      const changed = await updateGroupSetting(app, sql, stream[name], update, name, CHANNEL_GROUP_SETTINGS[name]);
      if (!changed) continue;
      groupsCreated ||= changed.created;
      fields[name] = changed.groupId;
      events.push(base(name, changed.value));
    }
    await updateStream(sql, stream.id, fields);
  });
  if (groupsCreated) await reloadGroups(app);

  const fresh = (await findStreamById(app.db, stream.id))!;
  const after = await loadAudience(app, app.db, [stream.id]);
  const knowsNow = metadataAudience(app, after, fresh);
  const stayed = knowsNow.filter((u) => knewBefore.has(u));
  const gained = knowsNow.filter((u) => !knewBefore.has(u));
  const lost = [...knewBefore].filter((u) => !knowsNow.includes(u));
  for (const e of events) {
    // events name the channel by its name before a rename; a rename event carries the old name too.
    app.events.publish({ type: "stream", ...e, name: e.property === "name" ? stream.name : fresh.name } as never, stayed);
  }
  if (input.groupSettings.can_send_message_group) publishPostPolicy(app, stream, fresh, stayed);
  if (unarchive) app.events.publish({ type: "stream", op: "create", streams: [await formatStream(app, app.db, fresh)], for_unarchiving: true }, stayed);
  if (gained.length) {
    app.events.publish({ type: "stream", op: "create", streams: [await formatStream(app, app.db, fresh)] }, gained);
    app.events.publish({ type: "subscription", op: "peer_add", stream_ids: [fresh.id], user_ids: after.subscribers.get(fresh.id) ?? [] }, gained);
  }
  if (lost.length) app.events.publish(streamDeleteEvent([fresh.id]), lost);
  if (defaultsChanged) await publishDefaultStreams(app);
  await postUpdateNotices(app, me, stream, fresh, oldPosting);
}

/** Notification Bot's notices in the channel about what an update changed (Zulip's wording). */
async function postUpdateNotices(app: App, me: UserRow, old: StreamRow, fresh: StreamRow, oldPosting: GroupSettingValue | null) {
  const notices: string[] = [];
  if (channelKind(old) !== channelKind(fresh)) notices.push(accessChangedNotice(me, channelKind(old), channelKind(fresh)));
  if (old.message_retention_days !== fresh.message_retention_days) {
    notices.push(retentionChangedNotice(me, old.message_retention_days, fresh.message_retention_days, Number(realmOf(app).settings.message_retention_days)));
  }
  if (old.is_archived && !fresh.is_archived) notices.push(unarchivedNotice(fresh.name));
  if (old.topics_policy !== fresh.topics_policy) {
    notices.push(topicsPolicyChangedNotice(me, old.topics_policy, fresh.topics_policy, realmOf(app).settings.empty_topic_display_name));
  }
  if (old.description !== fresh.description) notices.push(descriptionChangedNotice(me, old.description, fresh.description));
  if (old.name !== fresh.name) notices.push(renamedNotice(me, old.name, fresh.name));
  if (oldPosting !== null && old.can_send_message_group !== fresh.can_send_message_group) {
    const newPosting = await groupSettingApiValue(app.db, fresh.can_send_message_group);
    notices.push(postingPermissionChangedNotice(me, await holders(app, oldPosting), await holders(app, newPosting)));
  }
  for (const content of notices) await postChannelNotice(app, fresh, content);
}

async function holders(app: App, value: GroupSettingValue): Promise<string> {
  const groupIds = typeof value === "number" ? [value] : value.direct_subgroups;
  const userIds = typeof value === "number" ? [] : value.direct_members;
  const groups = (await listGroupsByIds(app.db, groupIds)).filter((g) => g.name !== null).sort((a, b) => a.id - b.id);
  const users = (await listUsersByIds(app.db, userIds)).sort((a, b) => a.id - b.id);
  return settingHoldersText(groups as { name: string }[], users);
}

/** Legacy stream_post_policy / is_announcement_only updates when can_send_message_group changes their value. */
function publishPostPolicy(app: App, old: StreamRow, fresh: StreamRow, users: number[]) {
  const policy = (s: StreamRow) => {
    const name = [...app.systemGroups].find(([, id]) => id === s.can_send_message_group)?.[0];
    return ({ "role:administrators": 2, "role:fullmembers": 3, "role:moderators": 4 } as Record<string, number>)[name ?? ""] ?? 1;
  };
  if (policy(old) === policy(fresh)) return;
  const base = { type: "stream", op: "update", stream_id: fresh.id, name: fresh.name };
  app.events.publish({ ...base, property: "stream_post_policy", value: policy(fresh) }, users);
  app.events.publish({ ...base, property: "is_announcement_only", value: policy(fresh) === 2 }, users);
}

/**
 * DELETE /streams/{stream_id}: archives the channel. Subscriptions are kept; it stops being a
 * default channel and an announcement channel. Everyone who could see it gets `stream update`
 * is_archived and `stream delete`.
 */
export async function archiveChannel(app: App, me: UserRow, streamId: number): Promise<void> {
  const realm = realmOf(app);
  const { stream } = await accessForAdministration(app, me, streamId);
  if (stream.is_archived) throw badRequest("Channel is already deactivated");
  const audience = metadataAudience(app, await loadAudience(app, app.db, [stream.id]), stream);
  const wasDefault = (await listDefaultStreamIds(app.db, realm.id)).includes(stream.id);
  const resetSettings = ANNOUNCEMENT_SETTINGS.filter((k) => realm.settings[k] === stream.id);
  const inGroups = await app.db.tx(async (sql) => {
    await updateStream(sql, stream.id, { is_archived: 1 });
    if (wasDefault) await removeDefaultStream(sql, realm.id, stream.id);
    if (resetSettings.length) {
      const stored = JSON.parse((await findRealm(sql))!.settings);
      for (const k of resetSettings) stored[k] = -1;
      await updateRealm(sql, realm.id, { settings: JSON.stringify(stored) });
    }
    return dropArchivedChannel(sql, stream.id);
  });
  if (inGroups) await publishDefaultStreamGroups(app);
  if (resetSettings.length) {
    await reloadRealm(app);
    const everyone = (await listUsers(app.db, realm.id)).filter((u) => u.is_active).map((u) => u.id);
    app.events.publish({ type: "realm", op: "update_dict", property: "default", data: Object.fromEntries(resetSettings.map((k) => [k, -1])) }, everyone);
  }
  if (wasDefault) await publishDefaultStreams(app);
  app.events.publish({ type: "stream", op: "update", stream_id: stream.id, name: stream.name, property: "is_archived", value: true }, audience);
  app.events.publish({ ...streamDeleteEvent([stream.id]), for_archiving: true }, audience);
  await postChannelNotice(app, { ...stream, is_archived: 1 }, archivedNotice(stream.name));
}
