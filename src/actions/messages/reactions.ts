import { nowSecs, type App } from "../../app";
import { emojiNameToCode, isValidUnicodeEmojiCode } from "../../domain/emoji";
import { FLAG } from "../../domain/flags";
import { autoPrefs, policyAfterParticipation } from "../../domain/user-topics";
import { badRequest, ZulipError } from "../../errors";
import { insertUserMessages, senderTopicState } from "../../store/messages";
import { deleteReaction, findReaction, findReactionWithCode, insertReaction } from "../../store/reactions";
import { listHolders } from "../../store/user-messages";
import { setUserTopic } from "../../store/user-topics";
import type { UserRow } from "../../store/users";
import { accessMessage } from "./access";
import { messageAudience } from "./delete";
import { loadDirectory, type Directory } from "./directory";

export interface ReactionInput {
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

/** Zulip's get_emoji_data: the code and type an emoji name stands for. */
function emojiData(d: Directory, name: string): { code: string; type: string } {
  const custom = d.emojiByName.get(name);
  if (custom) return { code: String(custom.id), type: "realm_emoji" };
  if (name === "zulip") return { code: "zulip", type: "zulip_extra_emoji" };
  const code = emojiNameToCode(name);
  if (code) return { code, type: "unicode_emoji" };
  throw badRequest(`Emoji '${name}' does not exist`);
}

/** Zulip's check_emoji_request. */
function checkEmoji(d: Directory, name: string, code: string, type: string) {
  if (type === "realm_emoji") {
    const e = /^\d+$/.test(code) ? d.emojiById.get(Number(code)) : undefined;
    if (!e) throw badRequest("Invalid custom emoji.");
    if (e.name !== name) throw badRequest("Invalid custom emoji name.");
    if (e.deactivated) throw badRequest("This custom emoji has been deactivated.");
  } else if (type === "zulip_extra_emoji") {
    if (code !== "zulip") throw badRequest("Invalid emoji code.");
    if (name !== code) throw badRequest("Invalid emoji name.");
  } else if (type === "unicode_emoji") {
    if (!isValidUnicodeEmojiCode(code)) throw badRequest("Invalid emoji code.");
    if (emojiNameToCode(name) !== code) throw badRequest("Invalid emoji name.");
  } else throw badRequest("Invalid emoji type.");
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
  const d = await loadDirectory(app);
  const { row, received } = await accessMessage(app, d, me, messageId);
  if (input.emojiName === undefined) throw new ZulipError("REQUEST_VARIABLE_MISSING", "Missing 'emoji_name' argument", 400, { var_name: "emoji_name" });
  let name = input.emojiName;
  let code = input.emojiCode;
  let type = input.reactionType;
  if (code === undefined || type === undefined) {
    const data = emojiData(d, name);
    code ??= data.code;
    type ??= data.type;
  }
  if (await findReaction(app.db, { message_id: messageId, user_id: me.id, emoji_code: code, reaction_type: type })) {
    throw new ZulipError("REACTION_ALREADY_EXISTS", "Reaction already exists.");
  }
  const existing = await findReactionWithCode(app.db, messageId, type, code);
  if (existing) name = existing.emoji_name;
  else checkEmoji(d, name, code, type);
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
  app.events.publish(reactionEvent(me, "add", messageId, reaction), await messageAudience(app, d, row, holders));
  if (policy !== null) {
    app.events.publish({ type: "user_topic", stream_id: row.stream_id, topic_name: row.topic, last_updated: now, visibility_policy: policy }, [me.id]);
  }
}

/** DELETE /messages/{message_id}/reactions. */
export async function removeReaction(app: App, me: UserRow, messageId: number, input: ReactionInput) {
  const d = await loadDirectory(app);
  const { row } = await accessMessage(app, d, me, messageId);
  let code = input.emojiCode;
  let type = input.reactionType ?? "unicode_emoji";
  if (code === undefined) {
    if (input.emojiName === undefined) throw badRequest("At least one of the following arguments must be present: emoji_name, emoji_code");
    const data = emojiData(d, input.emojiName);
    code = data.code;
    if (input.reactionType === undefined) type = data.type;
  }
  const found = await findReaction(app.db, { message_id: messageId, user_id: me.id, emoji_code: code, reaction_type: type });
  if (!found) throw new ZulipError("REACTION_DOES_NOT_EXIST", "Reaction doesn't exist.");
  await app.db.tx((sql) => deleteReaction(sql, found));
  const holders = (await listHolders(app.db, messageId)).map((h) => h.user_id);
  app.events.publish(reactionEvent(me, "remove", messageId, found), await messageAudience(app, d, row, holders));
}
