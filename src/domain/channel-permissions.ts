/**
 * Who may do what in a channel: pure predicates over the user's role, the channel row, whether the
 * user is subscribed, and a membership predicate (recursive, anonymous groups included). Messages,
 * uploads, events and invitations all ask here (after src/actions/channel-access.ts fetched the facts).
 * Rules follow Zulip's zerver/lib/streams.py.
 */
import type { GroupSettingConfig } from "./group-setting";
import { isAdmin, isGuest } from "./roles";
import type { ChannelGroupSettingName, StreamRow } from "../store/streams";

export interface ChannelUser {
  id: number;
  role: number;
}

export type ChannelFacts = Pick<StreamRow, "name" | "invite_only" | "is_web_public" | "history_public_to_subscribers" | "is_archived" | ChannelGroupSettingName>;

export interface ChannelAccess {
  user: ChannelUser;
  channel: ChannelFacts;
  /** an active subscription */
  subscribed: boolean;
  /** whether the user is in a group (through subgroups too); works for anonymous setting groups */
  inGroup: (groupId: number) => boolean;
}

/** Each channel setting's rules and default (Zulip's stream_permission_group_settings). */
export const CHANNEL_GROUP_SETTINGS: Record<ChannelGroupSettingName, GroupSettingConfig & { defaultGroup: string }> = {
  can_add_subscribers_group: { allowNobody: true, allowEveryone: false, defaultGroup: "role:nobody" },
  can_administer_channel_group: { allowNobody: true, allowEveryone: false, defaultGroup: "channel_creator" },
  can_create_topic_group: { allowNobody: true, allowEveryone: true, defaultGroup: "role:everyone" },
  can_delete_any_message_group: { allowNobody: true, allowEveryone: true, defaultGroup: "role:nobody" },
  can_delete_own_message_group: { allowNobody: true, allowEveryone: true, defaultGroup: "role:nobody" },
  can_move_messages_out_of_channel_group: { allowNobody: true, allowEveryone: true, defaultGroup: "role:nobody" },
  can_move_messages_within_channel_group: { allowNobody: true, allowEveryone: true, defaultGroup: "role:nobody" },
  can_remove_subscribers_group: { allowNobody: true, allowEveryone: true, defaultGroup: "role:administrators" },
  can_resolve_topics_group: { allowNobody: true, allowEveryone: true, defaultGroup: "role:nobody" },
  can_send_message_group: { allowNobody: true, allowEveryone: true, defaultGroup: "role:everyone" },
  can_subscribe_group: { allowNobody: true, allowEveryone: false, defaultGroup: "role:nobody" },
};

/** Settings whose change needs content access (not just metadata access) besides administer rights. */
export const SETTINGS_REQUIRING_CONTENT_ACCESS: readonly ChannelGroupSettingName[] = ["can_add_subscribers_group", "can_subscribe_group"];

export type ChannelKind = "web_public" | "public" | "private_shared_history" | "private_protected_history";

export function channelKind(c: Pick<StreamRow, "invite_only" | "is_web_public" | "history_public_to_subscribers">): ChannelKind {
  if (c.is_web_public) return "web_public";
  if (!c.invite_only) return "public";
  return c.history_public_to_subscribers ? "private_shared_history" : "private_protected_history";
}

/** Membership in a channel setting; settings that refuse role:everyone never include guests. */
export function inChannelSetting(a: ChannelAccess, setting: ChannelGroupSettingName): boolean {
  if (CHANNEL_GROUP_SETTINGS[setting].allowEveryone === false && isGuest(a.user.role)) return false;
  return a.inGroup(a.channel[setting]);
}

const inGroupsGrantingContent = (a: ChannelAccess) => inChannelSetting(a, "can_subscribe_group") || inChannelSetting(a, "can_add_subscribers_group");
const inGroupsGrantingMetadata = (a: ChannelAccess) => inGroupsGrantingContent(a) || inChannelSetting(a, "can_administer_channel_group");

/** May see that the channel exists, its name, description, settings and subscribers. */
export function hasMetadataAccess(a: ChannelAccess): boolean {
  if (a.channel.is_web_public || a.subscribed) return true;
  if (isGuest(a.user.role)) return false;
  if (!a.channel.invite_only || isAdmin(a.user.role)) return true;
  return inGroupsGrantingMetadata(a);
}

/** May read the channel's messages (and subscribe themselves). */
export function hasContentAccess(a: ChannelAccess): boolean {
  if (a.channel.is_web_public || a.subscribed) return true;
  if (isGuest(a.user.role)) return false;
  if (!a.channel.invite_only) return true;
  return inGroupsGrantingContent(a);
}

/**
 * Zulip's check_basic_stream_access(require_content_access=false): content access, or an
 * administrator, or metadata access through the channel's permission groups.
 */
export function hasBasicAccess(a: ChannelAccess): boolean {
  return hasContentAccess(a) || (!isGuest(a.user.role) && (isAdmin(a.user.role) || inGroupsGrantingMetadata(a)));
}

/**
 * May read messages sent before they subscribed: web-public, public for non-guests, and channels
 * whose history is public to subscribers for those with content access.
 */
export function canAccessHistory(a: ChannelAccess): boolean {
  if (a.channel.is_web_public) return true;
  if (!a.channel.invite_only && !isGuest(a.user.role)) return true;
  return Boolean(a.channel.history_public_to_subscribers) && hasContentAccess(a);
}

/**
 * May read one of the channel's messages now (Zulip's has_message_access for a channel message):
 * content access to the channel today, and either the message was received (a row) or the
 * channel's history is open to them. A row kept from an earlier subscription is not enough alone.
 */
export function canReadChannelMessage(a: ChannelAccess, received: boolean): boolean {
  return hasContentAccess(a) && (received || canAccessHistory(a));
}

/** Whether spectators read a channel: web-public and not archived (Zulip's web-public queryset). */
export const readableBySpectators = (s: Pick<StreamRow, "is_web_public" | "is_archived">) => Boolean(s.is_web_public) && !s.is_archived;

/**
 * May administer the channel (edit its settings, archive it). Organization administrators always
 * may; others through can_administer_channel_group (never guests). The caller first checks that
 * the user may know of the channel at all.
 */
export function canAdminister(a: ChannelAccess): boolean {
  return isAdmin(a.user.role) || inChannelSetting(a, "can_administer_channel_group");
}

/**
 * Why the user may not post in the channel, or null when they may (Zulip's
 * access_stream_for_send_message). A bot is judged as its owner when `owner` is given.
 */
export function postRefusal(a: ChannelAccess, owner?: ChannelAccess): string | null {
  if (!inChannelSetting(a, "can_send_message_group") && !(owner && inChannelSetting(owner, "can_send_message_group"))) {
    return "You do not have permission to post in this channel.";
  }
  const notAuthorized = `Not authorized to send to channel '${a.channel.name}'`;
  if (a.channel.is_archived) return notAuthorized;
  if (a.channel.is_web_public) return null;
  if (!a.channel.invite_only && !isGuest(a.user.role)) return null;
  if (a.subscribed || owner?.subscribed) return null;
  if (a.channel.history_public_to_subscribers && !isGuest(a.user.role) && inGroupsGrantingContent(a)) return null;
  return notAuthorized;
}

export const canPost = (a: ChannelAccess, owner?: ChannelAccess) => postRefusal(a, owner) === null;

/** May start a new topic (can_create_topic_group); a bot may when its owner may. */
export function canCreateTopics(a: ChannelAccess, owner?: ChannelAccess): boolean {
  return inChannelSetting(a, "can_create_topic_group") || (owner !== undefined && inChannelSetting(owner, "can_create_topic_group"));
}

/**
 * May subscribe other users: needs content access, then the organization's can_add_subscribers_group
 * (`realmAllows`), administrators, or the channel's administer / add-subscribers groups.
 */
export function canAddSubscribers(a: ChannelAccess, realmAllows: boolean): boolean {
  if (!hasContentAccess(a) || isGuest(a.user.role)) return false;
  if (realmAllows || isAdmin(a.user.role)) return true;
  return inChannelSetting(a, "can_administer_channel_group") || inChannelSetting(a, "can_add_subscribers_group");
}

/**
 * May unsubscribe other users: administrators always; channel administrators; members of
 * can_remove_subscribers_group who have (at least metadata) access. Never guests.
 */
export function canRemoveSubscribers(a: ChannelAccess): boolean {
  if (isAdmin(a.user.role)) return true;
  if (isGuest(a.user.role)) return false;
  if (inChannelSetting(a, "can_administer_channel_group")) return true;
  return hasBasicAccess(a) && inChannelSetting(a, "can_remove_subscribers_group");
}

/** May delete anyone's message here: the organization's group (`realmAllows`), or the channel's group with content access. */
export function canDeleteAnyMessage(a: ChannelAccess, realmAllows: boolean): boolean {
  return realmAllows || (hasContentAccess(a) && inChannelSetting(a, "can_delete_any_message_group"));
}

/** May delete their own messages here (time limits are the caller's). */
export function canDeleteOwnMessage(a: ChannelAccess, realmAllows: boolean): boolean {
  return realmAllows || (hasContentAccess(a) && inChannelSetting(a, "can_delete_own_message_group"));
}

/** May move messages out of this channel (realmAllows: can_move_messages_between_channels_group). */
export function canMoveMessagesOutOf(a: ChannelAccess, realmAllows: boolean): boolean {
  return realmAllows || canAdminister(a) || inChannelSetting(a, "can_move_messages_out_of_channel_group");
}

/** May move messages between topics of this channel (realmAllows: can_move_messages_between_topics_group). */
export function canMoveMessagesWithin(a: ChannelAccess, realmAllows: boolean): boolean {
  return realmAllows || canAdminister(a) || inChannelSetting(a, "can_move_messages_within_channel_group");
}

/** May resolve topics here (realmAllows: the organization's can_resolve_topics_group). */
export function canResolveTopics(a: ChannelAccess, realmAllows: boolean): boolean {
  return realmAllows || inChannelSetting(a, "can_resolve_topics_group");
}
