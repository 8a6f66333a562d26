import type { InValue } from "@libsql/client";
import type { Sql } from "./db";
import { findUnreadFloor, IN_RANGES, IN_RANGES_WHERE, unreadIdsSql } from "./unread-floors";

/**
 * A narrow resolved to ids, ready for SQL (the actions resolve names and check access first).
 * Each condition may be negated.
 */
export type Cond =
  | { k: "streams"; ids: number[] }
  | { k: "topic"; topic: string }
  | { k: "sender"; id: number }
  | { k: "dm"; key: string }
  | { k: "dm_including"; ids: number[] }
  | { k: "is_dm" }
  | { k: "flag"; mask: number }
  | { k: "unread" }
  | { k: "resolved" }
  | { k: "muted" }
  | { k: "followed" }
  | { k: "has"; what: "link" | "attachment" | "image" | "reaction" }
  | { k: "id"; id: number }
  /**
   * A full-text search. `pending`: messages above the index's watermark are not indexed yet; they
   * are matched by a scan (each GLOB pattern against the lower-cased topic and content) instead.
   */
  | { k: "search"; fts: string; pending?: { above: number; patterns: string[] } }
  | { k: "never" };
export type Term = Cond & { neg?: boolean };

/**
 * Where the rows come from: the user's own message history (their user_messages rows), or the
 * full history of some channels (messages the user may read though they never received them).
 */
export interface ResolvedNarrow {
  userId: number;
  terms: Term[];
  /** channel ids whose full history is searched; null: only the user's own messages */
  historyStreams: number[] | null;
}

/** Flags of a message the user can read but never received. */
export const HISTORICAL_FLAGS = 1 | 128;

function condSql(c: Term, userId: number, args: InValue[]): string {
  switch (c.k) {
    case "streams":
      if (c.ids.length === 1) {
        args.push(c.ids[0]!);
        return "m.stream_id = ?";
      }
      args.push(...c.ids);
      return c.ids.length ? `m.stream_id IN (${c.ids.map(() => "?").join(",")})` : "0";
    case "topic":
      args.push(c.topic);
      return "(m.topic = ? COLLATE NOCASE AND m.stream_id IS NOT NULL)";
    case "sender":
      args.push(c.id);
      return "m.sender_id = ?";
    case "dm":
      args.push(c.key);
      return "m.dm_key = ?";
    case "dm_including":
      args.push(...c.ids.map((id) => `%,${id},%`));
      return `(m.dm_key IS NOT NULL AND ${c.ids.map(() => "(',' || m.dm_key || ',') LIKE ?").join(" AND ")})`;
    case "is_dm":
      return "m.dm_key IS NOT NULL";
    case "flag":
      args.push(c.mask);
      return "(coalesce(um.flags, 0) & ?) != 0";
    case "unread":
      // through the user's unread set (the tail and the list below the floor), never a scan of all their rows
      return `um.message_id IN (${unreadIdsSql(userId, args)})`;
    case "resolved":
      return "(m.stream_id IS NOT NULL AND m.topic LIKE '✔ %')";
    case "muted":
      args.push(userId, userId, userId);
      return `(m.stream_id IS NOT NULL AND (
        (m.stream_id IN (SELECT stream_id FROM subscriptions WHERE user_id = ? AND is_muted = 1)
          AND NOT EXISTS (SELECT 1 FROM user_topics ut WHERE ut.user_id = ? AND ut.stream_id = m.stream_id AND ut.topic = m.topic AND ut.visibility_policy IN (2, 3)))
        OR EXISTS (SELECT 1 FROM user_topics ut WHERE ut.user_id = ? AND ut.stream_id = m.stream_id AND ut.topic = m.topic AND ut.visibility_policy = 1)))`;
    case "followed":
      args.push(userId);
      return "(m.stream_id IS NOT NULL AND EXISTS (SELECT 1 FROM user_topics ut WHERE ut.user_id = ? AND ut.stream_id = m.stream_id AND ut.topic = m.topic AND ut.visibility_policy = 3))";
    case "has":
      if (c.what === "reaction") return "EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = m.id)";
      return `m.has_${c.what} = 1`;
    case "id":
      args.push(c.id);
      return "m.id = ?";
    case "search": {
      args.push(c.fts);
      const indexed = "m.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)";
      if (!c.pending) return indexed;
      args.push(c.pending.above, ...c.pending.patterns);
      const scan = c.pending.patterns.map(() => "lower(' ' || m.topic || ' ' || m.content || ' ') GLOB ?").join(" AND ");
      return `(${indexed} OR (m.id > ? AND ${scan}))`;
    }
    case "never":
      return "0";
  }
}

/**
 * WHERE clause and base FROM for a resolved narrow. A full-text search drives the query from the
 * FTS index in id order (FTS5 walks rowids backwards and forwards cheaply), so a common word stops
 * after the first page instead of collecting every match.
 */
function build(n: ResolvedNarrow, args: InValue[]): { from: string; where: string[]; idCol: string } {
  const where: string[] = [];
  // a search with unindexed messages pending cannot be driven by the index alone: it is a condition
  const search = n.terms.find((t): t is Extract<Term, { k: "search" }> => t.k === "search" && !t.neg && !t.pending);
  let from: string;
  let idCol: string;
  // CROSS JOIN keeps the FTS index as the outer loop (SQLite never reorders it).
  const fts = search ? "messages_fts f CROSS JOIN messages m ON m.id = f.rowid" : "";
  if (n.historyStreams === null) {
    from = search ? `${fts} CROSS JOIN user_messages um ON um.user_id = ? AND um.message_id = f.rowid` : "user_messages um JOIN messages m ON m.id = um.message_id";
    if (!search) where.push("um.user_id = ?");
    args.push(n.userId);
    idCol = search ? "f.rowid" : "um.message_id";
  } else {
    from = `${search ? fts : "messages m"} LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?`;
    args.push(n.userId);
    idCol = search ? "f.rowid" : "m.id";
  }
  if (search) {
    where.push("messages_fts MATCH ?");
    args.push(search.fts);
  }
  if (n.historyStreams !== null) where.push(condSql({ k: "streams", ids: n.historyStreams }, n.userId, args));
  for (const t of n.terms) {
    if (t === search) continue;
    const sql = condSql(t, n.userId, args);
    where.push(t.neg ? `NOT coalesce(${sql}, 0)` : sql);
  }
  return { from, where, idCol };
}

export interface FoundRow {
  id: number;
  flags: number;
}

/** Up to `limit` matching message ids (with the user's flags) on one side of `anchorId`. */
export async function findRange(sql: Sql, n: ResolvedNarrow, side: "before" | "after", anchorId: number, inclusive: boolean, limit: number): Promise<FoundRow[]> {
  if (limit <= 0) return [];
  const args: InValue[] = [];
  const { from, where, idCol } = build(n, args);
  const op = side === "before" ? (inclusive ? "<=" : "<") : inclusive ? ">=" : ">";
  where.push(`${idCol} ${op} ?`);
  args.push(anchorId, limit);
  const rows = await sql.all<{ id: number; flags: number | null }>(
    `SELECT m.id AS id, um.flags AS flags FROM ${from} WHERE ${where.join(" AND ")} ORDER BY ${idCol} ${side === "before" ? "DESC" : "ASC"} LIMIT ?`,
    args,
  );
  const out = rows.map((r) => ({ id: r.id, flags: r.flags ?? HISTORICAL_FLAGS }));
  return side === "before" ? out.reverse() : out;
}

/** Which of `ids` match the narrow (with flags). */
export async function filterIds(sql: Sql, n: ResolvedNarrow, ids: number[]): Promise<FoundRow[]> {
  if (!ids.length) return [];
  const args: InValue[] = [];
  const { from, where, idCol } = build(n, args);
  where.push(`${idCol} IN (${ids.map(() => "?").join(",")})`);
  args.push(...ids);
  const rows = await sql.all<{ id: number; flags: number | null }>(`SELECT m.id AS id, um.flags AS flags FROM ${from} WHERE ${where.join(" AND ")} ORDER BY m.id`, args);
  return rows.map((r) => ({ id: r.id, flags: r.flags ?? HISTORICAL_FLAGS }));
}

/** The oldest unread message of the user matching the narrow, if any: in the ranges below the floor first, then the tail. */
export async function firstUnread(sql: Sql, n: ResolvedNarrow): Promise<number | null> {
  const conds = (args: InValue[]) => {
    const where: string[] = [];
    if (n.historyStreams !== null) where.push(condSql({ k: "streams", ids: n.historyStreams }, n.userId, args));
    for (const t of n.terms) {
      const s = condSql(t, n.userId, args);
      where.push(t.neg ? `NOT coalesce(${s}, 0)` : s);
    }
    return where.map((w) => ` AND ${w}`).join("");
  };
  const belowArgs: InValue[] = [n.userId];
  const below = await sql.get<{ id: number }>(
    `SELECT um.message_id AS id FROM ${IN_RANGES} JOIN messages m ON m.id = um.message_id
     WHERE ${IN_RANGES_WHERE}${conds(belowArgs)} ORDER BY r.first_id, um.message_id LIMIT 1`,
    belowArgs,
  );
  if (below) return below.id;
  const tailArgs: InValue[] = [n.userId, await findUnreadFloor(sql, n.userId)];
  const tail = await sql.get<{ id: number }>(
    `SELECT um.message_id AS id FROM user_messages um JOIN messages m ON m.id = um.message_id
     WHERE um.user_id = ? AND um.message_id >= ? AND (um.flags & 1) = 0${conds(tailArgs)} ORDER BY um.message_id LIMIT 1`,
    tailArgs,
  );
  return tail?.id ?? null;
}
