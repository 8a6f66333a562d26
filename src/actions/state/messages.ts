import type { App } from "../../app";
import { FLAG } from "../../domain/flags";
import { displayTopic } from "../../domain/topic";
import { listRecentConversations, listStarredIds, listUnread } from "../../store/user-messages";
import { maxMessageIdOf, type UserRow } from "../../store/users";
import { listUserSubscriptionRows } from "../../store/subscriptions";
import { listUserTopics } from "../../store/user-topics";
import { isTopicMuted, VISIBILITY } from "../../domain/user-topics";
import { emptyTopicName } from "../messages/render";
import type { StateOptions } from "./options";

/** Zulip's MAX_UNREAD_MESSAGES: /register reports at most this many unread messages. */
export const MAX_UNREAD_MESSAGES = 50_000;
const MENTION_BITS = FLAG.mentioned | FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned;

/** `message` initial state: Zulip's max_message_id_for_user, -1 for a spectator or a user with no messages yet. */
export async function messageState(app: App, me: UserRow, opts: StateOptions) {
  if (opts.spectator) return { max_message_id: -1 };
  return { max_message_id: await maxMessageIdOf(app.db, me.id) };
}

/** `update_message_flags` initial state: unread_msgs, grouped like Zulip's aggregate_unread_data. */
export async function unreadState(app: App, me: UserRow, opts: StateOptions) {
  const rows = (await listUnread(app.db, me.id, MAX_UNREAD_MESSAGES)).reverse();
  const muted = await mutedness(app, me);
  let unmutedStreamMessages = 0;
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const mentions: number[] = [];
  const emptyName = emptyTopicName(app);
  const allowEmpty = opts.clientCapabilities.empty_topic_name === true;
  for (const r of rows) {
    if (r.stream_id !== null) {
      const key = `${r.stream_id}\u0000${r.topic}`;
      let s = streams.get(key);
      if (!s) streams.set(key, (s = { stream_id: r.stream_id, topic: displayTopic(r.topic, emptyName, allowEmpty), unread_message_ids: [] }));
      s.unread_message_ids.push(r.message_id);
      if (!muted(r.stream_id, r.topic)) unmutedStreamMessages++;
    } else {
      const ids = r.dm_key!.split(",").map(Number);
      if (ids.length <= 2) {
        const other = ids.find((id) => id !== me.id) ?? me.id;
        pms.set(other, [...(pms.get(other) ?? []), r.message_id]);
      } else huddles.set(r.dm_key!, [...(huddles.get(r.dm_key!) ?? []), r.message_id]);
    }
    if (r.flags & MENTION_BITS) mentions.push(r.message_id);
  }
  return {
    unread_msgs: {
      pms: [...pms].map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
      streams: [...streams.values()],
      huddles: [...huddles].map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
      mentions,
      // Zulip's count leaves out messages in muted channels and topics (unless the topic is unmuted or followed)
      count: unmutedStreamMessages + rows.filter((r) => r.stream_id === null).length,
      old_unreads_missing: rows.length >= MAX_UNREAD_MESSAGES,
    },
  };
}

/** The user's muted-topic test over their subscriptions and topic policies (two queries, then in memory). */
async function mutedness(app: App, me: UserRow): Promise<(streamId: number, topic: string) => boolean> {
  const [subs, topics] = await Promise.all([listUserSubscriptionRows(app.db, me.id), listUserTopics(app.db, me.id)]);
  const mutedStreams = new Set(subs.filter((s) => s.active && s.is_muted).map((s) => s.stream_id));
  const policy = new Map(topics.map((t) => [`${t.stream_id}\u0000${t.topic.toLowerCase()}`, t.visibility_policy]));
  return (streamId, topic) => isTopicMuted(mutedStreams.has(streamId), policy.get(`${streamId}\u0000${topic.toLowerCase()}`) ?? VISIBILITY.inherit);
}

/** `starred_messages` initial state. */
export async function starredState(app: App, me: UserRow) {
  return { starred_messages: await listStarredIds(app.db, me.id) };
}

/** Zulip's RECENT_CONVERSATIONS_LIMIT: how many of the latest direct messages are scanned. */
const RECENT_CONVERSATIONS_LIMIT = 1000;

/** `recent_private_conversations` initial state: newest conversation first. */
export async function recentConversationsState(app: App, me: UserRow) {
  const rows = await listRecentConversations(app.db, me.id, RECENT_CONVERSATIONS_LIMIT);
  return {
    recent_private_conversations: rows.map((r) => ({
      max_message_id: r.max_id,
      user_ids: r.dm_key.split(",").map(Number).filter((id) => id !== me.id),
    })),
  };
}
