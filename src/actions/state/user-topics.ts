import type { App } from "../../app";
import type { UserRow } from "../../store/users";
import { userTopicsOf } from "../user-topics";
import { loadDirectory } from "../messages/directory";
import { VISIBILITY } from "../../domain/user-topics";

/** `user_topic` initial state. */
export async function userTopicState(app: App, me: UserRow) {
  return { user_topics: await userTopicsOf(app, me) };
}

/** `muted_topics` initial state (legacy): [channel name, topic, timestamp]. */
export async function mutedTopicsState(app: App, me: UserRow) {
  const d = await loadDirectory(app);
  return {
    muted_topics: (await userTopicsOf(app, me))
      .filter((t) => t.visibility_policy === VISIBILITY.muted && d.streams.has(t.stream_id))
      .map((t) => [d.streams.get(t.stream_id)!.name, t.topic_name, t.last_updated]),
  };
}
