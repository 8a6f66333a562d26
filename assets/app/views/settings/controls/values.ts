/** The settings controls' values, pure: Zulip's time-limit choices, custom minutes, group settings. */
import type { GroupSetting } from "../../../state/types";

export const TIME_LIMITS: readonly { seconds: number | null; label: string }[] = [
  { seconds: null, label: "Any time" },
  { seconds: 120, label: "2 minutes" },
  { seconds: 600, label: "10 minutes" },
  { seconds: 3600, label: "1 hour" },
  { seconds: 86400, label: "1 day" },
  { seconds: 604800, label: "1 week" },
];

export type Limits = readonly { seconds: number | null; label: string }[];

/** The choice a value shows: one of the list, or "custom". */
export const limitChoice = (seconds: number | null, limits: Limits = TIME_LIMITS) => (limits.some((l) => l.seconds === seconds) ? String(seconds) : "custom");

/** Minutes typed into the custom field as seconds, or a problem to show. */
export function customSeconds(minutes: string): number | string {
  const n = Number(minutes.trim());
  if (!minutes.trim() || !Number.isInteger(n) || n <= 0) return "Enter a whole number of minutes, more than 0.";
  return n * 60;
}

/** The role groups in Zulip's order, with its words for them. */
export const ROLE_GROUPS: readonly { name: string; label: string }[] = [
  { name: "role:everyone", label: "Admins, moderators, members and guests" },
  { name: "role:members", label: "Admins, moderators and members" },
  { name: "role:fullmembers", label: "Admins, moderators and full members" },
  { name: "role:moderators", label: "Admins and moderators" },
  { name: "role:administrators", label: "Admins" },
  { name: "role:owners", label: "Owners" },
  { name: "role:nobody", label: "Nobody" },
];

/** A set of people and groups in its saved form. */
export function toSetting(members: number[], subgroups: number[]): GroupSetting {
  if (!members.length && subgroups.length === 1) return subgroups[0]!;
  return { direct_members: [...members].sort((a, b) => a - b), direct_subgroups: [...subgroups].sort((a, b) => a - b) };
}

/** The ids of a list in its new order after the item at `index` moves `by` places (-1 up, 1 down). */
export function movedIds(list: readonly { id: number }[], index: number, by: number): number[] {
  const ids = list.map((x) => x.id);
  [ids[index], ids[index + by]] = [ids[index + by]!, ids[index]!];
  return ids;
}

/** The ids of a list in its new order after the item at `from` is dropped at position `to`. */
export function droppedIds(list: readonly { id: number }[], from: number, to: number): number[] {
  const ids = list.map((x) => x.id);
  const [moved] = ids.splice(from, 1);
  ids.splice(to, 0, moved!);
  return ids;
}
