import { realmOf, type App } from "../../app";
import { isAdmin, isGuest, isModerator, isOwner } from "../../domain/roles";
import { avatarUrl, userDict } from "../../domain/user-format";
import { listUsers, type UserRow } from "../../store/users";
import type { StateOptions } from ".";

/** `realm_user` initial state: the users, and the current user's own fields. */
export async function realmUserState(app: App, me: UserRow, opts: StateOptions) {
  const realm = realmOf(app);
  const users = await listUsers(app.db, realm.id);
  const format = (u: UserRow) => userDict(u, { clientGravatar: opts.clientGravatar });
  return {
    realm_users: users.filter((u) => u.is_active && !u.is_bot || (u.is_active && u.is_bot)).map(format),
    realm_non_active_users: users.filter((u) => !u.is_active).map(format),
    cross_realm_bots: [],
    user_id: me.id,
    email: me.email,
    delivery_email: me.delivery_email,
    full_name: me.full_name,
    avatar_source: me.avatar_source,
    avatar_url: avatarUrl(me, false),
    avatar_url_medium: avatarUrl(me, false),
    is_admin: isAdmin(me.role),
    is_owner: isOwner(me.role),
    is_moderator: isModerator(me.role),
    is_guest: isGuest(me.role),
    role: me.role,
    can_create_streams: !isGuest(me.role),
    can_create_public_streams: !isGuest(me.role),
    can_create_private_streams: !isGuest(me.role),
    can_create_web_public_streams: isOwner(me.role),
    can_subscribe_other_users: !isGuest(me.role),
    can_invite_others_to_realm: !isGuest(me.role),
  };
}
