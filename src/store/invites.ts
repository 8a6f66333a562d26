import type { Sql } from "./db";

export interface InviteRow {
  id: number;
  realm_id: number;
  referrer_id: number;
  key: string;
  is_multiuse: number;
  email: string | null;
  invited_as: number;
  stream_ids: string;
  group_ids: string;
  include_realm_default_subscriptions: number;
  welcome_message_custom_text: string | null;
  created: number;
  expires: number | null;
  revoked: number;
  /** 1: the inviter hears from Notification Bot when the person joins (email invitations) */
  notify_referrer_on_join: number;
  /** the account made with an email invitation (its link works once) */
  used_by: number | null;
}

export interface NewInvite {
  realmId: number;
  referrerId: number;
  key: string;
  invitedAs: number;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  welcomeMessageCustomText: string | null;
  created: number;
  expires: number | null;
}

export async function insertMultiuseInvite(sql: Sql, i: NewInvite): Promise<number> {
  const { lastId } = await sql.run(
    `INSERT INTO invites (realm_id, referrer_id, key, is_multiuse, invited_as, stream_ids, group_ids,
       include_realm_default_subscriptions, welcome_message_custom_text, created, expires)
     VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)`,
    [i.realmId, i.referrerId, i.key, i.invitedAs, JSON.stringify(i.streamIds), JSON.stringify(i.groupIds), i.includeRealmDefaultSubscriptions ? 1 : 0,
      i.welcomeMessageCustomText, i.created, i.expires],
  );
  return lastId;
}

export interface NewEmailInvite extends NewInvite {
  email: string;
  notifyReferrerOnJoin: boolean;
}

export async function insertEmailInvite(sql: Sql, i: NewEmailInvite): Promise<number> {
  const { lastId } = await sql.run(
    `INSERT INTO invites (realm_id, referrer_id, key, is_multiuse, email, invited_as, stream_ids, group_ids,
       include_realm_default_subscriptions, welcome_message_custom_text, created, expires, notify_referrer_on_join)
     VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [i.realmId, i.referrerId, i.key, i.email, i.invitedAs, JSON.stringify(i.streamIds), JSON.stringify(i.groupIds), i.includeRealmDefaultSubscriptions ? 1 : 0,
      i.welcomeMessageCustomText, i.created, i.expires, i.notifyReferrerOnJoin ? 1 : 0],
  );
  return lastId;
}

export const findEmailInvite = (sql: Sql, realmId: number, id: number) =>
  sql.get<InviteRow>("SELECT * FROM invites WHERE realm_id = ? AND id = ? AND is_multiuse = 0", [realmId, id]);

/**
 * The invitations that still work, both kinds, by id: not revoked, not expired, and for an emailed
 * one not used yet; every one of the organization's, or only those `referrerId` made.
 */
export const listActiveInvites = (sql: Sql, realmId: number, now: number, referrerId: number | null) =>
  sql.all<InviteRow>(
    `SELECT * FROM invites WHERE realm_id = ? AND revoked = 0 AND used_by IS NULL AND (expires IS NULL OR expires > ?)
     ${referrerId === null ? "" : "AND referrer_id = ?"} ORDER BY id`,
    referrerId === null ? [realmId, now] : [realmId, now, referrerId],
  );

/** The emailed link was used to make account `userId`: it works no more. */
export const markInviteUsed = (sql: Sql, id: number, userId: number) => sql.run("UPDATE invites SET used_by = ? WHERE id = ?", [userId, id]);

/** Revokes the pending email invitations of `email` (but `exceptId`), as a sign-up with that address does; their referrers. */
export async function revokePendingEmailInvites(sql: Sql, realmId: number, email: string, exceptId: number | null): Promise<number[]> {
  const rows = await sql.all<{ id: number; referrer_id: number }>(
    `SELECT id, referrer_id FROM invites WHERE realm_id = ? AND email = ? COLLATE NOCASE AND is_multiuse = 0 AND revoked = 0 AND used_by IS NULL AND id IS NOT ?`,
    [realmId, email, exceptId],
  );
  if (rows.length) await sql.run(`UPDATE invites SET revoked = 1 WHERE id IN (${rows.map(() => "?").join(",")})`, rows.map((r) => r.id));
  return rows.map((r) => r.referrer_id);
}

export const findMultiuseInvite = (sql: Sql, realmId: number, id: number) =>
  sql.get<InviteRow>("SELECT * FROM invites WHERE realm_id = ? AND id = ? AND is_multiuse = 1", [realmId, id]);

export const findInviteByKey = (sql: Sql, key: string) => sql.get<InviteRow>("SELECT * FROM invites WHERE key = ?", [key]);

export const revokeInvite = (sql: Sql, id: number) => sql.run("UPDATE invites SET revoked = 1 WHERE id = ?", [id]);

/** Scheduler cleanup: invitations that expired more than `before` ago are of no further use. */
export const deleteExpiredInvites = (sql: Sql, before: number) => sql.run("DELETE FROM invites WHERE expires IS NOT NULL AND expires < ?", [before]);

/** Channels among `ids` that still exist and are not archived. */
export async function liveStreamIds(sql: Sql, realmId: number, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await sql.all<{ id: number }>(
    `SELECT id FROM streams WHERE realm_id = ? AND is_archived = 0 AND id IN (${ids.map(() => "?").join(",")}) ORDER BY id`,
    [realmId, ...ids],
  );
  return rows.map((r) => r.id);
}

/** Named, active user groups among `ids`. */
export async function liveGroupIds(sql: Sql, realmId: number, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await sql.all<{ id: number }>(
    `SELECT id FROM user_groups WHERE realm_id = ? AND name IS NOT NULL AND deactivated = 0 AND id IN (${ids.map(() => "?").join(",")}) ORDER BY id`,
    [realmId, ...ids],
  );
  return rows.map((r) => r.id);
}

/** Records invitation emails sent now (for the daily limit). */
export async function recordInviteEmailsSent(sql: Sql, realmId: number, at: number, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await sql.run("INSERT INTO invite_emails_sent (realm_id, sent_at) VALUES (?, ?)", [realmId, at]);
}

/** Invitation emails the organization sent after `since`. */
export const countInviteEmailsSince = async (sql: Sql, realmId: number, since: number) =>
  (await sql.get<{ n: number }>("SELECT count(*) AS n FROM invite_emails_sent WHERE realm_id = ? AND sent_at > ?", [realmId, since]))!.n;

/** Scheduler cleanup: sends older than `before` no longer count. */
export const deleteInviteEmailsSentBefore = (sql: Sql, before: number) => sql.run("DELETE FROM invite_emails_sent WHERE sent_at < ?", [before]);

/** Expires now every invitation `referrerId` made that still works (Zulip's revoke_invites_generated_by_user). */
export const expireInvitesOf = (sql: Sql, referrerId: number, now: number) =>
  sql.run("UPDATE invites SET expires = ? WHERE referrer_id = ? AND revoked = 0 AND used_by IS NULL AND (expires IS NULL OR expires > ?)", [now, referrerId, now]);
