import { isAdmin, isGuest, isModerator, isOwner, ROLE } from "./roles";
import type { UserRow } from "../store/users";

/** The personal setting email_address_visibility: who may see a user's real (delivery) email. */
export const EMAIL_VISIBILITY = { everyone: 1, members: 2, admins: 3, nobody: 4, moderators: 5 } as const;

/** A user's email_address_visibility (bots: everyone). Read without parsing the whole settings text. */
export function emailVisibilityOf(u: Pick<UserRow, "settings" | "is_bot">): number {
  if (u.is_bot) return EMAIL_VISIBILITY.everyone;
  const m = /"email_address_visibility"\s*:\s*(\d+)/.exec(u.settings || "");
  return m ? Number(m[1]) : EMAIL_VISIBILITY.everyone;
}

/** Who sees a user's email: the user, or whoever the user's visibility admits (Zulip's can_access_delivery_email). */
export function canSeeDeliveryEmail(viewer: Pick<UserRow, "id" | "role"> | null, target: Pick<UserRow, "id" | "settings" | "is_bot">): boolean {
  if (viewer && viewer.id === target.id) return true;
  const visibility = emailVisibilityOf(target);
  if (visibility === EMAIL_VISIBILITY.everyone) return viewer !== null;
  if (!viewer) return false;
  switch (visibility) {
    case EMAIL_VISIBILITY.members:
      return !isGuest(viewer.role);
    case EMAIL_VISIBILITY.admins:
      return isAdmin(viewer.role);
    case EMAIL_VISIBILITY.moderators:
      return isModerator(viewer.role);
    default:
      return false;
  }
}

/**
 * The API email of a user whose visibility is not "everyone": Zulip's dummy `user{id}@{host}`.
 * Such a user's `email` (the address others address them by) never reveals the real one.
 */
export const dummyEmail = (userId: number, host: string) => `user${userId}@${host}`;

/** email → its Gravatar hash: message events and /register ask for the same few hundred again and again. */
const gravatarHashes = new Map<string, string>();

/** Gravatar URL of an email (Zulip's default avatar source). */
export function gravatarUrl(email: string, size?: number): string {
  let hash = gravatarHashes.get(email);
  if (hash === undefined) {
    hash = new Bun.CryptoHasher("md5").update(email.trim().toLowerCase()).digest("hex");
    if (gravatarHashes.size >= 10_000) gravatarHashes.clear();
    gravatarHashes.set(email, hash);
  }
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon${size ? `&s=${size}` : ""}&version=1`;
}

/** The organization's icon while none is uploaded: Zulip's get_realm_icon_url, a Gravatar identicon of the realm's string_id. */
export function realmIconUrl(stringId: string): string {
  return `https://secure.gravatar.com/avatar/${new Bun.CryptoHasher("md5").update(stringId.toLowerCase()).digest("hex")}?d=identicon`;
}

export function avatarUrl(u: Pick<UserRow, "id" | "delivery_email" | "avatar_source" | "avatar_version" | "realm_id">, clientGravatar: boolean, medium = false): string | null {
  if (u.avatar_source === "U") return `/user_avatars/${u.realm_id}/${u.id}${medium ? "-medium" : ""}.png?version=${u.avatar_version}`;
  return clientGravatar ? null : gravatarUrl(u.delivery_email, medium ? 500 : undefined);
}

/** A user's custom profile values as the API shows them: keyed by field id. */
export type ProfileData = Record<string, { value: string; rendered_value?: string }>;

/**
 * The user object of GET /users, /users/{id}, realm_user events and /register. `deliveryEmail`:
 * whether the viewer may see the real email (canSeeDeliveryEmail); otherwise it is null.
 */
export function userDict(u: UserRow, opts: { clientGravatar: boolean; profileData?: ProfileData; deliveryEmail: boolean; withoutIsActive?: boolean }) {
  const out: Record<string, unknown> = {
    user_id: u.id,
    email: u.email,
    delivery_email: opts.deliveryEmail ? u.delivery_email : null,
    full_name: u.full_name,
    avatar_url: avatarUrl(u, opts.clientGravatar),
    avatar_version: u.avatar_version,
    date_joined: new Date(u.date_joined * 1000).toISOString(),
    timezone: u.timezone,
    role: u.role,
    is_admin: isAdmin(u.role),
    is_owner: isOwner(u.role),
    is_guest: isGuest(u.role),
    is_bot: Boolean(u.is_bot),
    is_imported_stub: Boolean(u.is_imported_stub),
    bot_type: u.is_bot ? u.bot_type : null,
  };
  // /register's lists leave it out: which list a user is in says it
  if (!opts.withoutIsActive) out.is_active = Boolean(u.is_active);
  if (u.is_bot) out.bot_owner_id = u.bot_owner_id;
  if (opts.profileData && !u.is_bot) out.profile_data = opts.profileData;
  return out;
}

/**
 * A user a guest may not see, for clients without the user_list_incomplete capability (Zulip's
 * get_data_for_inaccessible_user): the usual user object, placeholder data but for the id.
 */
export function inaccessibleUserDict(userId: number, host: string, opts: { withoutIsActive?: boolean } = {}): Record<string, unknown> {
  const email = dummyEmail(userId, host);
  const out: Record<string, unknown> = {
    user_id: userId,
    email,
    delivery_email: null,
    full_name: INACCESSIBLE_USER_NAME,
    avatar_url: inaccessibleAvatarUrl(email),
    avatar_version: 1,
    date_joined: new Date(0).toISOString(),
    timezone: "",
    role: ROLE.member,
    is_admin: false,
    is_owner: false,
    is_guest: false,
    is_bot: false,
    is_imported_stub: false,
    bot_type: null,
    profile_data: {},
  };
  if (!opts.withoutIsActive) out.is_active = true;
  return out;
}

/** How users a guest may not see are named (Zulip's INACCESSIBLE_USER_NAME). */
export const INACCESSIBLE_USER_NAME = "Unknown user";

/** Their avatar: the identicon of their placeholder address, the same for every viewer. */
export const inaccessibleAvatarUrl = (placeholderEmail: string) => gravatarUrl(placeholderEmail);

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
