import { realmOf, type App } from "../app";
import { isGuest } from "../domain/roles";
import { SYSTEM_GROUP_SETTING_DEFAULT, USER_GROUP_SETTINGS, type StoredGroupSettings, type UserGroupSettingName } from "../domain/user-groups";
import { badRequest } from "../errors";
import { listGroupsByIds } from "../store/group-settings";
import { findGroup, type GroupRow } from "../store/groups";
import type { UserRow } from "../store/users";
import { systemGroupId, userHasGroupPermission } from "./group-settings";

// Who may read and change user groups (Zulip's access functions in zerver/lib/user_groups.py).

/** Zulip's require_member_or_admin: guests and bots may not use the user-group endpoints. */
export function checkMemberOrAdmin(user: UserRow) {
  if (isGuest(user.role)) throw badRequest("Not allowed for guest users");
  if (user.is_bot) throw badRequest("This endpoint does not accept bot requests.");
}

export const settingsOf = (g: GroupRow): StoredGroupSettings => JSON.parse(g.settings || "{}");

/** A group's stored setting, with the system-group and default fallbacks. */
export function storedSetting(app: App, g: GroupRow, name: UserGroupSettingName): number {
  const stored = settingsOf(g)[name];
  if (stored !== undefined) return stored;
  const fallback = g.is_system_group || USER_GROUP_SETTINGS[name].defaultGroup === "group_creator" ? SYSTEM_GROUP_SETTING_DEFAULT : USER_GROUP_SETTINGS[name].defaultGroup;
  return systemGroupId(app, fallback);
}


/** A named group of the organization, for reading ("Invalid user group", "User group is deactivated."). */
export async function readGroup(app: App, groupId: number, allowDeactivated = false): Promise<GroupRow> {
  const g = await findGroup(app.db, groupId);
  if (!g || g.realm_id !== realmOf(app).id || g.name === null) throw badRequest("Invalid user group");
  if (g.deactivated && !allowDeactivated) throw badRequest("User group is deactivated.");
  return g;
}

export const canManageAllGroups = (app: App, user: UserRow) =>
  userHasGroupPermission(app, user, realmOf(app).settings.can_manage_all_groups, { allowEveryone: false });

/** Whether `user` holds one of the group's own permissions (guests never hold those that refuse role:everyone). */
export function holdsGroupPermission(app: App, user: UserRow, g: GroupRow, name: UserGroupSettingName): boolean {
  return userHasGroupPermission(app, user, storedSetting(app, g, name), USER_GROUP_SETTINGS[name]);
}

/**
 * Zulip's access_user_group_for_update: system groups are read-only; can_manage_all_groups and the
 * group's can_manage_group allow everything; otherwise the named permission must be held.
 */
export async function accessGroupForUpdate(app: App, actor: UserRow, groupId: number, permission: UserGroupSettingName, allowDeactivated = false): Promise<GroupRow> {
  const g = await readGroup(app, groupId, allowDeactivated);
  if (g.is_system_group) throw badRequest("Insufficient permission");
  if (canManageAllGroups(app, actor)) return g;
  if (holdsGroupPermission(app, actor, g, "can_manage_group")) return g;
  if (permission !== "can_manage_group" && holdsGroupPermission(app, actor, g, permission)) return g;
  throw badRequest("Insufficient permission");
}

/** Named, active groups of the organization that may become subgroups ("Invalid user group ID: N"). */
export async function potentialSubgroups(app: App, ids: number[]): Promise<GroupRow[]> {
  const realm = realmOf(app);
  const rows = new Map((await listGroupsByIds(app.db, ids)).map((g) => [g.id, g]));
  return ids.map((id) => {
    const g = rows.get(id);
    if (!g || g.realm_id !== realm.id || g.name === null) throw badRequest(`Invalid user group ID: ${id}`);
    if (g.deactivated) throw badRequest("User group is deactivated.");
    return g;
  });
}
