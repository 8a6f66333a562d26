import { nowSecs, type App } from "../app";
import { badRequest } from "../errors";
import { deleteMutedUser, insertMutedUser, isMuted, listMutedUsers, markMessagesFromSenderRead } from "../store/muted-users";
import type { UserRow } from "../store/users";
import { accessUserById } from "./user-access";

/** The caller's muted users as the API shows them (register state and events). */
export async function mutedUserList(app: App, userId: number) {
  return (await listMutedUsers(app.db, userId)).map((m) => ({ id: m.muted_user_id, timestamp: Math.floor(m.date_muted) }));
}

async function publishMutedUsers(app: App, me: UserRow) {
  app.events.publish({ type: "muted_users", muted_users: await mutedUserList(app, me.id) }, [me.id]);
}

/**
 * POST /users/me/muted_users/{id}: bots and deactivated users may be muted, oneself not. Messages
 * already received from them are marked read (with the flag event), then the new list goes to the caller.
 */
export async function muteUser(app: App, me: UserRow, mutedUserId: number): Promise<void> {
  if (mutedUserId === me.id) throw badRequest("Cannot mute self");
  const target = await accessUserById(app, me, mutedUserId, { allowBots: true, allowDeactivated: true });
  const read = await app.db.tx(async (sql) => {
    if (await isMuted(sql, me.id, target.id)) throw badRequest("User already muted");
    await insertMutedUser(sql, me.id, target.id, nowSecs(app));
    return markMessagesFromSenderRead(sql, me.id, target.id);
  });
  if (read.length) {
    app.events.publish({ type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: read, all: false }, [me.id]);
  }
  await publishMutedUsers(app, me);
}

/** DELETE /users/me/muted_users/{id}. */
export async function unmuteUser(app: App, me: UserRow, mutedUserId: number): Promise<void> {
  const target = await accessUserById(app, me, mutedUserId, { allowBots: true, allowDeactivated: true });
  await app.db.tx(async (sql) => {
    if (!(await isMuted(sql, me.id, target.id))) throw badRequest("User is not muted");
    await deleteMutedUser(sql, me.id, target.id);
  });
  await publishMutedUsers(app, me);
}
