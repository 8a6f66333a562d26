/**
 * What the settings screens read of the organization, as events change it: realm_bot, default_streams,
 * channel_folder and custom_profile_fields (kept at the state's top level), and for the administration
 * screens (state.org) realm update / update_dict, realm_user_settings_defaults, realm_linkifiers,
 * realm_playgrounds and default_stream_groups.
 */
import { defaultChannelIds, profileFieldsOf, toBot, toFolder } from "../from-register";
import { EMPTY_ORG, ORG_GROUP_SETTINGS, ORG_VALUE_SETTINGS, toChannelGroup, toLinkifier, toOrgValue, toPlayground, type OrgState } from "../org";
import type { State } from "../types";
import { withKey, without } from "./records";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const BOT_FIELDS = ["full_name", "email", "is_active", "api_key", "owner_id", "avatar_url", "bot_type"] as const;

export function onRealmBot(state: State, e: Json): State {
  const bots = state.bots ?? {};
  switch (e.op) {
    case "add":
      return { ...state, bots: withKey(bots, e.bot.user_id, toBot(e.bot)) };
    case "delete":
    case "remove":
      return { ...state, bots: without(bots, e.bot.user_id) };
    case "update": {
      const cur = bots[e.bot.user_id];
      if (!cur) return state;
      const next = { ...cur };
      for (const f of BOT_FIELDS) if (e.bot[f] !== undefined) (next as Json)[f] = e.bot[f];
      return { ...state, bots: withKey(bots, cur.user_id, next) };
    }
    default:
      return state;
  }
}

export const onDefaultStreams = (state: State, e: Json): State => ({ ...state, default_channels: defaultChannelIds(e.default_streams) });

export function onChannelFolder(state: State, e: Json): State {
  const folders = state.channel_folders ?? {};
  if (e.op === "add") return { ...state, channel_folders: withKey(folders, e.channel_folder.id, toFolder(e.channel_folder)) };
  if (e.op === "update") {
    const cur = folders[e.channel_folder_id];
    if (!cur) return state;
    const patch: Json = {};
    for (const f of ["name", "description", "is_archived"]) if (e.data[f] !== undefined) patch[f] = e.data[f];
    return { ...state, channel_folders: withKey(folders, cur.id, { ...cur, ...patch }) };
  }
  if (e.op === "reorder") {
    const order: number[] = e.order ?? [];
    const next = { ...folders };
    order.forEach((id, i) => {
      if (next[id]) next[id] = { ...next[id]!, order: i };
    });
    return { ...state, channel_folders: next };
  }
  return state;
}

export const onProfileFields = (state: State, e: Json): State => ({ ...state, profile_fields: profileFieldsOf(e.fields) });

// The administration screens' part.

const KNOWN = new Set<string>([...ORG_VALUE_SETTINGS, ...ORG_GROUP_SETTINGS]);
const withOrg = (state: State, patch: Partial<OrgState>): State => ({ ...state, org: { ...(state.org ?? EMPTY_ORG), ...patch } });

/** realm update / update_dict: every setting the administration screens show (reduce/settings.ts keeps state.realm). */
export function onRealmSettings(state: State, e: Json): State {
  if (!state.org) return state;
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
  if (e.op !== "update" || !state.org) return state;
  return withOrg(state, { user_defaults: { ...state.org.user_defaults, [e.property]: e.value } });
}

export const onLinkifiers = (state: State, e: Json): State => withOrg(state, { linkifiers: (e.realm_linkifiers ?? []).map(toLinkifier) });
export const onPlaygrounds = (state: State, e: Json): State => withOrg(state, { playgrounds: (e.realm_playgrounds ?? []).map(toPlayground) });
export const onDefaultStreamGroups = (state: State, e: Json): State => withOrg(state, { default_channel_groups: (e.default_stream_groups ?? []).map(toChannelGroup) });
