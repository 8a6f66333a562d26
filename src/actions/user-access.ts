import { realmOf, type App } from "../app";
import { isAdmin, isGuest, ROLE } from "../domain/roles";
import { canSeeDeliveryEmail, EMAIL_VISIBILITY, emailVisibilityOf, userDict } from "../domain/user-format";
import { badRequest } from "../errors";
import { mapSubscriberIds } from "../store/subscriptions";
import { findUserById, listAccessibleUserIds, listActiveUserIds, listActiveUserIdsWithRoles, listUsers, listUsersByIds, type UserRow } from "../store/users";
import { profileDataOf } from "./profile-data";

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

/**
 * Of the users who receive a channel message, the limited guests who may not see its sender: they
 * get it from "Unknown user". Nothing to check (and no query) unless some guest's view is limited.
 */
export async function usersBlindTo(app: App, senderId: number, recipients: Iterable<Pick<UserRow, "id" | "role">>): Promise<ReadonlySet<number>> {
  if (guestsSeeEveryone(app)) return NOBODY;
  let out: Set<number> | null = null;
  for (const u of recipients) {
    if (u.id === senderId || canAccessAllUsers(app, u)) continue;
    if (!(await listAccessibleUserIds(app.db, u.id)).has(senderId)) (out ??= new Set()).add(u.id);
  }
  return out ?? NOBODY;
}
const NOBODY: ReadonlySet<number> = new Set();

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

/** What a change may alter: the access of guests among these users and these channels' subscribers, or of every guest. */
export type AccessScope = { userIds?: number[]; streamIds?: number[] } | "all";

export interface AccessWatch {
  /** After the change has committed (and after reloadRealm / reloadGroups): sends the differences. */
  publish(): Promise<void>;
}

const NOTHING: AccessWatch = { publish: async () => {} };

/**
 * Guests' view of users around a change that may widen or narrow it (subscribing, unsubscribing,
 * can_access_all_users_group). Call it before the change; publish() then sends each affected guest
 * realm_user add (the full user) for every active user they gained and realm_user remove for every
 * one they lost, as Zulip does (feature level 228). Costs nothing when nobody's view is limited
 * before and after the change (the common case).
 */
export async function watchUserAccess(app: App, scope: AccessScope): Promise<AccessWatch> {
  if (scope !== "all" && guestsSeeEveryone(app)) return NOTHING;
  const guests = await guestsIn(app, scope);
  if (!guests.length) return NOTHING;
  const before = await accessOf(app, guests);
  return {
    async publish() {
      if (scope !== "all" && guestsSeeEveryone(app)) return;
      const after = await accessOf(app, guests);
      await publishAccessChanges(app, guests, before, after);
    },
  };
}

/**
 * A user's own view of others around a change of their role (guest ↔ member): publish() sends them
 * realm_user add / remove for the users they gained or lost. Nothing when they see everyone throughout.
 */
export async function watchOwnAccess(app: App, user: UserRow): Promise<{ publish(now: UserRow): Promise<void> }> {
  const before = await accessibleUserIds(app, user);
  return {
    async publish(now) {
      const after = await accessibleUserIds(app, now);
      if (before === null && after === null) return;
      await publishAccessChanges(app, [now], new Map([[now.id, before]]), new Map([[now.id, after]]));
    },
  };
}

/** The active guests a change of `scope` may affect. */
async function guestsIn(app: App, scope: AccessScope): Promise<UserRow[]> {
  const realm = realmOf(app);
  let ids: number[];
  if (scope === "all") ids = await listActiveUserIdsWithRoles(app.db, realm.id, [ROLE.guest]);
  else {
    const subscribers = await mapSubscriberIds(app.db, scope.streamIds ?? []);
    ids = [...new Set([...(scope.userIds ?? []), ...[...subscribers.values()].flat()])];
  }
  return (await listUsersByIds(app.db, ids)).filter((u) => u.is_active && isGuest(u.role) && u.realm_id === realm.id);
}

/** Each guest's accessible ids now (null: everyone). */
async function accessOf(app: App, guests: UserRow[]): Promise<Map<number, Set<number> | null>> {
  return new Map(await Promise.all(guests.map(async (g) => [g.id, await accessibleUserIds(app, g)] as const)));
}

async function publishAccessChanges(app: App, guests: UserRow[], before: Map<number, Set<number> | null>, after: Map<number, Set<number> | null>) {
  const changes: { guestId: number; added: number[]; removed: number[] }[] = [];
  let everyone: number[] | null = null;
  // deactivated users too: /register lists those a guest may see (realm_non_active_users)
  const all = async () => (everyone ??= (await listUsers(app.db, realmOf(app).id)).map((u) => u.id));
  for (const g of guests) {
    const b = before.get(g.id)!;
    const a = after.get(g.id)!;
    if (b === null && a === null) continue;
    const had = (id: number) => b === null || b.has(id);
    const has = (id: number) => a === null || a.has(id);
    const candidates = b === null || a === null ? await all() : [...new Set([...b, ...a])];
    const added = candidates.filter((id) => !had(id) && has(id));
    const removed = candidates.filter((id) => had(id) && !has(id));
    if (added.length || removed.length) changes.push({ guestId: g.id, added, removed });
  }
  if (!changes.length) return;
  const ids = [...new Set(changes.flatMap((c) => [...c.added, ...c.removed]))];
  const users = new Map((await listUsersByIds(app.db, ids)).map((u) => [u.id, u]));
  const addedIds = [...new Set(changes.flatMap((c) => c.added))].filter((id) => users.has(id) && !users.get(id)!.is_bot);
  const profiles = await profileDataOf(app, addedIds);
  const guestById = new Map(guests.map((g) => [g.id, g]));
  for (const { guestId, added, removed } of changes) {
    for (const id of added.sort((x, y) => x - y)) {
      const u = users.get(id);
      if (!u) continue;
      const deliveryEmail = canSeeDeliveryEmail(guestById.get(guestId)!, u);
      const person = userDict(u, { clientGravatar: false, profileData: u.is_bot ? undefined : (profiles.get(id) ?? {}), deliveryEmail });
      app.events.publish({ type: "realm_user", op: "add", person }, [guestId]);
    }
    for (const id of removed.sort((x, y) => x - y)) {
      const u = users.get(id);
      if (u) app.events.publish({ type: "realm_user", op: "remove", person: { user_id: id, full_name: u.full_name } }, [guestId]);
    }
  }
}

/**
 * An audience split by whether each may see `target`'s real email (one query, and only when the
 * target does not show it to everyone): events carrying the user object go out in two versions.
 */
export async function splitByEmailAccess(app: App, target: UserRow, audience: number[]): Promise<{ see: number[]; blind: number[] }> {
  if (emailVisibilityOf(target) === EMAIL_VISIBILITY.everyone) return { see: audience, blind: [] };
  const see: number[] = [];
  const blind: number[] = [];
  for (const u of await listUsersByIds(app.db, audience)) (canSeeDeliveryEmail(u, target) ? see : blind).push(u.id);
  return { see: see.sort((a, b) => a - b), blind: blind.sort((a, b) => a - b) };
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
