import { nowSecs, realmOf, type App } from "../app";
import { parseStoredSettings, settingsOver } from "../domain/user-settings";
import { badRequest } from "../errors";
import { findUserStatus, listUserStatuses, saveUserStatus, type UserStatusRow } from "../store/user-status";
import type { UserRow } from "../store/users";
import { resolveEmoji, type EmojiRef } from "./emoji-request";
import { updateSettings } from "./settings";
import { accessibleUserIds, accessUserById, usersWhoCanAccess } from "./user-access";

/** Zulip's limit on status_text (after trimming). */
export const MAX_STATUS_TEXT_LENGTH = 60;

export interface StatusInput {
  statusText?: string;
  away?: boolean;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

/** A status as the API shows it: only the parts that are set (`away` is the inverse of presence_enabled). */
export function statusDict(row: UserStatusRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (settingsOver(parseStoredSettings(row.settings)).presence_enabled === false) out.away = true;
  if (row.status_text) out.status_text = row.status_text;
  if (row.emoji_name) Object.assign(out, { emoji_name: row.emoji_name, emoji_code: row.emoji_code, reaction_type: row.reaction_type });
  return out;
}

/**
 * POST /users/me/status: changes only what was passed ("" clears the text or the emoji); `away`
 * sets presence_enabled. A `user_status` event with the changed parts goes to everyone who can see the user.
 */
export async function updateStatus(app: App, me: UserRow, input: StatusInput): Promise<void> {
  const statusText = input.statusText?.trim();
  if (input.away === undefined && statusText === undefined && input.emojiName === undefined) throw badRequest("Client did not pass any new values.");
  if (statusText !== undefined && statusText.length > MAX_STATUS_TEXT_LENGTH) throw badRequest(`status_text is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters)`);
  let emoji: EmojiRef | undefined;
  if (input.emojiName === "") emoji = { emojiName: "", emojiCode: "", reactionType: "unicode_emoji" };
  else if (input.emojiName !== undefined) emoji = await resolveEmoji(app, input.emojiName, input.emojiCode, input.reactionType);
  else if (input.emojiCode || input.reactionType) throw badRequest("Client must pass emoji_name if they pass either emoji_code or reaction_type.");

  if (input.away !== undefined) await updateSettings(app, me, { settings: { presence_enabled: !input.away } });
  await app.db.tx((sql) =>
    saveUserStatus(sql, me.id, { statusText, emojiName: emoji?.emojiName, emojiCode: emoji?.emojiCode, reactionType: emoji?.reactionType }, nowSecs(app)),
  );
  const event: Record<string, unknown> = { type: "user_status", user_id: me.id };
  if (input.away !== undefined) event.away = input.away;
  if (statusText !== undefined) event.status_text = statusText;
  if (emoji) Object.assign(event, { emoji_name: emoji.emojiName, emoji_code: emoji.emojiCode, reaction_type: emoji.reactionType });
  app.events.publish(event as { type: string }, await usersWhoCanAccess(app, me.id));
}

/** GET /users/{user_id}/status: {} when the user never set one. */
export async function getUserStatus(app: App, me: UserRow, userId: number): Promise<Record<string, unknown>> {
  const target = await accessUserById(app, me, userId);
  const row = await findUserStatus(app.db, target.id);
  return row ? statusDict(row) : {};
}

/** `user_status` initial state: the statuses of the users the caller can see, keyed by user id. */
export async function userStatusMap(app: App, me: UserRow): Promise<Record<string, Record<string, unknown>>> {
  const visible = await accessibleUserIds(app, me);
  const out: Record<string, Record<string, unknown>> = {};
  for (const row of await listUserStatuses(app.db, realmOf(app).id)) {
    if (visible !== null && !visible.has(row.user_id)) continue;
    const d = statusDict(row);
    if (Object.keys(d).length) out[String(row.user_id)] = d;
  }
  return out;
}
