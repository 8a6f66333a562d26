import { nowSecs, realmOf, reloadGroups, type App } from "../app";
import { ROLES, systemGroupsForRole } from "../domain/roles";
import { userDict } from "../domain/user-format";
import { fullNameProblem, isValidEmail, passwordProblem } from "../domain/validate";
import { badRequest } from "../errors";
import { generateApiKey } from "../lib/random";
import { addMembers } from "../store/groups";
import { insertRecipient } from "../store/realm";
import { findUserByEmail, findUserById, insertUser, listUsers, updateUser, type UserRow } from "../store/users";
import type { Sql } from "../store/db";

export interface NewUserInput {
  email: string;
  fullName: string;
  password: string | null;
  role: number;
  canCreateUsers?: boolean;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
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
 * subscriptions in one transaction, then announced with a realm_user add event.
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
    });
    const recipientId = await insertRecipient(sql, 1, id);
    await updateUser(sql, id, { recipient_id: recipientId });
    for (const name of systemGroupsForRole(input.role)) await addMembers(sql, app.systemGroups.get(name)!, [id]);
    await subscribeToDefaultStreams(sql, id);
    if (extra) await extra(sql, id);
    return id;
  });
  await reloadGroups(app);
  const user = (await findUserById(app.db, userId))!;
  const everyone = (await listUsers(app.db, realm.id)).filter((u) => u.is_active).map((u) => u.id);
  app.events.publish({ type: "realm_user", op: "add", person: userDict(user, { clientGravatar: false }) }, everyone);
  return { userId, email, apiKey };
}

/** New users join the organization's default channels. */
async function subscribeToDefaultStreams(sql: Sql, userId: number) {
  const rows = await sql.all<{ stream_id: number }>(
    "SELECT d.stream_id FROM default_streams d JOIN streams s ON s.id = d.stream_id WHERE s.is_archived = 0",
  );
  for (const [i, r] of rows.entries()) {
    await sql.run("INSERT OR IGNORE INTO subscriptions (user_id, stream_id, color) VALUES (?, ?, ?)", [userId, r.stream_id, STREAM_COLORS[i % STREAM_COLORS.length]!]);
  }
}

/** Zulip's palette for new subscriptions. */
export const STREAM_COLORS = [
  "#76ce90", "#fae589", "#a6c7e5", "#e79ab5", "#bfd56f", "#f4ae55", "#b0a5fd", "#addfe5", "#f5ce6e", "#c2726a",
  "#94c849", "#bd86e5", "#ee7e4a", "#a6dcbf", "#95a5fd", "#53a063", "#9987e1", "#e4523d", "#c2c2c2", "#4f8de4",
  "#c6a8ad", "#e7cc4d", "#c8bebf", "#a47462",
];

/** Replaces a user's API key; the old one stops working at once. */
export async function regenerateApiKey(app: App, user: UserRow): Promise<string> {
  const apiKey = generateApiKey();
  await app.db.tx((sql) => updateUser(sql, user.id, { api_key: apiKey }));
  return apiKey;
}
