import { nowSecs, realmOf, reloadGroups, type App } from "../app";
import { isOwner } from "../domain/roles";
import { badRequest, ownerRequired, ZulipError } from "../errors";
import type { Sql } from "../store/db";
import { listDirectGroupsOf } from "../store/groups";
import { expireInvitesOf } from "../store/invites";
import { deleteValuesOf } from "../store/profile-fields";
import { deleteMessagesByIds, listMessageHolders, listSentMessages, type ContentKind, type SentMessageRow } from "../store/user-content";
import { countActiveUsers, deleteSessionsOf, findActiveUserByFullName, findUserById, listActiveUserIds, listBotsOwnedBy, updateUser, type UserRow } from "../store/users";
import { avatarUrl } from "../domain/user-format";
import { checkBotCreationPolicy } from "./bot-permissions";
import { publishPeerEventsForMember, publishSettingEventsForMember } from "./activation-events";
import { notifyInvitesChanged } from "./invites";
import { sendEmail } from "./mail";
import { accessUserById, guestsSeeEveryone, usersWhoCanAccess } from "./user-access";
import { isLastOwner } from "./user-updates";
import { botAdministrators } from "./users";

/** `actions` of DELETE /users/{user_id} (feature level 459). */
export interface DeactivationActions {
  delete_profile?: boolean;
  delete_public_channel_messages?: boolean;
  delete_private_channel_messages?: boolean;
  delete_direct_messages?: boolean;
}

const cannotDeactivateLast = (isLastOwnerError: boolean) => {
  const entity = isLastOwnerError ? "organization owner" : "user";
  return new ZulipError("CANNOT_DEACTIVATE_LAST_USER", `Cannot deactivate the only ${entity}.`, 400, { is_last_owner: isLastOwnerError, entity });
};

/**
 * DELETE /users/{user_id}: administrators deactivate a human user (owners only by owners, never
 * the only owner); `comment` not null sends the notification email.
 */
export async function deactivateUserByAdmin(app: App, actor: UserRow, userId: number, actions: DeactivationActions, comment: string | null): Promise<void> {
  const target = await accessUserById(app, actor, userId, { forAdmin: true });
  if (isOwner(target.role) && !isOwner(actor.role)) throw ownerRequired();
  if (await isLastOwner(app, target)) throw badRequest("Cannot deactivate the only organization owner");
  await deactivateUser(app, target, actions);
  if (comment !== null) await sendDeactivationEmail(app, target, comment.trim());
}

/** DELETE /users/me: anyone but the only user or the only owner. */
export async function deactivateOwnAccount(app: App, me: UserRow): Promise<void> {
  if ((await countActiveUsers(app.db, me.realm_id)) === 1) throw cannotDeactivateLast(false);
  if (await isLastOwner(app, me)) throw cannotDeactivateLast(true);
  await deactivateUser(app, me, {});
}

function contentKinds(a: DeactivationActions): ContentKind[] {
  const kinds: ContentKind[] = [];
  if (a.delete_public_channel_messages) kinds.push("public_channel");
  if (a.delete_private_channel_messages) kinds.push("private_channel");
  if (a.delete_direct_messages) kinds.push("direct");
  return kinds;
}

export const deletedUserName = (userId: number) => `Deleted User ${userId}`;

/**
 * Deactivates a user and, first, the bots they own: each gets `actions` applied (profile scrubbed,
 * messages deleted) and is deactivated, all in one transaction. Afterwards their keys and sessions
 * no longer work, their event queues are gone, and everyone who could see them is told.
 */
export async function deactivateUser(app: App, target: UserRow, actions: DeactivationActions): Promise<void> {
  const bots = target.is_bot ? [] : await listBotsOwnedBy(app.db, target.id, true);
  const affected = [...bots, target];
  const kinds = contentKinds(actions);
  const audiences = new Map<number, number[]>();
  for (const u of affected) audiences.set(u.id, await usersWhoCanAccess(app, u.id));
  const directGroups = new Map<number, number[]>();
  for (const u of affected) directGroups.set(u.id, await listDirectGroupsOf(app.db, u.id));

  const deleted = await app.db.tx(async (sql) => {
    const messages: SentMessageRow[] = [];
    for (const u of affected) {
      if (actions.delete_profile) await scrubProfile(sql, u);
      const sent = await listSentMessages(sql, u.id, kinds);
      messages.push(...sent);
    }
    const ids = messages.map((m) => m.id);
    const holders = await listMessageHolders(sql, ids);
    await deleteMessagesByIds(sql, ids);
    let invites = 0;
    for (const u of affected) {
      await updateUser(sql, u.id, { is_active: 0 });
      await deleteSessionsOf(sql, u.id);
      // their invitations stop working with them (Zulip's revoke_invites_generated_by_user)
      invites += (await expireInvitesOf(sql, u.id, nowSecs(app))).changes;
    }
    return { messages, holders, invites };
  });

  for (const u of affected) app.events.dropUser(u.id);
  await reloadGroups(app);
  publishDeletions(app, deleted.messages, deleted.holders);
  if (deleted.invites) await notifyInvitesChanged(app, null);
  const realm = realmOf(app);
  const everyone = await listActiveUserIds(app.db, realm.id);
  for (const u of affected) {
    const audience = audiences.get(u.id)!.filter((id) => !affected.some((a) => a.id === id));
    if (actions.delete_profile) {
      const fresh = (await findUserById(app.db, u.id))!;
      app.events.publish({ type: "realm_user", op: "update", person: { user_id: u.id, full_name: fresh.full_name } }, audience);
      const url = avatarUrl(fresh, false)!;
      app.events.publish(
        { type: "realm_user", op: "update", person: { user_id: u.id, avatar_source: fresh.avatar_source, avatar_url: url, avatar_url_medium: avatarUrl(fresh, false, true), avatar_version: fresh.avatar_version } },
        audience,
      );
    }
    app.events.publish({ type: "realm_user", op: "update", person: { user_id: u.id, is_active: false } }, audience);
    await publishPeerEventsForMember(app, u.id, "peer_remove", new Set(affected.map((a) => a.id)));
    if (u.is_bot) {
      const admins = (await botAdministrators(app, u)).filter((id) => !affected.some((a) => a.id === id));
      app.events.publish({ type: "realm_bot", op: "update", bot: { user_id: u.id, is_active: false } }, admins);
    }
    // Users who cannot see the deactivated user learn only that the groups lost a member, and what
    // setting values naming them directly read now.
    if (!guestsSeeEveryone(app)) {
      const unaware = everyone.filter((id) => !audience.includes(id));
      for (const g of directGroups.get(u.id) ?? []) app.events.publish({ type: "user_group", op: "remove_members", group_id: g, user_ids: [u.id] }, unaware);
      await publishSettingEventsForMember(app, u.id, unaware);
    }
  }
}

/** delete_profile: the deleted-user name, the default avatar, no timezone, no custom profile values. */
async function scrubProfile(sql: Sql, u: UserRow) {
  await updateUser(sql, u.id, {
    full_name: deletedUserName(u.id),
    avatar_source: "G",
    avatar_version: u.avatar_version + 1,
    timezone: "",
  });
  await deleteValuesOf(sql, u.id);
}

/** One delete_message event per topic (or direct conversation), to each user who had those messages. */
function publishDeletions(app: App, messages: SentMessageRow[], holders: { message_id: number; user_id: number }[]) {
  if (!messages.length) return;
  const byMessage = new Map<number, number[]>();
  for (const h of holders) {
    let list = byMessage.get(h.message_id);
    if (!list) byMessage.set(h.message_id, (list = []));
    list.push(h.user_id);
  }
  const groups = new Map<string, SentMessageRow[]>();
  for (const m of messages) {
    const key = m.stream_id !== null ? `s:${m.stream_id}:${m.topic.toLowerCase()}` : `d:${m.dm_key}`;
    let list = groups.get(key);
    if (!list) groups.set(key, (list = []));
    list.push(m);
  }
  for (const list of groups.values()) {
    const first = list[0]!;
    const idsByUser = new Map<number, number[]>();
    for (const m of list) {
      for (const u of byMessage.get(m.id) ?? []) {
        let ids = idsByUser.get(u);
        if (!ids) idsByUser.set(u, (ids = []));
        ids.push(m.id);
      }
    }
    const base = first.stream_id !== null ? { message_type: "stream", stream_id: first.stream_id, topic: first.topic } : { message_type: "private" };
    app.events.publishEach(idsByUser.keys(), (userId) => ({ type: "delete_message", message_ids: idsByUser.get(userId)!.sort((a, b) => a - b), ...base }));
  }
}

async function sendDeactivationEmail(app: App, target: UserRow, comment: string) {
  const realm = realmOf(app);
  const url = app.config.server.external_url;
  const lines = [
    `Hello ${target.full_name},`,
    "",
    `Your account in the ${realm.name} organization (${url}) has been deactivated, and you will no longer be able to log in.`,
  ];
  if (comment) lines.push("", "The administrators provided the following comment:", "", comment);
  await sendEmail(app, { to: target.delivery_email, subject: `Your account on ${url || realm.name} has been deactivated`, body: lines.join("\n") });
}

/**
 * POST /users/{user_id}/reactivate: administrators (and a bot's owner, for the bot). A bot needs the caller's permission to
 * create such bots and a name no active user has. Group memberships come back with the user.
 */
export async function reactivateUser(app: App, actor: UserRow, userId: number): Promise<void> {
  const target = await accessUserById(app, actor, userId, { allowDeactivated: true, allowBots: true, forAdmin: true });
  if (target.is_active) return;
  if (target.is_bot) {
    checkBotCreationPolicy(app, actor, target.bot_type ?? 1);
    if (await findActiveUserByFullName(app.db, target.realm_id, target.full_name, target.id)) {
      throw badRequest(`There is already an active bot named "${target.full_name}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`);
    }
  }
  await app.db.tx((sql) => updateUser(sql, target.id, { is_active: 1 }));
  await reloadGroups(app);
  app.events.publish({ type: "realm_user", op: "update", person: { user_id: target.id, is_active: true } }, await usersWhoCanAccess(app, target.id));
  if (target.is_bot) app.events.publish({ type: "realm_bot", op: "update", bot: { user_id: target.id, is_active: true } }, await botAdministrators(app, target));
  const everyone = await listActiveUserIds(app.db, target.realm_id);
  for (const g of await listDirectGroupsOf(app.db, target.id)) {
    app.events.publish({ type: "user_group", op: "add_members", group_id: g, user_ids: [target.id] }, everyone);
  }
  await publishPeerEventsForMember(app, target.id, "peer_add");
  // setting values naming the user directly (anonymous groups) include them again
  await publishSettingEventsForMember(app, target.id, everyone);
}
