/**
 * Where the keyboard goes (pure, over the state): the next or previous message of a view (`j`/`k`),
 * the next topic with unread messages (`n`), the next conversation with unread messages (`p`).
 * Topics follow the left sidebar's order (pinned channels first, then by name; within a channel the
 * most recently active first), leaving out muted channels and topics, as Zulip's `n` does.
 */
import { isTopicMuted, placeKey } from "../state/user-topics";
import type { State } from "../state/types";

/** The id `delta` places from `current` in `ids` (kept within the list); the last one when nothing is selected. */
export function step(ids: readonly number[], current: number | null, delta: number): number | null {
  if (!ids.length) return null;
  const at = current === null ? -1 : ids.indexOf(current);
  if (at < 0) return ids[ids.length - 1]!;
  return ids[Math.max(0, Math.min(ids.length - 1, at + delta))]!;
}

export interface TopicPlace {
  stream_id: number;
  topic: string;
}

/** The channels in the sidebar's order: pinned first, each group by name. */
function channelOrder(state: Pick<State, "subscriptions">): number[] {
  const subs = Object.values(state.subscriptions);
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  return [...subs.filter((s) => s.pin_to_top).sort(byName), ...subs.filter((s) => !s.pin_to_top).sort(byName)].map((s) => s.stream_id);
}

/** Topics with unread messages the person sees counted, in the order `n` visits them. */
export function unreadTopics(state: Pick<State, "unread" | "subscriptions" | "user_topics">): TopicPlace[] {
  const newest = new Map<string, { place: TopicPlace; id: number }>();
  for (const [id, place] of Object.entries(state.unread.messages)) {
    if (place.kind !== "channel" || !state.subscriptions[place.stream_id] || isTopicMuted(state, place.stream_id, place.topic)) continue;
    const key = placeKey(place.stream_id, place.topic);
    const cur = newest.get(key);
    if (!cur || cur.id < Number(id)) newest.set(key, { place: cur?.place ?? { stream_id: place.stream_id, topic: place.topic }, id: Number(id) });
  }
  const out: TopicPlace[] = [];
  for (const streamId of channelOrder(state)) {
    const here = [...newest.values()].filter((t) => t.place.stream_id === streamId).sort((a, b) => b.id - a.id);
    out.push(...here.map((t) => t.place));
  }
  return out;
}

/**
 * The next topic with unread messages after `current` (wrapping round); from a read topic or another
 * view, the first one in the current channel, else in the channels after it, else the first of all.
 */
export function nextUnreadTopic(state: Pick<State, "unread" | "subscriptions" | "user_topics">, current: TopicPlace | { stream_id: number } | null): TopicPlace | null {
  const topics = unreadTopics(state);
  if (!topics.length) return null;
  if (current && "topic" in current) {
    const key = placeKey(current.stream_id, current.topic);
    const at = topics.findIndex((t) => placeKey(t.stream_id, t.topic) === key);
    if (at >= 0) return topics.length > 1 ? topics[(at + 1) % topics.length]! : null;
  }
  if (current) {
    const order = channelOrder(state);
    const from = order.indexOf(current.stream_id);
    const later = topics.find((t) => order.indexOf(t.stream_id) >= from);
    if (from >= 0 && later) return later;
  }
  return topics[0]!;
}

/** The next direct-message conversation with unread messages (newest conversations first), after `currentKey`. */
export function nextUnreadDm(state: Pick<State, "unread" | "recent_dms" | "me">, currentKey: string | null): string | null {
  const unreadKeys = new Map<string, number>();
  for (const [id, place] of Object.entries(state.unread.messages)) {
    if (place.kind === "dm") unreadKeys.set(place.key, Math.max(unreadKeys.get(place.key) ?? 0, Number(id)));
  }
  if (!unreadKeys.size) return null;
  const recency = (key: string) => Math.max(state.recent_dms[key] ?? 0, unreadKeys.get(key) ?? 0);
  const keys = [...unreadKeys.keys()].sort((a, b) => recency(b) - recency(a));
  const at = currentKey === null ? -1 : keys.indexOf(currentKey);
  if (at < 0) return keys[0]!;
  return keys.length > 1 ? keys[(at + 1) % keys.length]! : null;
}
