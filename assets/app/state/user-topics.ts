/** Topic visibility (Zulip's user_topics) and the muting rules that follow from it. */
import type { State } from "./types";

export const POLICY = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;

/** Topics compare without regard to case, as in Zulip. */
export const placeKey = (streamId: number, topic: string) => `${streamId}:${topic.toLowerCase()}`;

export const topicPolicy = (state: Pick<State, "user_topics">, streamId: number, topic: string): number => state.user_topics[placeKey(streamId, topic)]?.policy ?? POLICY.inherit;

/**
 * Whether a topic is muted for the person: muted by itself, or in a muted channel and not unmuted or
 * followed there. (A channel the person is not subscribed to counts as not muted.)
 */
export function isTopicMuted(state: Pick<State, "user_topics" | "subscriptions">, streamId: number, topic: string): boolean {
  const policy = topicPolicy(state, streamId, topic);
  if (policy === POLICY.muted) return true;
  if (policy === POLICY.unmuted || policy === POLICY.followed) return false;
  return !!state.subscriptions[streamId]?.is_muted;
}
