/** Direct-message conversations and names of people, as the state knows them. */
import type { DisplayRecipient, Message, State, User } from "./types";

/**
 * A direct-message conversation's key: the other people's ids, sorted, joined by commas; a
 * conversation with oneself is one's own id. (Zulip's web app names them the same way.)
 */
export function dmKey(me: number, userIds: readonly number[]): string {
  const others = [...new Set(userIds)].filter((id) => id !== me).sort((a, b) => a - b);
  return others.length ? others.join(",") : String(me);
}

export const keyIds = (key: string): number[] => key.split(",").map(Number);

export const messageDmKey = (me: number, m: Pick<Message, "display_recipient">): string =>
  dmKey(me, (m.display_recipient as DisplayRecipient[]).map((r) => r.id));

export const UNKNOWN_USER = "Unknown user";

type Users = State["users"];

export function userName(users: Users, id: number): string {
  return users[id]?.full_name ?? UNKNOWN_USER;
}

/** "Cordelia, Lear's daughter, King Hamlet" for a conversation key, names sorted. */
export function dmTitle(users: Users, key: string): string {
  return keyIds(key)
    .map((id) => userName(users, id))
    .sort((a, b) => a.localeCompare(b))
    .join(", ");
}

/** Active humans and bots first by name; deactivated people are left out. */
export function activePeople(users: Users): User[] {
  return Object.values(users)
    .filter((u) => u.is_active)
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
}

/** Whether a user group (or one of its subgroups, to any depth) holds the user. */
export function groupHasMember(groups: State["groups"], groupId: number, userId: number, seen = new Set<number>()): boolean {
  const g = groups[groupId];
  if (!g || seen.has(groupId)) return false;
  seen.add(groupId);
  return g.members.includes(userId) || g.direct_subgroup_ids.some((sub) => groupHasMember(groups, sub, userId, seen));
}
