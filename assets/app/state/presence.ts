/** Whether someone is active, idle or offline now, from their presence timestamps (Zulip's rule). */
import type { Presence } from "./types";

export type PresenceStatus = "active" | "idle" | "offline";

export function presenceStatus(p: Presence | undefined, nowSeconds: number, offlineThresholdSeconds: number): PresenceStatus {
  if (!p) return "offline";
  if (nowSeconds - p.active_timestamp < offlineThresholdSeconds) return "active";
  if (nowSeconds - p.idle_timestamp < offlineThresholdSeconds) return "idle";
  return "offline";
}
