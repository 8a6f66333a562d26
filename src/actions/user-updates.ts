import { nowSecs, realmOf, reloadGroups, type App } from "../app";
import { isAdmin, isOwner, ROLE, ROLES, systemGroupsForRole, type SystemGroupName } from "../domain/roles";
import { isFullMember } from "../domain/user-groups";
import { fullNameProblem } from "../domain/validate";
import { adminRequired, badRequest, ownerRequired } from "../errors";
import { addMembers, listDirectGroupsOf, listDirectMemberIds, removeMembers } from "../store/groups";
import { countActiveUsers, findActiveUserByFullName, findUserByEmail, findUserById, listActiveUserIds, listBots, listUsers, updateUser, type UserRow } from "../store/users";
import { hasMetadataAccess } from "../domain/channel-permissions";
import { listStreams, listStreamsByIds } from "../store/streams";
import { listSubscribedStreamIds, mapSubscriberIds } from "../store/subscriptions";
import { channelAccess } from "./channel-access";
import { formatStreams } from "./channel-data";
import { updateProfileData, type ProfileDataItem } from "./profile-fields";
import { streamDeleteEvent } from "./subscriptions";
import { accessibleUserIds, accessUserById, checkAccess, usersWhoCanAccess, watchOwnAccess } from "./user-access";
import { botDict, canSeeDeliveryEmail } from "../domain/user-format";
import { botAdministrators, streamNames, systemGroupsFor } from "./users";

async function accessUserByEmail(app: App, actor: UserRow, email: string): Promise<UserRow> {
  const target = await findUserByEmail(app.db, realmOf(app).id, email);
  if (!target) throw badRequest("No such user");
  return checkAccess(app, actor, target, { allowDeactivated: true, allowBots: true, forAdmin: true });
}

/** Zulip's check_last_owner: `user` is the organization's only active human owner. */
export async function isLastOwner(app: App, user: UserRow): Promise<boolean> {
  if (!isOwner(user.role) || user.is_bot || !user.is_active) return false;
  return (await countActiveUsers(app.db, user.realm_id, { role: ROLE.owner, humansOnly: true })) <= 1;
}

export interface UserUpdate {
  fullName?: string;
  role?: number;
  profileData?: ProfileDataItem[];
}

/** PATCH /users/{user_id}: name, role (owners alone grant or remove owner), custom profile data. */
export async function updateUserByAdmin(app: App, actor: UserRow, ref: { id: number } | { email: string }, input: UserUpdate): Promise<void> {
  let target = "id" in ref ? await accessUserById(app, actor, ref.id, { allowDeactivated: true, allowBots: true, forAdmin: true }) : await accessUserByEmail(app, actor, ref.email);
  if (input.role !== undefined && input.role !== target.role) {
    if ((input.role === ROLE.owner || target.role === ROLE.owner) && !isOwner(actor.role)) throw ownerRequired();
    if (!isAdmin(actor.role)) throw adminRequired();
    if (await isLastOwner(app, target)) throw badRequest("The owner permission cannot be removed from the only organization owner.");
    await changeUserRole(app, target, input.role);
    target = (await findUserById(app.db, target.id))!;
  }
  if (input.fullName !== undefined && input.fullName !== target.full_name && input.fullName.trim() !== "") {
    await changeFullName(app, target, input.fullName);
  }
  if (input.profileData !== undefined) await updateProfileData(app, actor, target, input.profileData);
}

/**
 * Changes a user's role and moves them between the role's system groups, in one transaction;
 * then realm_user update and the user_group membership events.
 */
export async function changeUserRole(app: App, target: UserRow, role: number): Promise<void> {
  if (!ROLES.includes(role)) throw badRequest("Invalid role");
  const direct = new Set(await listDirectGroupsOf(app.db, target.id));
  const before = new Set(systemGroupsForRole(target.role).filter((g) => direct.has(app.systemGroups.get(g)!)));
  const after = new Set(systemGroupsFor(app, role, target.date_joined));
  const removed = [...before].filter((g) => !after.has(g));
  const added = [...after].filter((g) => !before.has(g));
  const id = (name: SystemGroupName) => app.systemGroups.get(name)!;
  const ownView = await watchOwnAccess(app, target);
  const channelsBefore = await visibleChannelIds(app, target);
  await app.db.tx(async (sql) => {
    await updateUser(sql, target.id, { role });
    for (const g of removed) await removeMembers(sql, id(g), [target.id]);
    for (const g of added) await addMembers(sql, id(g), [target.id]);
  });
  await reloadGroups(app);
  app.events.publish({ type: "realm_user", op: "update", person: { user_id: target.id, role } }, await usersWhoCanAccess(app, target.id));
  if (!target.is_active) return;
  const everyone = await listActiveUserIds(app.db, target.realm_id);
  for (const g of removed) app.events.publish({ type: "user_group", op: "remove_members", group_id: id(g), user_ids: [target.id] }, everyone);
  for (const g of added) app.events.publish({ type: "user_group", op: "add_members", group_id: id(g), user_ids: [target.id] }, everyone);
  await ownView.publish({ ...target, role });
  await publishChannelSightChanges(app, target.id, channelsBefore, await visibleChannelIds(app, { ...target, role }));
  await publishEmailSightChanges(app, target, role);
  if (isAdmin(target.role) !== isAdmin(role)) await publishBotListChanges(app, target, role);
}

/**
 * realm_bots holds every bot for administrators and one's own bots otherwise: becoming or ceasing to
 * be an administrator adds (realm_bot add) or removes (realm_bot delete) the others' bots.
 */
async function publishBotListChanges(app: App, target: UserRow, role: number): Promise<void> {
  const others = (await listBots(app.db, realmOf(app).id)).filter((b) => b.bot_owner_id !== target.id);
  if (!others.length) return;
  if (isAdmin(role)) {
    const names = await streamNames(app, others);
    for (const b of others) app.events.publish({ type: "realm_bot", op: "add", bot: botDict(b, names) }, [target.id]);
  } else {
    for (const b of others) app.events.publish({ type: "realm_bot", op: "delete", bot: { user_id: b.id } }, [target.id]);
  }
}

/**
 * A new role may show the user more or fewer real addresses (email_address_visibility "admins" or
 * "moderators"): realm_user update `delivery_email` for each user whose address they now see or no
 * longer see, as for a change of that user's visibility setting.
 */
async function publishEmailSightChanges(app: App, target: UserRow, role: number): Promise<void> {
  const before = { id: target.id, role: target.role };
  const after = { id: target.id, role };
  const known = await accessibleUserIds(app, after);
  for (const u of await listUsers(app.db, realmOf(app).id)) {
    if (u.id === target.id || (known !== null && !known.has(u.id))) continue;
    const sees = canSeeDeliveryEmail(after, u);
    if (sees !== canSeeDeliveryEmail(before, u)) app.events.publish({ type: "realm_user", op: "update", person: { user_id: u.id, delivery_email: sees ? u.delivery_email : null } }, [target.id]);
  }
}

/** The channels a user may know of with their current role and subscriptions (archived ones too: clients that keep them get them). */
async function visibleChannelIds(app: App, user: Pick<UserRow, "id" | "role">): Promise<Set<number>> {
  const subscribed = new Set(await listSubscribedStreamIds(app.db, user.id));
  const streams = await listStreams(app.db, realmOf(app).id);
  return new Set(streams.filter((st) => hasMetadataAccess(channelAccess(app, user, st, subscribed.has(st.id)))).map((st) => st.id));
}

/**
 * Zulip's send_stream_events_for_role_update: channels a role change brought into sight come as
 * stream create with their subscribers (peer_add), those it took away as stream delete.
 */
async function publishChannelSightChanges(app: App, userId: number, before: Set<number>, after: Set<number>): Promise<void> {
  const gained = [...after].filter((sid) => !before.has(sid));
  const lost = [...before].filter((sid) => !after.has(sid));
  if (gained.length) {
    const rows = await listStreamsByIds(app.db, gained);
    app.events.publish({ type: "stream", op: "create", streams: await formatStreams(app, app.db, rows) }, [userId]);
    const subscribers = await mapSubscriberIds(app.db, gained);
    for (const sid of gained) app.events.publish({ type: "subscription", op: "peer_add", stream_ids: [sid], user_ids: subscribers.get(sid) ?? [] }, [userId]);
  }
  if (lost.length) app.events.publish(streamDeleteEvent(lost), [userId]);
}

/** Renames a user (Zulip's check_change_full_name); bots' names must be unique among active users. */
export async function changeFullName(app: App, target: UserRow, fullName: string): Promise<void> {
  const name = fullName.trim();
  const problem = fullNameProblem(name);
  if (problem) throw badRequest(problem);
  if (name === target.full_name) return;
  const realm = realmOf(app);
  const duplicate = await findActiveUserByFullName(app.db, realm.id, name, target.id);
  if (duplicate && target.is_bot) throw badRequest("Name is already in use!");
  if (duplicate && realm.settings.require_unique_names) throw badRequest("Unique names required in this organization.");
  await app.db.tx((sql) => updateUser(sql, target.id, { full_name: name }));
  app.events.publish({ type: "realm_user", op: "update", person: { user_id: target.id, full_name: name } }, await usersWhoCanAccess(app, target.id));
  if (target.is_bot) {
    app.events.publish({ type: "realm_bot", op: "update", bot: { user_id: target.id, full_name: name } }, await botAdministrators(app, target));
  }
}

/**
 * Brings role:fullmembers in line with the waiting period: members whose period has passed join it,
 * members still waiting leave it. Runs when the threshold changes; the scheduler may run it daily.
 */
export async function syncFullMembers(app: App): Promise<void> {
  const realm = realmOf(app);
  const groupId = app.systemGroups.get("role:fullmembers")!;
  const members = (await listUsers(app.db, realm.id)).filter((u) => u.role === ROLE.member);
  const now = nowSecs(app);
  const threshold = realm.settings.waiting_period_threshold;
  const current = new Set(await listDirectMemberIds(app.db, groupId));
  const add = members.filter((u) => !current.has(u.id) && isFullMember(u.date_joined, threshold, now)).map((u) => u.id);
  const remove = members.filter((u) => current.has(u.id) && !isFullMember(u.date_joined, threshold, now)).map((u) => u.id);
  if (!add.length && !remove.length) return;
  await app.db.tx(async (sql) => {
    await addMembers(sql, groupId, add);
    await removeMembers(sql, groupId, remove);
  });
  await reloadGroups(app);
  const everyone = await listActiveUserIds(app.db, realm.id);
  const active = new Set(everyone);
  const shown = (ids: number[]) => ids.filter((id) => active.has(id));
  if (shown(add).length) app.events.publish({ type: "user_group", op: "add_members", group_id: groupId, user_ids: shown(add) }, everyone);
  if (shown(remove).length) app.events.publish({ type: "user_group", op: "remove_members", group_id: groupId, user_ids: shown(remove) }, everyone);
}
