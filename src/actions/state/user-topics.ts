import type { App } from "../../app";
import type { UserRow } from "../../store/users";
import { mutedTopicsOf, userTopicsOf } from "../user-topics";

/** `user_topic` initial state. */
export async function userTopicState(app: App, me: UserRow) {
  return { user_topics: await userTopicsOf(app, me) };
}

/** `muted_topics` initial state (legacy): [channel name, topic, timestamp]. */
export async function mutedTopicsState(app: App, me: UserRow) {
  return { muted_topics: await mutedTopicsOf(app, me.id) };
}
