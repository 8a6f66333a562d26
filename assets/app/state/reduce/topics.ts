/** The fetched topic lists of channels, kept current by the messages that arrive or move there. */
import type { State } from "../types";

/** `topic` has a message `id` now: it moves to the top of its channel's list (when that list was fetched). */
export function noteTopic(state: State, streamId: number, topic: string, id: number): State {
  const list = state.topics[streamId];
  if (!list) return state;
  const lower = topic.toLowerCase();
  const existing = list.find((t) => t.name.toLowerCase() === lower);
  if (existing && existing.max_id >= id) return state;
  const entry = { name: existing?.name ?? topic, max_id: Math.max(id, existing?.max_id ?? 0) };
  const rest = list.filter((t) => t !== existing);
  const at = rest.findIndex((t) => t.max_id < entry.max_id);
  const topics = at < 0 ? [...rest, entry] : [...rest.slice(0, at), entry, ...rest.slice(at)];
  return { ...state, topics: { ...state.topics, [streamId]: topics } };
}

/** `topic` has no messages left in its channel (all of them moved away): it leaves the channel's list. */
export function forgetTopic(state: State, streamId: number, topic: string | undefined): State {
  const list = state.topics[streamId];
  if (!list || topic === undefined) return state;
  const lower = topic.toLowerCase();
  const rest = list.filter((t) => t.name.toLowerCase() !== lower);
  return rest.length === list.length ? state : { ...state, topics: { ...state.topics, [streamId]: rest } };
}

/**
 * Messages of `topic` went (deleted, or moved elsewhere): when its newest one is among them, the topic
 * may now be empty or have an older newest message, which only the server knows, so the channel's list
 * is marked out of date and fetched again (as Zulip's web app asks for a topic's latest message).
 */
export function topicMessagesGone(state: State, streamId: number, topic: string | undefined, ids: readonly number[]): State {
  const list = state.topics[streamId];
  if (!list || topic === undefined) return state;
  const lower = topic.toLowerCase();
  const entry = list.find((t) => t.name.toLowerCase() === lower);
  if (!entry || !ids.includes(entry.max_id)) return state;
  return { ...state, topics_outdated: { ...state.topics_outdated, [streamId]: (state.topics_outdated[streamId] ?? 0) + 1 } };
}
