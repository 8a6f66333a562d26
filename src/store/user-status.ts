import type { Sql } from "./db";

export interface UserStatusRow {
  user_id: number;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  timestamp: number;
  /** users.settings, for presence_enabled (the legacy `away`) */
  settings: string;
}

const SELECT = `SELECT s.user_id, s.status_text, s.emoji_name, s.emoji_code, s.reaction_type, s.timestamp, u.settings
  FROM user_status s JOIN users u ON u.id = s.user_id`;

export const findUserStatus = (sql: Sql, userId: number) => sql.get<UserStatusRow>(`${SELECT} WHERE s.user_id = ?`, [userId]);

/** Active users of the organization with a status worth showing (text, emoji, or away). */
export const listUserStatuses = (sql: Sql, realmId: number) =>
  sql.all<UserStatusRow>(
    `${SELECT} WHERE u.realm_id = ? AND u.is_active = 1
       AND (s.status_text != '' OR s.emoji_name != '' OR json_extract(u.settings, '$.presence_enabled') = 0)
     ORDER BY s.user_id`,
    [realmId],
  );

export interface StatusChange {
  statusText?: string;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

/** Creates or updates the row, changing only the given parts. */
export async function saveUserStatus(sql: Sql, userId: number, change: StatusChange, timestamp: number): Promise<void> {
  await sql.run("INSERT INTO user_status (user_id, timestamp) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET timestamp = excluded.timestamp", [userId, timestamp]);
  const sets: string[] = [];
  const args: (string | number)[] = [];
  const add = (col: string, v: string | undefined) => {
    if (v === undefined) return;
    sets.push(`${col} = ?`);
    args.push(v);
  };
  add("status_text", change.statusText);
  add("emoji_name", change.emojiName);
  add("emoji_code", change.emojiCode);
  add("reaction_type", change.reactionType);
  if (sets.length) await sql.run(`UPDATE user_status SET ${sets.join(", ")} WHERE user_id = ?`, [...args, userId]);
}
