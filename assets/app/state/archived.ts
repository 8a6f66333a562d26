/**
 * Where archived channels show, as in Zulip: they leave the sidebar (unless one is open) and every
 * "Browse channels" tab but their own, Archived.
 */
import type { Channel } from "./types";

export const inSidebar = (c: Pick<Channel, "stream_id" | "is_archived">, openId: number | null) => !c.is_archived || c.stream_id === openId;

/** Whether a channel belongs under a Browse channels tab. */
export function inBrowseTab(tab: "all" | "subscribed" | "notsubscribed" | "archived", c: Pick<Channel, "is_archived">, subscribed: boolean): boolean {
  if (tab === "archived" || c.is_archived) return tab === "archived" && c.is_archived;
  return tab === "all" || (tab === "subscribed") === subscribed;
}
