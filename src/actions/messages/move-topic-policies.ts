import type { App } from "../../app";
import { AUTO, VISIBILITY, type AutoPrefs } from "../../domain/user-topics";
import type { Sql } from "../../store/db";
import { findUserTopic, listTopicPolicies, setUserTopic } from "../../store/user-topics";
import { publishUserTopic } from "../user-topics";

/** A user's topic policy that a move changed: announced with a user_topic event once committed. */
export interface PolicyChange {
  userId: number;
  streamId: number;
  topic: string;
  policy: number;
}

/** Zulip's get_visibility_policy_after_merge: of two policies, the one that shows more. */
function mergedPolicy(a: number, b: number): number {
  const both = new Set([a, b]);
  if (both.has(VISIBILITY.followed)) return VISIBILITY.followed;
  if (both.has(VISIBILITY.unmuted)) return VISIBILITY.unmuted;
  if (both.has(VISIBILITY.inherit)) return VISIBILITY.inherit;
  return VISIBILITY.muted;
}

export interface TopicMove {
  fromStream: number;
  fromTopic: string;
  toStream: number;
  toTopic: string;
  /** the destination already had messages besides the moved ones */
  targetHadMessages: boolean;
  /** users who cannot read the destination channel: their policy for the old topic is dropped */
  losingAccess: ReadonlySet<number>;
  now: number;
}

/**
 * Zulip's rule when a whole topic moves (as the mover sees it): each user's policy leaves the old
 * topic and goes to the new one. Where the new topic already had messages and its own policy, the
 * more visible of the two stays (moving a topic without a policy into a muted one clears the mute). Users who
 * lose access to the messages only lose their old policy. A move within the same topic name (a
 * change of case) changes nothing.
 */
export async function migrateTopicPolicies(sql: Sql, m: TopicMove): Promise<PolicyChange[]> {
  if (m.fromStream === m.toStream && m.fromTopic.toLowerCase() === m.toTopic.toLowerCase()) return [];
  const changes: PolicyChange[] = [];
  const set = async (userId: number, streamId: number, topic: string, policy: number) => {
    await setUserTopic(sql, { user_id: userId, stream_id: streamId, topic, visibility_policy: policy, last_updated: m.now });
    changes.push({ userId, streamId, topic, policy });
  };
  const from = new Map<number, { topic: string; policy: number }>();
  for (const r of await listTopicPolicies(sql, m.fromStream, m.fromTopic)) {
    if (m.losingAccess.has(r.user_id)) await set(r.user_id, m.fromStream, r.topic, VISIBILITY.inherit);
    else from.set(r.user_id, { topic: r.topic, policy: r.visibility_policy });
  }
  const to = new Map((await listTopicPolicies(sql, m.toStream, m.toTopic)).map((r) => [r.user_id, r.visibility_policy]));
  for (const userId of new Set([...from.keys(), ...to.keys()])) {
    const old = from.get(userId);
    const orig = old?.policy ?? VISIBILITY.inherit;
    const target = to.get(userId) ?? VISIBILITY.inherit;
    if (old && orig !== VISIBILITY.inherit) await set(userId, m.fromStream, old.topic, VISIBILITY.inherit);
    const next = m.targetHadMessages ? mergedPolicy(orig, target) : orig;
    if (next !== target) await set(userId, m.toStream, m.toTopic, next);
  }
  return changes;
}

/**
 * Zulip's apply_automatic_unmute_follow_topics_policy, for the sender of a moved message that
 * becomes the first of its new topic (a partial move "starts" that topic): follow it if they follow
 * topics they start, else unmute it in a muted channel if they unmute those.
 */
export async function initiationPolicy(sql: Sql, senderId: number, prefs: AutoPrefs, streamId: number, topic: string, channelMuted: boolean, now: number): Promise<PolicyChange | null> {
  let policy: number | null = null;
  if (prefs.automatically_follow_topics_policy === AUTO.onInitiation) policy = VISIBILITY.followed;
  else if (prefs.automatically_unmute_topics_in_muted_streams_policy === AUTO.onInitiation && channelMuted) policy = VISIBILITY.unmuted;
  if (policy === null) return null;
  const current = await findUserTopic(sql, senderId, streamId, topic);
  if ((current?.visibility_policy ?? VISIBILITY.inherit) === policy) return null;
  const name = current?.topic ?? topic;
  await setUserTopic(sql, { user_id: senderId, stream_id: streamId, topic: name, visibility_policy: policy, last_updated: now });
  return { userId: senderId, streamId, topic: name, policy };
}

/** The user_topic events for committed changes, each to its user. */
export async function publishPolicyChanges(app: App, changes: PolicyChange[], now: number): Promise<void> {
  for (const c of changes) await publishUserTopic(app, c.userId, { stream_id: c.streamId, topic_name: c.topic, last_updated: now, visibility_policy: c.policy });
}
