import { nowSecs, type App } from "../app";
import { normalizeTopic } from "../domain/topic";
import { VISIBILITY } from "../domain/user-topics";
import { badRequest } from "../errors";
import { findUserTopic, listUserTopics, setUserTopic } from "../store/user-topics";
import type { UserRow } from "../store/users";
import { accessChannelById } from "./channel-access";
import { loadDirectory } from "./messages/directory";
import { emptyTopicName } from "./messages/render";

/**
 * POST /user_topics: a user's visibility policy for a topic (0 inherit, 1 muted, 2 unmuted,
 * 3 followed). Removing a policy needs only to know of the channel; setting one needs access.
 */
export async function setTopicVisibility(app: App, me: UserRow, streamId: number, rawTopic: string, policy: number): Promise<void> {
  if (![0, 1, 2, 3].includes(policy)) throw badRequest("Invalid visibility_policy");
  await accessChannelById(app, me, streamId, { requireContentAccess: policy !== VISIBILITY.inherit, allowArchived: true });
  const n = normalizeTopic(rawTopic, app.config.limits.max_topic_length, emptyTopicName(app));
  if ("error" in n) throw badRequest(n.error);
  const current = await findUserTopic(app.db, me.id, streamId, n.topic);
  if ((current?.visibility_policy ?? VISIBILITY.inherit) === policy) return;
  const now = Math.floor(nowSecs(app));
  await app.db.tx((sql) => setUserTopic(sql, { user_id: me.id, stream_id: streamId, topic: current?.topic ?? n.topic, visibility_policy: policy, last_updated: now }));
  await publishUserTopic(app, me.id, { stream_id: streamId, topic_name: current?.topic ?? n.topic, last_updated: now, visibility_policy: policy });
}

/**
 * A committed change of a user's topic policy: the user_topic event and, as Zulip's
 * do_set_user_topic_visibility_policy does, the legacy muted_topics event with the user's whole list
 * (only queues of clients that did not ask for user_topic take it; see events/queue.ts).
 */
export async function publishUserTopic(app: App, userId: number, change: { stream_id: number; topic_name: string; last_updated: number; visibility_policy: number }) {
  if (app.events.wantsType(userId, "muted_topics")) app.events.publish({ type: "muted_topics", muted_topics: await mutedTopicsOf(app, userId) }, [userId]);
  app.events.publish({ type: "user_topic", ...change }, [userId]);
}

/** The legacy muted_topics list: [channel name, topic, time muted] for each muted topic of a known channel. */
export async function mutedTopicsOf(app: App, userId: number): Promise<[string, string, number][]> {
  const d = await loadDirectory(app);
  return (await listUserTopics(app.db, userId))
    .filter((r) => r.visibility_policy === VISIBILITY.muted && d.streams.has(r.stream_id))
    .map((r) => [d.streams.get(r.stream_id)!.name, r.topic, Math.floor(r.last_updated)]);
}

/** PATCH /users/me/subscriptions/muted_topics (legacy): mute or unmute by channel name or id. */
export async function setTopicMuted(app: App, me: UserRow, input: { stream?: string; streamId?: number; topic: string; op: string }) {
  if (input.op !== "add" && input.op !== "remove") throw badRequest("Invalid op");
  let streamId = input.streamId;
  if (streamId === undefined) {
    if (input.stream === undefined) throw badRequest("Please supply 'stream'.");
    const s = (await loadDirectory(app)).streamByName(input.stream);
    if (!s) throw badRequest(`Invalid channel name '${input.stream}'`);
    streamId = s.id;
  } else if (input.stream !== undefined) throw badRequest("Please choose one: 'stream' or 'stream_id'.");
  const current = await findUserTopic(app.db, me.id, streamId, input.topic);
  if (input.op === "add" && current?.visibility_policy === VISIBILITY.muted) throw badRequest("Topic already muted");
  if (input.op === "remove" && current?.visibility_policy !== VISIBILITY.muted) throw badRequest("Topic is not muted");
  await setTopicVisibility(app, me, streamId, input.topic, input.op === "add" ? VISIBILITY.muted : VISIBILITY.inherit);
}

/** The user's topic policies as /register's user_topics. */
export async function userTopicsOf(app: App, me: UserRow) {
  return (await listUserTopics(app.db, me.id)).map((r) => ({
    stream_id: r.stream_id,
    topic_name: r.topic,
    last_updated: Math.floor(r.last_updated),
    visibility_policy: r.visibility_policy,
  }));
}
