import { nowSecs, realmOf, type App } from "../app";
import {
  applyPresenceReport,
  legacyClientPresence,
  legacyPresence,
  modernPresence,
  OFFLINE_THRESHOLD_SECS,
  type PresenceStatus,
  type PresenceTimes,
} from "../domain/presence";
import { badRequest } from "../errors";
import { findActiveUserByIdOrEmail, findPresence, findVisiblePresence, listPresence, writePresence, type PresenceEntry } from "../store/presence";
import type { UserRow } from "../store/users";
import { accessibleUserIds, canAccessUser, usersWhoCanAccess } from "./user-access";

/**
 * Presence. The update path is the hot one (every client pings every minute), so each process keeps
 * the last stored times per user in memory: a report that would not change them (same status within
 * the same minute) costs no query at all, and a change is one short transaction.
 */
const caches = new WeakMap<App, Map<number, PresenceTimes>>();
function cacheOf(app: App): Map<number, PresenceTimes> {
  let c = caches.get(app);
  if (!c) caches.set(app, (c = new Map()));
  return c;
}

/** Drops a user's cached presence (after anything else rewrites their row). */
export function forgetPresence(app: App, userId: number): void {
  cacheOf(app).delete(userId);
}

/** Invisible mode: the user setting presence_enabled (default true). */
export function presenceEnabled(user: Pick<UserRow, "settings">): boolean {
  try {
    return JSON.parse(user.settings || "{}").presence_enabled !== false;
  } catch {
    return true;
  }
}

const noBots = (user: UserRow) => {
  if (user.is_bot) throw badRequest("This endpoint does not accept bot requests.");
};

/**
 * Records a presence report: no write unless a timestamp moves (at most once a minute each), and a
 * `presence` event to everyone who may see the user when they first report or come back online.
 * Invisible users' reports are not recorded.
 */
export async function reportPresence(app: App, me: UserRow, status: PresenceStatus): Promise<void> {
  if (!presenceEnabled(me)) return;
  const cache = cacheOf(app);
  let current = cache.get(me.id);
  if (current === undefined) {
    const row = await findPresence(app.db, me.id);
    current = row ? { lastActive: row.last_active_time, lastConnected: row.last_connected_time } : undefined;
  }
  const now = Math.floor(nowSecs(app));
  const { next, notify } = applyPresenceReport(current ?? null, status, now);
  if (!next) {
    cache.set(me.id, current!);
    return;
  }
  const realm = realmOf(app);
  await app.db.tx((sql) => writePresence(sql, { user_id: me.id, realm_id: realm.id, last_active_time: next.lastActive, last_connected_time: next.lastConnected }));
  cache.set(me.id, next);
  if (notify && !realm.settings.presence_disabled) await publishPresence(app, me, next);
}

/**
 * Invisible mode switched (PATCH /settings presence_enabled), as Zulip's do_change_user_setting does:
 * the cached times are dropped and a presence event goes out at once, so others see the change.
 * Turning it on records the user active now. Turning it off records (and announces) both times a
 * little more than the offline threshold ago, capped at what was stored, so to everyone else the
 * user looks as if they went offline a few minutes before turning invisible; their presence is then
 * withheld from every query until they turn it back on.
 */
export async function presenceEnabledChanged(app: App, user: UserRow, enabled: boolean): Promise<void> {
  forgetPresence(app, user.id);
  const realm = realmOf(app);
  const now = Math.floor(nowSecs(app));
  let times: PresenceTimes;
  if (enabled) times = { lastActive: now, lastConnected: now };
  else {
    const gone = now - OFFLINE_THRESHOLD_SECS - 120;
    const row = await findPresence(app.db, user.id);
    const cap = (t: number | null | undefined) => Math.min(t ?? gone, gone);
    times = { lastActive: cap(row?.last_active_time), lastConnected: cap(row?.last_connected_time) };
  }
  await app.db.tx((sql) => writePresence(sql, { user_id: user.id, realm_id: realm.id, last_active_time: times.lastActive, last_connected_time: times.lastConnected }));
  if (enabled) cacheOf(app).set(user.id, times);
  if (!realm.settings.presence_disabled) await publishPresence(app, user, times);
}

/** The legacy-format `presence` event (what Zulip sends), to the users who may see `user`. */
async function publishPresence(app: App, user: UserRow, t: PresenceTimes) {
  const source = { last_active_time: t.lastActive, last_connected_time: t.lastConnected, date_joined: user.date_joined };
  const website = legacyClientPresence(source);
  // `presences` is the simplified form (clients with simplified_presence_events); events/format.ts picks one
  const event = { type: "presence", user_id: user.id, email: user.email, server_timestamp: nowSecs(app), presence: { website }, presences: { [user.id]: modernPresence(source) } };
  app.events.publish(event, await usersWhoCanAccess(app, user.id));
}

export interface PresenceQuery {
  /** modern format (keyed by user id) */
  slim: boolean;
  /** the client's last presence_last_update_id (-1 or absent: everything) */
  lastUpdateId?: number;
  /** default 14; ignored when lastUpdateId > 0 */
  historyLimitDays?: number;
}

/**
 * The presence of the organization as the caller may see it: invisible users withheld, and for a
 * guest who may not see everyone, only the users they can access.
 */
export async function realmPresence(app: App, me: UserRow, q: PresenceQuery) {
  const realm = realmOf(app);
  const serverTimestamp = nowSecs(app);
  if (realm.settings.presence_disabled) return { presences: {}, server_timestamp: serverTimestamp, presence_last_update_id: -1 };
  const days = q.historyLimitDays ?? 14;
  let rows: PresenceEntry[] = [];
  if (days !== 0 || (q.lastUpdateId !== undefined && q.lastUpdateId > 0)) {
    const incremental = q.lastUpdateId !== undefined && q.lastUpdateId > 0;
    rows = await listPresence(app.db, realm.id, {
      afterUpdateId: q.lastUpdateId,
      connectedSince: incremental ? undefined : serverTimestamp - days * 86_400,
    });
  }
  const visible = await accessibleUserIds(app, me);
  if (visible) rows = rows.filter((r) => visible.has(r.user_id));
  const presences: Record<string, unknown> = {};
  for (const r of rows) {
    if (q.slim) presences[String(r.user_id)] = modernPresence(r);
    else presences[r.email] = legacyPresence(r);
  }
  const lastUpdateId = rows.length ? rows.reduce((m, r) => Math.max(m, r.last_update_id), -1) : (q.lastUpdateId ?? -1);
  return { presences, server_timestamp: serverTimestamp, presence_last_update_id: lastUpdateId };
}

export interface UpdatePresenceInput extends PresenceQuery {
  status: string;
  pingOnly: boolean;
  newUserInput: boolean;
}

/** POST /users/me/presence: record the report, then (unless ping_only) answer with others' presence. */
export async function updatePresence(app: App, me: UserRow, input: UpdatePresenceInput) {
  noBots(me);
  if (input.status !== "active" && input.status !== "idle") throw badRequest(`Invalid status: ${input.status}`);
  await reportPresence(app, me, input.status);
  // ping_only: no presence data; the cursor stays where the client had it
  if (input.pingOnly) return { presence_last_update_id: input.lastUpdateId ?? -1 };
  return realmPresence(app, me, { ...input, slim: input.slim || input.lastUpdateId !== undefined });
}

/** GET /realm/presence: everyone's presence in the legacy format, the last two weeks. */
export async function getRealmPresence(app: App, me: UserRow) {
  const { presences, server_timestamp } = await realmPresence(app, me, { slim: false });
  return { presences, server_timestamp };
}

/** GET /users/{user_id_or_email}/presence. */
export async function getUserPresence(app: App, me: UserRow, userIdOrEmail: string, slim: boolean) {
  const ref = /^\d+$/.test(userIdOrEmail) ? { id: Number(userIdOrEmail) } : { email: userIdOrEmail };
  const target = await findActiveUserByIdOrEmail(app.db, realmOf(app).id, ref);
  if (!target) throw badRequest("No such user");
  if (target.is_bot || target.bot_type !== null) throw badRequest("Presence is not supported for bot users.");
  if (!(await canAccessUser(app, me, target.id))) throw badRequest("Insufficient permission");
  const row = realmOf(app).settings.presence_disabled ? undefined : await findVisiblePresence(app.db, target.id);
  if (!row) throw badRequest(`No presence data for ${userIdOrEmail}`);
  if (slim) return { presence: modernPresence(row) };
  const { aggregated, website } = legacyPresence(row);
  const stale = Math.floor(nowSecs(app)) - aggregated.timestamp > OFFLINE_THRESHOLD_SECS;
  return {
    presence: {
      aggregated: { status: stale ? "offline" : aggregated.status, timestamp: aggregated.timestamp },
      website: { status: website.status, timestamp: website.timestamp },
    },
  };
}

/**
 * For the scheduler: users not heard from for longer than the offline threshold are offline
 * (clients derive that from the timestamps, so nothing is written or sent); their cached entries
 * are dropped so the in-memory map only holds users who are online. Returns how many went.
 */
export function markIdlePresenceOffline(app: App): number {
  const cutoff = nowSecs(app) - OFFLINE_THRESHOLD_SECS;
  const cache = cacheOf(app);
  let n = 0;
  for (const [userId, t] of cache) {
    if ((t.lastConnected ?? 0) < cutoff) {
      cache.delete(userId);
      n++;
    }
  }
  return n;
}
