import { realmOf, type App } from "../../app";
import { isAdmin, isGuest, isModerator, isOwner } from "../../domain/roles";
import { avatarUrl, canSeeDeliveryEmail, inaccessibleUserDict, userDict } from "../../domain/user-format";
import { emailHost } from "../email-visibility";
import { listUsers, type UserRow } from "../../store/users";
import { profileDataOf } from "../profile-data";
import { accessibleUserIds } from "../user-access";
import type { StateOptions } from "./options";

/**
 * `realm_user` initial state: the users the caller may see (with custom profile data), and the caller's
 * own fields. A guest who may not see everyone gets the others as "Unknown user" placeholders, unless
 * the client declared user_list_incomplete.
 */
export async function realmUserState(app: App, me: UserRow, opts: StateOptions) {
  const realm = realmOf(app);
  // spectators may see everyone, as in Zulip (they have little to see of each)
  const visible = opts.spectator ? null : await accessibleUserIds(app, me);
  const all = await listUsers(app.db, realm.id);
  const users = all.filter((u) => visible === null || visible.has(u.id));
  const host = emailHost(app);
  const placeholders =
    visible === null || opts.clientCapabilities.user_list_incomplete ? [] : all.filter((u) => !visible.has(u.id)).map((u) => inaccessibleUserDict(u.id, host, { withoutIsActive: true }));
  const profiles = await profileDataOf(app, "all");
  // without is_active: which list a user is in says it (Zulip's post_process_state drops the field)
  const format = (u: UserRow) =>
    userDict(u, { clientGravatar: opts.clientGravatar, profileData: u.is_bot ? undefined : (profiles.get(u.id) ?? {}), deliveryEmail: !opts.spectator && canSeeDeliveryEmail(me, u), withoutIsActive: true });
  const active = users.filter((u) => u.is_active).map(format);
  const s = realm.settings;
  const can = (setting: unknown, allowGuests = false) => (allowGuests || !isGuest(me.role)) && app.groups.settingIncludes(setting as any, me.id);
  return {
    realm_users: placeholders.length ? [...active, ...placeholders].sort((a, b) => (a.user_id as number) - (b.user_id as number)) : active,
    realm_non_active_users: users.filter((u) => !u.is_active).map(format),
    cross_realm_bots: [],
    user_id: me.id,
    email: me.email,
    delivery_email: me.delivery_email,
    full_name: me.full_name,
    avatar_source: me.avatar_source,
    avatar_url: avatarUrl(me, false),
    avatar_url_medium: avatarUrl(me, false, true),
    is_admin: isAdmin(me.role),
    is_owner: isOwner(me.role),
    is_moderator: isModerator(me.role),
    is_guest: isGuest(me.role),
    can_create_streams: can(s.can_create_public_channel_group) || can(s.can_create_private_channel_group),
    can_create_public_streams: can(s.can_create_public_channel_group),
    can_create_private_streams: can(s.can_create_private_channel_group),
    can_create_web_public_streams: can(s.can_create_web_public_channel_group),
    can_subscribe_other_users: can(s.can_add_subscribers_group),
    can_invite_others_to_realm: can(s.can_invite_users_group),
  };
}
