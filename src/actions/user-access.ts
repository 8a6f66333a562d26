import { realmOf, type App } from "../app";
import { isAdmin, isGuest } from "../domain/roles";
import { badRequest } from "../errors";
import { findUserById, listAccessibleUserIds, listActiveUserIds, listUsersByIds, type UserRow } from "../store/users";

/**
 * Who may see whom. Everyone sees everyone unless the organization's can_access_all_users_group
 * leaves guests out; such a guest sees only the users they share a channel or a direct message with.
 */
export function canAccessAllUsers(app: App, user: Pick<UserRow, "id" | "role">): boolean {
  if (!isGuest(user.role)) return true;
  return app.groups.settingIncludes(realmOf(app).settings.can_access_all_users_group, user.id);
}

/** Whether can_access_all_users_group is role:everyone (nobody's view of users is limited). */
export const guestsSeeEveryone = (app: App) => realmOf(app).settings.can_access_all_users_group === app.systemGroups.get("role:everyone");

/** The ids `user` may see, or null when that is everyone. */
export async function accessibleUserIds(app: App, user: Pick<UserRow, "id" | "role">): Promise<Set<number> | null> {
  if (canAccessAllUsers(app, user)) return null;
  return listAccessibleUserIds(app.db, user.id);
}

export async function canAccessUser(app: App, user: Pick<UserRow, "id" | "role">, targetId: number): Promise<boolean> {
  const ids = await accessibleUserIds(app, user);
  return ids === null || ids.has(targetId);
}

/** Active users who can see `targetId`: the audience of realm_user events about that user. */
export async function usersWhoCanAccess(app: App, targetId: number): Promise<number[]> {
  const realm = realmOf(app);
  const active = await listActiveUserIds(app.db, realm.id);
  if (guestsSeeEveryone(app)) return active;
  const rows = await listUsersByIds(app.db, active);
  const out: number[] = [];
  for (const u of rows) {
    if (u.id === targetId || canAccessAllUsers(app, u) || (await listAccessibleUserIds(app.db, u.id)).has(targetId)) out.push(u.id);
  }
  return out.sort((a, b) => a - b);
}

/** Administrators may manage anyone; a user manages the bots they own (Zulip's can_admin_user). */
export const canAdminUser = (actor: UserRow, target: UserRow) => target.bot_owner_id === actor.id || isAdmin(actor.role);

export interface AccessOptions {
  allowDeactivated?: boolean;
  allowBots?: boolean;
  /** the target will be modified: needs can_admin_user, not just visibility */
  forAdmin?: boolean;
}

/** Zulip's access_user_by_id: "No such user", "User is deactivated", "Insufficient permission". */
export async function accessUserById(app: App, actor: UserRow, userId: number, opts: AccessOptions = {}): Promise<UserRow> {
  const target = await findUserById(app.db, userId);
  if (!target || target.realm_id !== actor.realm_id) throw badRequest("No such user");
  return checkAccess(app, actor, target, opts);
}

export async function checkAccess(app: App, actor: UserRow, target: UserRow, opts: AccessOptions = {}): Promise<UserRow> {
  if (target.is_bot && !opts.allowBots) throw badRequest("No such user");
  if (!target.is_active && !opts.allowDeactivated) throw badRequest("User is deactivated");
  if (!opts.forAdmin) {
    if (!(await canAccessUser(app, actor, target.id))) throw badRequest("Insufficient permission");
    return target;
  }
  if (!canAdminUser(actor, target)) throw badRequest("Insufficient permission");
  return target;
}
