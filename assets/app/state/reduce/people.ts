/** realm_user, presence, user_status and muted_users events: the people and how they are. */
import { toStatus, toUser } from "../from-register";
import type { State, User, UserStatus } from "../types";
import type { ProfileValue } from "../org-types";
import { withKey, without } from "./records";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const USER_FIELDS = ["full_name", "email", "role", "timezone", "avatar_url", "is_active", "bot_owner_id", "delivery_email"] as const;

export function onRealmUser(state: State, e: Json): State {
  const p = e.person;
  switch (e.op) {
    case "add":
      return { ...state, users: withKey(state.users, p.user_id, toUser(p, p.is_active ?? true)) };
    case "remove":
      return { ...state, users: without(state.users, p.user_id) };
    case "update": {
      const cur = state.users[p.user_id];
      if (!cur) return state;
      const patch: Partial<User> = {};
      for (const f of USER_FIELDS) if (p[f] !== undefined) (patch as Json)[f] = p[f];
      if (p.new_email !== undefined) patch.email = p.new_email;
      if (p.custom_profile_field) patch.profile_data = withProfileValue(cur.profile_data ?? {}, p.custom_profile_field);
      // one's own address and avatar source, which only its owner is told of
      const own: Partial<State> = {};
      if (p.user_id === state.me && typeof p.delivery_email === "string") own.delivery_email = p.delivery_email;
      if (p.user_id === state.me && typeof p.avatar_source === "string") own.avatar_source = p.avatar_source;
      if (!Object.keys(patch).length) return Object.keys(own).length ? { ...state, ...own } : state;
      return { ...state, ...own, users: withKey(state.users, p.user_id, { ...cur, ...patch }) };
    }
    default:
      return state;
  }
}

/** A person's custom profile data with one field's value set (or cleared: a null value). */
function withProfileValue(data: Record<string, ProfileValue>, f: { id: number; value: string | null; rendered_value?: string }): Record<string, ProfileValue> {
  if (f.value === null) return without(data, String(f.id));
  const v: ProfileValue = { value: f.value };
  if (f.rendered_value !== undefined) v.rendered_value = f.rendered_value;
  return withKey(data, String(f.id), v);
}

/** Presence from an event or from the answer to the app's own presence report (both keyed by user id). */
export function mergePresences(state: State, presences: Record<string, { active_timestamp: number; idle_timestamp: number }>): State {
  const entries = Object.entries(presences ?? {});
  if (!entries.length) return state;
  const presence = { ...state.presence };
  for (const [id, p] of entries) presence[Number(id)] = { active_timestamp: p.active_timestamp, idle_timestamp: p.idle_timestamp };
  return { ...state, presence };
}

export function onPresence(state: State, e: Json): State {
  if (e.presences) return mergePresences(state, e.presences);
  // the older form, for a server that does not send simplified presence events
  const w = e.presence?.website ?? Object.values<Json>(e.presence ?? {})[0];
  if (!w) return state;
  const cur = state.presence[e.user_id] ?? { active_timestamp: 0, idle_timestamp: 0 };
  const next = w.status === "active" ? { active_timestamp: w.timestamp, idle_timestamp: w.timestamp } : { ...cur, idle_timestamp: w.timestamp };
  return { ...state, presence: withKey(state.presence, e.user_id, next) };
}

export function onUserStatus(state: State, e: Json): State {
  const cur = state.user_status[e.user_id] ?? {};
  const merged: Json = { ...cur };
  if (e.status_text !== undefined) merged.status_text = e.status_text;
  if (e.emoji_name !== undefined) Object.assign(merged, { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type });
  if (e.away !== undefined) merged.away = e.away;
  const status: UserStatus = toStatus(merged);
  if (!Object.keys(status).length) return { ...state, user_status: without(state.user_status, e.user_id) };
  return { ...state, user_status: withKey(state.user_status, e.user_id, status) };
}

export function onMutedUsers(state: State, e: Json): State {
  return { ...state, muted_users: e.muted_users.map((m: Json) => m.id).sort((a: number, b: number) => a - b) };
}
