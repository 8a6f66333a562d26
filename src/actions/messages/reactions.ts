import { nowSecs, type App } from "../../app";
import { checkEmojiRequest, emojiData } from "../../domain/emoji-request";
import { FLAG } from "../../domain/flags";
import { autoPrefs, policyAfterParticipation } from "../../domain/user-topics";
import { badRequest, ZulipError } from "../../errors";
import { insertUserMessages, senderTopicState } from "../../store/messages";
import { deleteReaction, findReaction, findReactionWithCode, insertReaction } from "../../store/reactions";
import { listHolders } from "../../store/user-messages";
import { setUserTopic } from "../../store/user-topics";
import type { UserRow } from "../../store/users";
import { accessMessage } from "./access";
import { actionAudience } from "./delete";
import { loadDirectory } from "./directory";
import { customEmojiOf } from "../emoji-request";
import { publishUserTopic } from "../user-topics";

export interface ReactionInput {
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

function reactionEvent(me: UserRow, op: "add" | "remove", messageId: number, r: { emoji_name: string; emoji_code: string; reaction_type: string }) {
  return {
    type: "reaction",
    op,
    user_id: me.id,
    user: { user_id: me.id, email: me.email, full_name: me.full_name },
    message_id: messageId,
    emoji_name: r.emoji_name,
    emoji_code: r.emoji_code,
    reaction_type: r.reaction_type,
  };
}

/** POST /messages/{message_id}/reactions. */
export async function addReaction(app: App, me: UserRow, messageId: number, input: ReactionInput) {
  if (input.emojiName === undefined) throw new ZulipError("REQUEST_VARIABLE_MISSING", "Missing 'emoji_name' argument", 400, { var_name: "emoji_name" });
  const d = await loadDirectory(app);
  const { row, received } = await accessMessage(app, d, me, messageId, app.db, { modifying: true });
  let name = input.emojiName;
  let code = input.emojiCode;
  let type = input.reactionType;
  if (code === undefined || type === undefined) {
    const data = emojiData(customEmojiOf(d), name);
    code ??= data.code;
    type ??= data.type;
  }
  if (await findReaction(app.db, { message_id: messageId, user_id: me.id, emoji_code: code, reaction_type: type })) {
    throw new ZulipError("REACTION_ALREADY_EXISTS", "Reaction already exists.");
  }
  const existing = await findReactionWithCode(app.db, messageId, type, code);
  if (existing) name = existing.emoji_name;
  else checkEmojiRequest(customEmojiOf(d), name, code, type);
  const reaction = { message_id: messageId, user_id: me.id, emoji_name: name, emoji_code: code, reaction_type: type };
  let policy: number | null = null;
  if (row.stream_id !== null) {
    const state = await senderTopicState(app.db, me.id, row.stream_id, row.topic);
    policy = policyAfterParticipation(autoPrefs(d.users.get(me.id)?.prefs ?? {}), state.visibilityPolicy, state.streamMuted);
  }
  const now = Math.floor(nowSecs(app));
  await app.db.tx(async (sql) => {
    if (!received) await insertUserMessages(sql, [{ userId: me.id, messageId, flags: FLAG.read | FLAG.historical }]);
    await insertReaction(sql, reaction);
    if (policy !== null) await setUserTopic(sql, { user_id: me.id, stream_id: row.stream_id!, topic: row.topic, visibility_policy: policy, last_updated: now });
  });
  const holders = (await listHolders(app.db, messageId)).map((h) => h.user_id);
  app.events.publish(reactionEvent(me, "add", messageId, reaction), await actionAudience(app, d, row, holders));
  if (policy !== null) {
    await publishUserTopic(app, me.id, { stream_id: row.stream_id!, topic_name: row.topic, last_updated: now, visibility_policy: policy });
  }
}

/** DELETE /messages/{message_id}/reactions. */
export async function removeReaction(app: App, me: UserRow, messageId: number, input: ReactionInput) {
  const d = await loadDirectory(app);
  const { row } = await accessMessage(app, d, me, messageId, app.db, { modifying: true });
  let code = input.emojiCode;
  let type = input.reactionType ?? "unicode_emoji";
  if (code === undefined) {
    if (input.emojiName === undefined) throw badRequest("At least one of the following arguments must be present: emoji_name, emoji_code");
    const data = emojiData(customEmojiOf(d), input.emojiName);
    code = data.code;
    if (input.reactionType === undefined) type = data.type;
  }
  const found = await findReaction(app.db, { message_id: messageId, user_id: me.id, emoji_code: code, reaction_type: type });
  if (!found) throw new ZulipError("REACTION_DOES_NOT_EXIST", "Reaction doesn't exist.");
  await app.db.tx((sql) => deleteReaction(sql, found));
  const holders = (await listHolders(app.db, messageId)).map((h) => h.user_id);
  app.events.publish(reactionEvent(me, "remove", messageId, found), await actionAudience(app, d, row, holders));
}
