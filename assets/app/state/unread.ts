/**
 * Unread counts as Zulip shows them: a channel counts the unread messages of its topics that are not
 * muted; a muted channel counts only its unmuted and followed topics; the total (page title, favicon)
 * counts direct messages and unmuted channel messages.
 */
import { isTopicMuted, placeKey } from "./user-topics";
import type { State } from "./types";

export interface UnreadCounts {
  total: number;
  dms: number;
  mentions: number;
  /** unread messages in channels, muted topics left out */
  channels: number;
  byChannel: Record<number, number>;
  /** by placeKey(stream_id, topic), muted topics included */
  byTopic: Record<string, number>;
  byDm: Record<string, number>;
}

export function unreadCounts(state: Pick<State, "unread" | "subscriptions" | "user_topics">): UnreadCounts {
  const c: UnreadCounts = { total: 0, dms: 0, mentions: state.unread.mentions.length, channels: 0, byChannel: {}, byTopic: {}, byDm: {} };
  const muted = new Map<string, boolean>();
  for (const place of Object.values(state.unread.messages)) {
    if (place.kind === "dm") {
      c.dms++;
      c.byDm[place.key] = (c.byDm[place.key] ?? 0) + 1;
      continue;
    }
    const key = placeKey(place.stream_id, place.topic);
    c.byTopic[key] = (c.byTopic[key] ?? 0) + 1;
    let isMuted = muted.get(key);
    if (isMuted === undefined) muted.set(key, (isMuted = isTopicMuted(state, place.stream_id, place.topic)));
    if (isMuted || !state.subscriptions[place.stream_id]) continue;
    c.channels++;
    c.byChannel[place.stream_id] = (c.byChannel[place.stream_id] ?? 0) + 1;
  }
  c.total = c.dms + c.channels;
  return c;
}

/** The unread ids of one conversation view, oldest first. */
export function unreadIdsWhere(state: State, test: (place: State["unread"]["messages"][number]) => boolean): number[] {
  return Object.entries(state.unread.messages)
    .filter(([, p]) => test(p))
    .map(([id]) => Number(id))
    .sort((a, b) => a - b);
}
