import type { Sql } from "./db";
import type { GroupRow } from "./groups";

/**
 * SQL for group-setting values: anonymous groups (user_groups rows with name NULL) hold the
 * `{direct_members, direct_subgroups}` values. They are shared by equal values and never edited
 * in place: a new value finds an equal group or gets a new one.
 */

const list = (ids: number[]) => ids.map(() => "?").join(",");

export const listGroupsByIds = (sql: Sql, ids: number[]) =>
  ids.length ? sql.all<GroupRow>(`SELECT * FROM user_groups WHERE id IN (${list(ids)})`, ids) : Promise.resolve([] as GroupRow[]);

/** Active users of the realm among `ids`. */
export const listActiveUserIdsIn = async (sql: Sql, realmId: number, ids: number[]) =>
  ids.length
    ? (await sql.all<{ id: number }>(`SELECT id FROM users WHERE realm_id = ? AND is_active = 1 AND id IN (${list(ids)})`, [realmId, ...ids])).map((r) => r.id)
    : [];

/** An anonymous group with exactly these direct members and subgroups (sorted ids), if one exists. */
export async function findEqualAnonymousGroup(sql: Sql, realmId: number, members: number[], subgroups: number[]): Promise<number | undefined> {
  const row = await sql.get<{ id: number }>(
    `SELECT g.id FROM user_groups g
      WHERE g.realm_id = ? AND g.name IS NULL
        AND coalesce((SELECT group_concat(user_id) FROM (SELECT user_id FROM user_group_members WHERE group_id = g.id ORDER BY user_id)), '') = ?
        AND coalesce((SELECT group_concat(subgroup_id) FROM (SELECT subgroup_id FROM user_group_subgroups WHERE group_id = g.id ORDER BY subgroup_id)), '') = ?
      ORDER BY g.id LIMIT 1`,
    [realmId, members.join(","), subgroups.join(",")],
  );
  return row?.id;
}

export async function insertAnonymousGroup(sql: Sql, realmId: number, members: number[], subgroups: number[]): Promise<number> {
  const { lastId } = await sql.run("INSERT INTO user_groups (realm_id, name) VALUES (?, NULL)", [realmId]);
  const stmts = [
    ...members.map((u) => ({ sql: "INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)", args: [lastId, u] })),
    ...subgroups.map((g) => ({ sql: "INSERT INTO user_group_subgroups (group_id, subgroup_id) VALUES (?, ?)", args: [lastId, g] })),
  ];
  if (stmts.length) await sql.batch(stmts);
  return lastId;
}

/**
 * The anonymous groups among `ids` with their direct members (active users only, as Zulip shows
 * them) and direct subgroups, sorted. Named groups are absent from the result. Three queries.
 */
export async function listAnonymousGroupContents(sql: Sql, ids: number[]): Promise<Map<number, { direct_members: number[]; direct_subgroups: number[] }>> {
  const out = new Map<number, { direct_members: number[]; direct_subgroups: number[] }>();
  const unique = [...new Set(ids)];
  if (!unique.length) return out;
  const anon = await sql.all<{ id: number }>(`SELECT id FROM user_groups WHERE name IS NULL AND id IN (${list(unique)})`, unique);
  if (!anon.length) return out;
  const anonIds = anon.map((r) => r.id);
  for (const id of anonIds) out.set(id, { direct_members: [], direct_subgroups: [] });
  const [members, subgroups] = await Promise.all([
    sql.all<{ group_id: number; user_id: number }>(
      `SELECT m.group_id, m.user_id FROM user_group_members m JOIN users u ON u.id = m.user_id
        WHERE u.is_active = 1 AND m.group_id IN (${list(anonIds)}) ORDER BY m.user_id`,
      anonIds,
    ),
    sql.all<{ group_id: number; subgroup_id: number }>(
      `SELECT group_id, subgroup_id FROM user_group_subgroups WHERE group_id IN (${list(anonIds)}) ORDER BY subgroup_id`,
      anonIds,
    ),
  ]);
  for (const m of members) out.get(m.group_id)!.direct_members.push(m.user_id);
  for (const s of subgroups) out.get(s.group_id)!.direct_subgroups.push(s.subgroup_id);
  return out;
}
