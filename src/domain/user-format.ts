import { isAdmin, isGuest, isModerator, isOwner } from "./roles";
import type { UserRow } from "../store/users";

/** Gravatar URL of an email (Zulip's default avatar source). */
export function gravatarUrl(email: string): string {
  const hash = new Bun.CryptoHasher("md5").update(email.trim().toLowerCase()).digest("hex");
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=1`;
}

export function avatarUrl(u: Pick<UserRow, "id" | "delivery_email" | "avatar_source" | "avatar_version" | "realm_id">, clientGravatar: boolean): string | null {
  if (u.avatar_source === "U") return `/user_avatars/${u.realm_id}/${u.id}.png?version=${u.avatar_version}`;
  return clientGravatar ? null : gravatarUrl(u.delivery_email);
}

/** The user object of GET /users, /users/{id}, realm_user events. */
export function userDict(u: UserRow, opts: { clientGravatar: boolean; profileData?: Record<string, { value: string; rendered_value?: string | null }> }) {
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
    is_moderator: isModerator(u.role) && !isAdmin(u.role) ? true : undefined,
    is_guest: isGuest(u.role),
    is_bot: Boolean(u.is_bot),
    is_imported_stub: Boolean(u.is_imported_stub),
    bot_type: u.is_bot ? u.bot_type : null,
  };
  if (out.is_moderator === undefined) delete out.is_moderator;
  if (u.is_bot) out.bot_owner_id = u.bot_owner_id;
  if (opts.profileData && !u.is_bot) out.profile_data = opts.profileData;
  return out;
}
