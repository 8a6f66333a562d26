/** realm_bot, default_streams, channel_folder and custom_profile_fields events: what the settings screens read. */
import { defaultChannelIds, profileFieldsOf, toBot, toFolder } from "../from-register";
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
  return state;
}

export const onProfileFields = (state: State, e: Json): State => ({ ...state, profile_fields: profileFieldsOf(e.fields) });
