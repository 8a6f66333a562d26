/** A channel's topics for the autocompletes: from the state, fetched once when not known yet. */
import { fetchTopics } from "../api/calls";
import { topicsFetched } from "../state/fetched";
import { topics, update } from "../state/store";

const asked = new Set<number>();

/** The channel's topic names, newest first (empty until fetched; reading the signal redraws when they come). */
export function topicNames(streamId: number): string[] {
  const known = topics.value[streamId];
  if (!known && !asked.has(streamId)) {
    asked.add(streamId);
    fetchTopics(streamId).then(
      (list) => update((s) => topicsFetched(s, streamId, list)),
      () => asked.delete(streamId),
    );
  }
  return (known ?? []).map((t) => t.name);
}
