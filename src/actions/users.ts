import { nowSecs, realmOf, reloadGroups, type App } from "../app";
import { isAdmin, ROLE, ROLES, systemGroupsForRole, type SystemGroupName } from "../domain/roles";
import { isFullMember } from "../domain/user-groups";
import { botDict, canSeeDeliveryEmail, EMAIL_VISIBILITY, emailVisibilityOf, inaccessibleUserDict, userDict, type ProfileData } from "../domain/user-format";
import { fullNameProblem, isValidEmail, passwordProblem } from "../domain/validate";
import { adminRequired, badRequest, unauthorized } from "../errors";
import { generateApiKey } from "../lib/random";
import { addMembers } from "../store/groups";
import { insertRecipient } from "../store/realm";
import {
  findUserByEmail,
  findUserById,
  insertUser,
  listActiveUserIds,
  listActiveUserIdsWithRoles,
  listStreamNames,
  listUsers,
  listUsersByIds,
  updateUser,
  type UserRow,
} from "../store/users";
import type { Sql } from "../store/db";
import { listDefaultStreamIds, listStreamsByIds } from "../store/streams";
import { listSubscribedStreamIds, mapUsedColors, upsertSubscriptions } from "../store/subscriptions";
import { pickColor } from "../domain/stream-colors";
import { apiEmailFor, emailHost } from "./email-visibility";
import { profileDataOf } from "./profile-data";
import { publishSubscriptionAdds } from "./subscriptions";
import { accessibleUserIds, canAccessUser, splitByEmailAccess, usersWhoCanAccess } from "./user-access";

export interface NewUserInput {
  email: string;
  fullName: string;
  password: string | null;
  role: number;
  canCreateUsers?: boolean;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  defaultSendingStreamId?: number | null;
  defaultEventsRegisterStreamId?: number | null;
  defaultAllPublicStreams?: boolean;
  /** join the organization's default channels (default: humans do, bots do not, as in Zulip) */
  defaultChannels?: boolean;
}

export interface CreatedUser {
  userId: number;
  email: string;
  apiKey: string;
}

/** Hashes a password with argon2id (Bun.password). */
export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: "argon2id" });

/**
 * Creates a user (or bot): validated, written with its group memberships and default-channel
 * subscriptions (plus whatever `extra` writes) in one transaction, then announced: realm_user add,
 * system-group add_members, subscription peer_add for each channel the user is now in, and for
 * bots realm_bot add to the owner and the administrators.
 */
export async function createUser(app: App, _actor: UserRow | null, input: NewUserInput, extra?: (sql: Sql, userId: number) => Promise<void>): Promise<CreatedUser> {
  const realm = realmOf(app);
  const email = input.email.trim();
  if (!isValidEmail(email)) throw badRequest(`Invalid email '${email}'`);
  const nameProblem = fullNameProblem(input.fullName);
  if (nameProblem) throw badRequest(nameProblem);
  if (input.password !== null) {
    const problem = passwordProblem(input.password);
    if (problem) throw badRequest(problem);
  }
  if (!ROLES.includes(input.role)) throw badRequest("Invalid role");
  if (await findUserByEmail(app.db, realm.id, email)) throw badRequest(`Email '${email}' already in use`);
  const passwordHash = input.password !== null ? await hashPassword(input.password) : null;
  const apiKey = generateApiKey();
  const groups = systemGroupsFor(app, input.role, nowSecs(app)).map((name) => app.systemGroups.get(name)!);
  const userId = await app.db.tx(async (sql) => {
    if (await findUserByEmail(sql, realm.id, email)) throw badRequest(`Email '${email}' already in use`);
    const id = await insertUser(sql, {
      realmId: realm.id,
      email,
      fullName: input.fullName.trim(),
      role: input.role,
      apiKey,
      passwordHash,
      canCreateUsers: input.canCreateUsers,
      isBot: input.isBot,
      botType: input.botType,
      botOwnerId: input.botOwnerId,
      dateJoined: nowSecs(app),
      defaultSendingStreamId: input.defaultSendingStreamId,
      defaultEventsRegisterStreamId: input.defaultEventsRegisterStreamId,
      defaultAllPublicStreams: input.defaultAllPublicStreams,
    });
    const recipientId = await insertRecipient(sql, 1, id);
    // The organization's default email_address_visibility has been copied into the row: a user who
    // does not show their email to everyone is known by the dummy address.
    const visibility = input.isBot ? EMAIL_VISIBILITY.everyone : emailVisibilityOf((await findUserById(sql, id))!);
    await updateUser(sql, id, { recipient_id: recipientId, email: apiEmailFor(app, { id, delivery_email: email }, visibility) });
    for (const g of groups) await addMembers(sql, g, [id]);
    if (input.defaultChannels ?? !input.isBot) await subscribeToDefaultStreams(sql, realm.id, id);
    if (extra) await extra(sql, id);
    return id;
  });
  await reloadGroups(app);
  const user = (await findUserById(app.db, userId))!;
  const canAccess = await usersWhoCanAccess(app, userId);
  const audience = await splitByEmailAccess(app, user, canAccess);
  for (const [ids, deliveryEmail] of [[audience.see, true], [audience.blind, false]] as const) {
    const person = userDict(user, { clientGravatar: false, profileData: user.is_bot ? undefined : {}, deliveryEmail });
    if (ids.length) app.events.publish({ type: "realm_user", op: "add", person }, ids);
  }
  const everyone = await listActiveUserIds(app.db, realm.id);
  // guests who may not see the new user: an "Unknown user" for clients without user_list_incomplete
  if (canAccess.length < everyone.length) {
    const seeing = new Set(canAccess);
    const blind = everyone.filter((id) => !seeing.has(id));
    app.events.publish({ type: "realm_user", op: "add", person: inaccessibleUserDict(userId, emailHost(app)), inaccessible_user: true }, blind);
  }
  for (const g of groups) app.events.publish({ type: "user_group", op: "add_members", group_id: g, user_ids: [userId] }, everyone);
  if (user.is_bot) {
    const bot = botDict(user, await streamNames(app, [user]));
    app.events.publish({ type: "realm_bot", op: "add", bot }, await botAdministrators(app, user));
  }
  const streams = await listStreamsByIds(app.db, await listSubscribedStreamIds(app.db, userId));
  await publishSubscriptionAdds(app, [], streams.map((stream) => ({ user, stream })));
  return { userId, email, apiKey };
}

/** New users join the organization's default channels (archived ones excepted). */
async function subscribeToDefaultStreams(sql: Sql, realmId: number, userId: number) {
  const streams = await listStreamsByIds(sql, await listDefaultStreamIds(sql, realmId));
  await subscribeNewUser(sql, userId, streams.filter((s) => !s.is_archived).map((s) => s.id));
}

/** Subscribes a user created in this transaction to channels, each with a palette colour it does not use yet. */
export async function subscribeNewUser(sql: Sql, userId: number, streamIds: number[]) {
  const used = (await mapUsedColors(sql, [userId])).get(userId)!;
  const subscribed = new Set(await listSubscribedStreamIds(sql, userId));
  const fresh = [...new Set(streamIds)].filter((id) => !subscribed.has(id));
  await upsertSubscriptions(sql, fresh.map((streamId) => ({ userId, streamId, color: pickColor(used) })));
}

/**
 * The system groups a user of `role` who joined at `dateJoined` belongs to directly: members are
 * full members once the organization's waiting period (waiting_period_threshold days) has passed.
 */
export function systemGroupsFor(app: App, role: number, dateJoined: number): SystemGroupName[] {
  const groups = systemGroupsForRole(role);
  if (isFullMember(dateJoined, realmOf(app).settings.waiting_period_threshold, nowSecs(app))) return groups;
  return groups.filter((g) => g !== "role:fullmembers");
}

/** Resolves bots' default channel ids to names (bot dicts show names). */
export async function streamNames(app: App, bots: UserRow[]): Promise<(id: number | null) => string | null> {
  const ids = bots.flatMap((b) => [b.default_sending_stream_id, b.default_events_register_stream_id]).filter((i): i is number => i !== null);
  const names = new Map((await listStreamNames(app.db, [...new Set(ids)])).map((r) => [r.id, r.name]));
  return (id) => (id === null ? null : (names.get(id) ?? null));
}

/** Who receives realm_bot events about a bot: its owner and the organization's administrators. */
export async function botAdministrators(app: App, bot: UserRow): Promise<number[]> {
  const admins = await listActiveUserIdsWithRoles(app.db, realmOf(app).id, [ROLE.owner, ROLE.administrator]);
  const out = new Set(admins);
  if (bot.bot_owner_id !== null) out.add(bot.bot_owner_id);
  return [...out].sort((a, b) => a - b);
}

/** Replaces a user's API key; the old one stops working at once. */
export async function regenerateApiKey(app: App, user: UserRow): Promise<string> {
  const apiKey = generateApiKey();
  await app.db.tx((sql) => updateUser(sql, user.id, { api_key: apiKey }));
  return apiKey;
}

/** POST /users: administrators who also hold can_create_users. */
export async function createUserByAdmin(app: App, actor: UserRow, input: { email: string; password: string; fullName: string }): Promise<number> {
  if (!isAdmin(actor.role)) throw adminRequired();
  if (!actor.can_create_users) throw badRequest("User not authorized to create users");
  const created = await createUser(app, actor, { email: input.email, fullName: input.fullName, password: input.password, role: ROLE.member });
  return created.userId;
}

export interface UserFormat {
  clientGravatar: boolean;
  includeCustomProfileFields: boolean;
}

/** User objects as `viewer` (null: a spectator) sees them. */
async function formatUsers(app: App, viewer: UserRow | null, users: UserRow[], opts: UserFormat) {
  const profiles = opts.includeCustomProfileFields ? await profileDataOf(app, users.length > 50 ? "all" : users.map((u) => u.id)) : null;
  return users.map((u) =>
    userDict(u, { clientGravatar: opts.clientGravatar, profileData: profiles ? (profiles.get(u.id) ?? {}) : undefined, deliveryEmail: canSeeDeliveryEmail(viewer, u) }),
  );
}

/**
 * GET /users: every user the caller may see (all of them for spectators when public access is on),
 * optionally only `userIds` (an id that is not visible is "Invalid user ID").
 */
export async function getUsers(app: App, actor: UserRow | null, opts: UserFormat & { userIds?: number[] }) {
  const realm = realmOf(app);
  // spectators only in organizations with the public-access option
  if (!actor && !realm.settings.allow_public_access) throw unauthorized();
  let users = await listUsers(app.db, realm.id);
  const visible = actor ? await accessibleUserIds(app, actor) : null;
  if (visible) users = users.filter((u) => visible.has(u.id));
  if (opts.userIds) {
    const byId = new Map(users.map((u) => [u.id, u]));
    for (const id of opts.userIds) if (!byId.has(id)) throw badRequest(`Invalid user ID: ${id}`);
    users = [...new Set(opts.userIds)].sort((a, b) => a - b).map((id) => byId.get(id)!);
  }
  // Spectators never learn real email addresses (canSeeDeliveryEmail).
  return formatUsers(app, actor, users, opts);
}

/** GET /users/{user_id} and /users/{email}: one user the caller may see (bots and deactivated users included). */
export async function getUser(app: App, actor: UserRow | null, target: { id: number } | { email: string }, opts: UserFormat) {
  const realm = realmOf(app);
  const user = "id" in target ? await findUserById(app.db, target.id) : await findUserByAnyEmail(app, actor, target.email);
  if (!user || user.realm_id !== realm.id) throw badRequest("No such user");
  if (actor && !(await canAccessUser(app, actor, user.id))) throw badRequest("Insufficient permission");
  return (await formatUsers(app, actor, [user], opts))[0]!;
}

/**
 * GET /users/{email} (Zulip 10): the API email, the real email when `actor` may see it, or the
 * dummy `user{id}@{host}` of any user.
 */
async function findUserByAnyEmail(app: App, actor: UserRow | null, email: string): Promise<UserRow | undefined> {
  const user = await findUserByEmail(app.db, realmOf(app).id, email);
  if (user && (user.email.toLowerCase() === email.toLowerCase() || canSeeDeliveryEmail(actor, user))) return user;
  const [local, host] = email.toLowerCase().split("@");
  const dummy = /^user(\d+)$/.exec(local ?? "");
  return dummy && host === emailHost(app).toLowerCase() ? findUserById(app.db, Number(dummy[1])) : undefined;
}

/** The users `actor` may see among `ids`; others are "Invalid user ID". Deactivated ones only if allowed. */
export async function usersByIds(app: App, ids: number[], opts: { allowDeactivated?: boolean } = {}): Promise<UserRow[]> {
  const realm = realmOf(app);
  const rows = new Map((await listUsersByIds(app.db, ids)).map((u) => [u.id, u]));
  return ids.map((id) => {
    const u = rows.get(id);
    if (!u || u.realm_id !== realm.id || (!u.is_active && !opts.allowDeactivated)) throw badRequest(`Invalid user ID: ${id}`);
    return u;
  });
}

export type { ProfileData };
