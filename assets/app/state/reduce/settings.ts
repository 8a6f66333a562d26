/** user_settings, user_topic, user_group and realm events. */
import { OPTIONAL_REALM_GROUPS, realmEmojiOf, SETTING_NAMES, toGroup, toGroupSetting } from "../from-register";
import { USER_GROUP_PERMISSIONS, type Realm, type State, type UserGroup } from "../types";
import { placeKey } from "../user-topics";
import { withKey, without } from "./records";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

export function onUserSettings(state: State, e: Json): State {
  if (e.op !== "update" || !(SETTING_NAMES as readonly string[]).includes(e.property)) return state;
  const next = { ...state, settings: { ...state.settings, [e.property]: e.value } };
  // turning synchronization off deletes the drafts on the server (without an event per draft, as in Zulip)
  if (e.property === "enable_drafts_synchronization" && e.value === false) next.drafts = {};
  return next;
}

export function onRealmEmoji(state: State, e: Json): State {
  return e.op === "update" ? { ...state, realm_emoji: realmEmojiOf(e.realm_emoji) } : state;
}

export function onUserTopic(state: State, e: Json): State {
  const key = placeKey(e.stream_id, e.topic_name);
  if (!e.visibility_policy) return { ...state, user_topics: without(state.user_topics, key) };
  return { ...state, user_topics: withKey(state.user_topics, key, { stream_id: e.stream_id, topic: e.topic_name, policy: e.visibility_policy }) };
}

const sortedUnion = (a: number[], b: number[]) => [...new Set([...a, ...b])].sort((x, y) => x - y);

export function onUserGroup(state: State, e: Json): State {
  if (e.op === "add") return e.group.deactivated ? state : { ...state, groups: withKey(state.groups, e.group.id, toGroup(e.group)) };
  if (e.op === "remove") return { ...state, groups: without(state.groups, e.group_id) };
  const g = state.groups[e.group_id];
  if (!g) return state;
  switch (e.op) {
    case "update":
      if (e.data.deactivated) return { ...state, groups: without(state.groups, e.group_id) };
      return { ...state, groups: withKey(state.groups, g.id, updatedGroup(g, e.data)) };
    case "add_members":
      return { ...state, groups: withKey(state.groups, g.id, { ...g, members: sortedUnion(g.members, e.user_ids) }) };
    case "remove_members":
      return { ...state, groups: withKey(state.groups, g.id, { ...g, members: g.members.filter((id) => !e.user_ids.includes(id)) }) };
    case "add_subgroups":
      return { ...state, groups: withKey(state.groups, g.id, { ...g, direct_subgroup_ids: sortedUnion(g.direct_subgroup_ids, e.direct_subgroup_ids) }) };
    case "remove_subgroups":
      return { ...state, groups: withKey(state.groups, g.id, { ...g, direct_subgroup_ids: g.direct_subgroup_ids.filter((id) => !e.direct_subgroup_ids.includes(id)) }) };
    default:
      return state;
  }
}

/** A group with an update event's data: its name, description and permissions. */
function updatedGroup(g: UserGroup, data: Json): UserGroup {
  const next: UserGroup = { ...g };
  if (data.name !== undefined) next.name = data.name;
  if (data.description !== undefined) next.description = data.description;
  for (const k of USER_GROUP_PERMISSIONS) if (data[k] !== undefined) next.settings = { ...next.settings, [k]: toGroupSetting(data[k]) };
  return next;
}

/** realm property → the app's name for it */
const REALM_FIELDS: Record<string, keyof Realm> = {
  name: "name",
  description: "description",
  mandatory_topics: "mandatory_topics",
  presence_disabled: "presence_disabled",
  empty_topic_display_name: "empty_topic_display_name",
  enable_guest_user_indicator: "enable_guest_user_indicator",
  allow_message_editing: "allow_message_editing",
  message_content_edit_limit_seconds: "message_content_edit_limit_seconds",
  message_content_delete_limit_seconds: "message_content_delete_limit_seconds",
  move_messages_within_stream_limit_seconds: "move_messages_within_stream_limit_seconds",
  move_messages_between_streams_limit_seconds: "move_messages_between_streams_limit_seconds",
  message_edit_history_visibility_policy: "message_edit_history_visibility_policy",
  enable_spectator_access: "enable_spectator_access",
  // Parley's switch for Zulip's server-wide WEB_PUBLIC_STREAMS_ENABLED (server_web_public_streams_enabled)
  web_public_streams_enabled: "web_public_channels_enabled",
  new_stream_announcements_stream_id: "new_stream_announcements_stream_id",
  name_changes_disabled: "name_changes_disabled",
  email_changes_disabled: "email_changes_disabled",
  avatar_changes_disabled: "avatar_changes_disabled",
  enable_read_receipts: "enable_read_receipts",
};

/** Organization permissions (group settings) the app reads. */
const REALM_GROUPS = [
  "can_delete_any_message_group",
  "can_delete_own_message_group",
  "can_move_messages_between_channels_group",
  "can_move_messages_between_topics_group",
  "can_resolve_topics_group",
  "create_multiuse_invite_group",
  "can_invite_users_group",
  "can_create_public_channel_group",
  "can_create_private_channel_group",
  "can_create_web_public_channel_group",
] as const;

export function onRealm(state: State, e: Json): State {
  const patch: Partial<Realm> = {};
  const data: Record<string, unknown> = e.op === "update" ? { [e.property]: e.value } : e.op === "update_dict" ? e.data : {};
  for (const [k, v] of Object.entries(data)) if (REALM_FIELDS[k]) (patch as Json)[REALM_FIELDS[k]] = v;
  for (const k of [...REALM_GROUPS, ...OPTIONAL_REALM_GROUPS]) if (data[k] !== undefined) patch[k] = toGroupSetting(data[k]);
  // the older boolean, from a server that does not send the policy with it (or sends it in an event of its
  // own, before or after): false hides the history; true shows it unless the policy already shows some
  if (typeof data.allow_edit_history === "boolean" && data.message_edit_history_visibility_policy === undefined) {
    const current = patch.message_edit_history_visibility_policy ?? state.realm.message_edit_history_visibility_policy;
    patch.message_edit_history_visibility_policy = !data.allow_edit_history ? "none" : current === "none" ? "all" : current;
  }
  if (typeof data.icon_url === "string") patch.icon_url = data.icon_url;
  return Object.keys(patch).length ? { ...state, realm: { ...state.realm, ...patch } } : state;
}
