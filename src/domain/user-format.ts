import { isAdmin, isGuest, isOwner } from "./roles";
import type { UserRow } from "../store/users";

/** Gravatar URL of an email (Zulip's default avatar source). */
export function gravatarUrl(email: string, size?: number): string {
  const hash = new Bun.CryptoHasher("md5").update(email.trim().toLowerCase()).digest("hex");
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon${size ? `&s=${size}` : ""}&version=1`;
}

export function avatarUrl(u: Pick<UserRow, "id" | "delivery_email" | "avatar_source" | "avatar_version" | "realm_id">, clientGravatar: boolean, medium = false): string | null {
  if (u.avatar_source === "U") return `/user_avatars/${u.realm_id}/${u.id}${medium ? "-medium" : ""}.png?version=${u.avatar_version}`;
  return clientGravatar ? null : gravatarUrl(u.delivery_email, medium ? 500 : undefined);
}

/** A user's custom profile values as the API shows them: keyed by field id. */
export type ProfileData = Record<string, { value: string; rendered_value?: string }>;

/** The user object of GET /users, /users/{id}, realm_user events and /register. */
export function userDict(u: UserRow, opts: { clientGravatar: boolean; profileData?: ProfileData }) {
  const out: Record<string, unknown> = {
    user_id: u.id,
    email: u.email,
    delivery_email: u.delivery_email,
    full_name: u.full_name,
    avatar_url: avatarUrl(u, opts.clientGravatar),
    avatar_version: u.avatar_version,
    date_joined: new Date(u.date_joined * 1000).toISOString(),
    timezone: u.timezone,
    role: u.role,
    is_active: Boolean(u.is_active),
    is_admin: isAdmin(u.role),
    is_owner: isOwner(u.role),
    is_guest: isGuest(u.role),
    is_bot: Boolean(u.is_bot),
    is_imported_stub: Boolean(u.is_imported_stub),
    bot_type: u.is_bot ? u.bot_type : null,
  };
  if (u.is_bot) out.bot_owner_id = u.bot_owner_id;
  if (opts.profileData && !u.is_bot) out.profile_data = opts.profileData;
  return out;
}

/**
 * A bot as its owner and the administrators see it (realm_bots, realm_bot add events).
 * `streamName` resolves the default channel ids to names.
 */
export function botDict(bot: UserRow, streamName: (id: number | null) => string | null) {
  return {
    email: bot.email,
    user_id: bot.id,
    full_name: bot.full_name,
    bot_type: bot.bot_type,
    is_active: Boolean(bot.is_active),
    api_key: bot.api_key,
    default_sending_stream: streamName(bot.default_sending_stream_id),
    default_events_register_stream: streamName(bot.default_events_register_stream_id),
    default_all_public_streams: Boolean(bot.default_all_public_streams),
    avatar_url: avatarUrl(bot, false),
    services: [] as unknown[],
    owner_id: bot.bot_owner_id,
  };
}
