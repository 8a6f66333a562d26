/**
 * The organization's settings and lists as events change them: realm update / update_dict,
 * realm_user_settings_defaults, realm_linkifiers, realm_playgrounds, custom_profile_fields,
 * default_streams, default_stream_groups and channel_folder.
 */
import { byOrder, ORG_GROUP_SETTINGS, ORG_VALUE_SETTINGS, toChannelGroup, toFolder, toLinkifier, toOrgValue, toPlayground, toProfileField, type OrgState } from "../org";
import type { State } from "../types";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const KNOWN = new Set<string>([...ORG_VALUE_SETTINGS, ...ORG_GROUP_SETTINGS]);
const withOrg = (state: State, patch: Partial<OrgState>): State => ({ ...state, org: { ...state.org, ...patch } });

/** realm update / update_dict: every setting the administration screens show (state/reduce/settings.ts keeps state.realm). */
export function onRealmSettings(state: State, e: Json): State {
  const data: Record<string, unknown> = e.op === "update" ? { [e.property]: e.value } : e.op === "update_dict" ? e.data : {};
  const settings = { ...state.org.settings };
  let changed = false;
  for (const [k, v] of Object.entries(data)) {
    if (!KNOWN.has(k)) continue;
    (settings as Json)[k] = toOrgValue(k, v);
    changed = true;
  }
  // the legacy boolean and the policy describe the same rules; the server sends both, but maybe in two events
  if (typeof data.mandatory_topics === "boolean" && data.topics_policy === undefined && "topics_policy" in settings) {
    settings.topics_policy = data.mandatory_topics ? "disable_empty_topic" : "allow_empty_topic";
  }
  return changed ? withOrg(state, { settings }) : state;
}

export function onUserDefaults(state: State, e: Json): State {
  if (e.op !== "update") return state;
  return withOrg(state, { user_defaults: { ...state.org.user_defaults, [e.property]: e.value } });
}

export const onLinkifiers = (state: State, e: Json): State => withOrg(state, { linkifiers: (e.realm_linkifiers ?? []).map(toLinkifier) });
export const onPlaygrounds = (state: State, e: Json): State => withOrg(state, { playgrounds: (e.realm_playgrounds ?? []).map(toPlayground) });
export const onProfileFields = (state: State, e: Json): State => withOrg(state, { profile_fields: (e.fields ?? []).map(toProfileField) });
export const onDefaultStreams = (state: State, e: Json): State =>
  withOrg(state, { default_channels: (e.default_streams ?? []).map((s: Json) => (typeof s === "number" ? s : s.stream_id)).sort((a: number, b: number) => a - b) });
export const onDefaultStreamGroups = (state: State, e: Json): State => withOrg(state, { default_channel_groups: (e.default_stream_groups ?? []).map(toChannelGroup) });

export function onChannelFolder(state: State, e: Json): State {
  const folders = state.org.channel_folders;
  switch (e.op) {
    case "add":
      return withOrg(state, { channel_folders: byOrder([...folders.filter((f) => f.id !== e.channel_folder.id), toFolder(e.channel_folder)]) });
    case "update": {
      const { name, description, is_archived } = e.data ?? {};
      const patch = { ...(name !== undefined && { name }), ...(description !== undefined && { description }), ...(is_archived !== undefined && { is_archived: !!is_archived }) };
      return withOrg(state, { channel_folders: folders.map((f) => (f.id === e.channel_folder_id ? { ...f, ...patch } : f)) });
    }
    case "reorder": {
      const order: number[] = e.order ?? [];
      return withOrg(state, { channel_folders: byOrder(folders.map((f) => (order.includes(f.id) ? { ...f, order: order.indexOf(f.id) } : f))) });
    }
    default:
      return state;
  }
}
