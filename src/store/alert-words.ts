import type { Sql } from "./db";

export const listAlertWords = async (sql: Sql, userId: number) =>
  (await sql.all<{ word: string }>("SELECT word FROM alert_words WHERE user_id = ? ORDER BY word COLLATE NOCASE", [userId])).map((r) => r.word);

/** Every user's alert words (user id → words), for matching at send time. */
export async function mapAllAlertWords(sql: Sql): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  for (const r of await sql.all<{ user_id: number; word: string }>("SELECT user_id, word FROM alert_words")) {
    let list = out.get(r.user_id);
    if (!list) out.set(r.user_id, (list = []));
    list.push(r.word);
  }
  return out;
}

export async function addAlertWords(sql: Sql, userId: number, words: string[]) {
  if (!words.length) return;
  await sql.batch(words.map((w) => ({ sql: "INSERT OR IGNORE INTO alert_words (user_id, word) VALUES (?, ?)", args: [userId, w] })));
}

export async function removeAlertWords(sql: Sql, userId: number, words: string[]) {
  if (!words.length) return;
  await sql.batch(words.map((w) => ({ sql: "DELETE FROM alert_words WHERE user_id = ? AND word = ? COLLATE NOCASE", args: [userId, w] })));
}
