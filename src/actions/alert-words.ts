import type { App } from "../app";
import { badRequest } from "../errors";
import { addAlertWords, listAlertWords, mapAllAlertWords, removeAlertWords } from "../store/alert-words";
import type { UserRow } from "../store/users";

/**
 * Alert words (GET/POST/DELETE /users/me/alert_words). Every user's words are kept in memory for
 * the send path; only these actions write them, so they refresh the cache themselves.
 */
const caches = new WeakMap<App, Promise<Map<number, string[]>>>();

/** User id → alert words (all users), loaded once. */
export function alertWordsOf(app: App): Promise<Map<number, string[]>> {
  let c = caches.get(app);
  if (!c) caches.set(app, (c = mapAllAlertWords(app.db)));
  return c;
}

export const MAX_ALERT_WORD_LENGTH = 100;

function clean(words: string[]): string[] {
  const out = words.map((w) => w.trim()).filter((w) => w !== "");
  for (const w of out) if (w.length > MAX_ALERT_WORD_LENGTH) throw badRequest(`alert_words[${words.indexOf(w)}] is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters)`);
  return out;
}

export const getAlertWords = (app: App, me: UserRow) => listAlertWords(app.db, me.id);

async function changed(app: App, me: UserRow): Promise<string[]> {
  const words = await listAlertWords(app.db, me.id);
  (await alertWordsOf(app)).set(me.id, words);
  app.events.publish({ type: "alert_words", alert_words: words }, [me.id]);
  return words;
}

/** Adds words (case-insensitively new ones only, keeping the case given); answers the full list. */
export async function addUserAlertWords(app: App, me: UserRow, words: string[]): Promise<string[]> {
  const cleaned = clean(words);
  const existing = new Set((await listAlertWords(app.db, me.id)).map((w) => w.toLowerCase()));
  const fresh = new Map<string, string>();
  for (const w of cleaned) if (!existing.has(w.toLowerCase()) && !fresh.has(w.toLowerCase())) fresh.set(w.toLowerCase(), w);
  await app.db.tx((sql) => addAlertWords(sql, me.id, [...fresh.values()]));
  return changed(app, me);
}

/** Removes words (case-insensitively); answers the remaining list. */
export async function removeUserAlertWords(app: App, me: UserRow, words: string[]): Promise<string[]> {
  await app.db.tx((sql) => removeAlertWords(sql, me.id, clean(words)));
  return changed(app, me);
}
