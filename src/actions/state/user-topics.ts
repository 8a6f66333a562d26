import type { App } from "../../app";
import type { UserRow } from "../../store/users";
import { displayTopic } from "../../domain/topic";
import { emptyTopicName } from "../messages/render";
import { mutedTopicsOf, userTopicsOf } from "../user-topics";
import type { StateOptions } from "./options";

/** `user_topic` initial state; the empty topic by its display name for clients without empty_topic_name. */
export async function userTopicState(app: App, me: UserRow, opts: StateOptions) {
  const show = topicShown(app, opts);
  return { user_topics: (await userTopicsOf(app, me)).map((r) => ({ ...r, topic_name: show(r.topic_name) })) };
}

/** `muted_topics` initial state (legacy): [channel name, topic, timestamp]. */
export async function mutedTopicsState(app: App, me: UserRow, opts: StateOptions) {
  const show = topicShown(app, opts);
  return { muted_topics: (await mutedTopicsOf(app, me.id)).map(([c, t, ts]) => [c, show(t), ts]) };
}

function topicShown(app: App, opts: StateOptions) {
  const name = emptyTopicName(app);
  const allowEmpty = opts.clientCapabilities.empty_topic_name === true;
  return (t: string) => displayTopic(t, name, allowEmpty);
}
