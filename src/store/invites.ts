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

export const findMultiuseInvite = (sql: Sql, realmId: number, id: number) =>
  sql.get<InviteRow>("SELECT * FROM invites WHERE realm_id = ? AND id = ? AND is_multiuse = 1", [realmId, id]);

export const findInviteByKey = (sql: Sql, key: string) => sql.get<InviteRow>("SELECT * FROM invites WHERE key = ?", [key]);

/** Unrevoked, unexpired reusable links of the organization, or only those `referrerId` created. */
export const listActiveMultiuseInvites = (sql: Sql, realmId: number, now: number, referrerId: number | null) =>
  sql.all<InviteRow>(
    `SELECT * FROM invites WHERE realm_id = ? AND is_multiuse = 1 AND revoked = 0 AND (expires IS NULL OR expires > ?)
     ${referrerId === null ? "" : "AND referrer_id = ?"} ORDER BY id`,
    referrerId === null ? [realmId, now] : [realmId, now, referrerId],
  );

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
