import type { Sql } from "./db";

export interface UserTopicRow {
  user_id: number;
  stream_id: number;
  topic: string;
  visibility_policy: number;
  last_updated: number;
}


export const listUserTopics = (sql: Sql, userId: number) =>
  sql.all<UserTopicRow>("SELECT * FROM user_topics WHERE user_id = ? ORDER BY last_updated, stream_id, topic", [userId]);

export const findUserTopic = (sql: Sql, userId: number, streamId: number, topic: string) =>
  sql.get<UserTopicRow>("SELECT * FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic = ?", [userId, streamId, topic]);

/**
 * A user's policy for a topic (0: none), remembered until user_topics is written: a send checks it for
 * every user it mentions (auto-follow), and in a busy topic the answer stays "already followed".
 */
export const userTopicPolicy = (sql: Sql, userId: number, streamId: number, topic: string) =>
  sql.memo(["user_topics"], `user-topic-policy\u0000${userId}\u0000${streamId}\u0000${topic}`, async () => (await findUserTopic(sql, userId, streamId, topic))?.visibility_policy ?? 0);

/** Sets a policy (0 deletes the row). */
export async function setUserTopic(sql: Sql, row: UserTopicRow) {
  if (row.visibility_policy === 0) {
    await sql.run("DELETE FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic = ?", [row.user_id, row.stream_id, row.topic]);
    return;
  }
  await sql.run(
    `INSERT INTO user_topics (user_id, stream_id, topic, visibility_policy, last_updated) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (user_id, stream_id, topic) DO UPDATE SET visibility_policy = excluded.visibility_policy, last_updated = excluded.last_updated`,
    [row.user_id, row.stream_id, row.topic, row.visibility_policy, row.last_updated],
  );
}

/** Rows of everyone for a channel's topic (moving a topic carries them along). */
export const listTopicPolicies = (sql: Sql, streamId: number, topic: string) =>
  sql.all<UserTopicRow>("SELECT * FROM user_topics WHERE stream_id = ? AND topic = ?", [streamId, topic]);

export const deleteTopicPolicies = (sql: Sql, streamId: number, topic: string) =>
  sql.run("DELETE FROM user_topics WHERE stream_id = ? AND topic = ?", [streamId, topic]);
