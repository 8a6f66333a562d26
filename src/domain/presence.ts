/**
 * Presence rules (Zulip's zerver/actions/presence.py and zerver/lib/presence.py), pure: when a
 * report changes the stored timestamps, when it means "came online", and the two API formats.
 * Times are UNIX seconds.
 */

/** Clients ping every minute (server_presence_ping_interval_seconds). */
export const PRESENCE_PING_INTERVAL_SECS = 60;
/** A user not heard from for this long is offline (server_presence_offline_threshold_seconds). */
export const OFFLINE_THRESHOLD_SECS = 140;
/** A timestamp is rewritten at most once per this many seconds (PRESENCE_UPDATE_MIN_FREQ_SECONDS). */
export const PRESENCE_UPDATE_MIN_FREQ_SECS = 55;
/** Legacy format: "active" when the last activity is at most this much older than the last connection. */
export const LEGACY_ACTIVITY_OFFSET_SECS = 70;

export type PresenceStatus = "active" | "idle";

export interface PresenceTimes {
  lastActive: number | null;
  lastConnected: number | null;
}

export interface PresenceUpdate {
  /** the new timestamps, or null when nothing needs writing */
  next: PresenceTimes | null;
  /** the user had no presence yet, or came back after missing a couple of pings: tell others now */
  notify: boolean;
}

/** What a report of `status` at `now` does to the stored times (`current` null: none stored yet). */
export function applyPresenceReport(current: PresenceTimes | null, status: PresenceStatus, now: number): PresenceUpdate {
  if (current === null) return { next: { lastActive: status === "active" ? now : null, lastConnected: now }, notify: true };
  const sinceActive = current.lastActive === null ? 86_400 : now - current.lastActive;
  const sinceConnected = current.lastConnected === null ? 86_400 : now - current.lastConnected;
  const nowOnline = sinceActive > OFFLINE_THRESHOLD_SECS - PRESENCE_PING_INTERVAL_SECS - 10;
  const next = { ...current };
  let changed = false;
  if (sinceConnected > PRESENCE_UPDATE_MIN_FREQ_SECS) {
    next.lastConnected = now;
    changed = true;
  }
  if (status === "active" && sinceActive > PRESENCE_UPDATE_MIN_FREQ_SECS) {
    next.lastActive = now;
    if (next.lastConnected === null || now > next.lastConnected) next.lastConnected = now;
    changed = true;
  }
  return { next: changed ? next : null, notify: status === "active" && nowOnline };
}

export interface PresenceSource {
  last_active_time: number | null;
  last_connected_time: number | null;
  date_joined: number;
}

/** Missing timestamps read as the user's join date (the API always sends numbers). */
function times(p: PresenceSource) {
  return {
    active: Math.floor(p.last_active_time ?? p.date_joined),
    connected: Math.floor(p.last_connected_time ?? p.date_joined),
  };
}

/** Modern format, keyed by user id: `{active_timestamp, idle_timestamp}`. */
export function modernPresence(p: PresenceSource) {
  const t = times(p);
  return { active_timestamp: t.active, idle_timestamp: t.connected };
}

/** The legacy per-client entry: "active" at the last activity, else "idle" at the last connection. */
export function legacyClientPresence(p: PresenceSource) {
  const t = times(p);
  const active = t.active + LEGACY_ACTIVITY_OFFSET_SECS >= t.connected;
  return { client: "website", status: (active ? "active" : "idle") as PresenceStatus, timestamp: active ? t.active : t.connected, pushable: false };
}

/** Legacy format, keyed by email: `{aggregated, website}`. */
export function legacyPresence(p: PresenceSource) {
  const website = legacyClientPresence(p);
  return { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
}
