import { realmOf, type App } from "../app";
import { emojiNameToCode, isValidUnicodeEmojiCode } from "../domain/emoji";
import { badRequest } from "../errors";
import { findActiveRealmEmoji, listRealmEmoji } from "../store/realm-emoji";

export type ReactionType = "unicode_emoji" | "realm_emoji" | "zulip_extra_emoji";
export interface EmojiRef {
  emojiName: string;
  emojiCode: string;
  reactionType: ReactionType;
}

/**
 * Zulip's get_emoji_data + check_emoji_request: fills in the code and type from the name when the
 * client gave only the name (custom emoji first, then "zulip", then Unicode), and checks that the
 * three agree. Used for statuses; reactions follow the same rules.
 */
export async function resolveEmoji(app: App, name: string, code?: string, type?: string): Promise<EmojiRef> {
  const realm = realmOf(app);
  if (code === undefined || type === undefined) {
    const custom = await findActiveRealmEmoji(app.db, realm.id, name);
    if (custom) return { emojiName: name, emojiCode: String(custom.id), reactionType: "realm_emoji" };
    if (name === "zulip") return { emojiName: name, emojiCode: "zulip", reactionType: "zulip_extra_emoji" };
    const unicode = emojiNameToCode(name);
    if (unicode) return { emojiName: name, emojiCode: unicode, reactionType: "unicode_emoji" };
    throw badRequest(`Emoji '${name}' does not exist`);
  }
  if (type === "realm_emoji") {
    const custom = (await listRealmEmoji(app.db, realm.id)).find((e) => String(e.id) === code);
    if (!custom) throw badRequest("Invalid custom emoji.");
    if (custom.name !== name) throw badRequest("Invalid custom emoji name.");
    if (custom.deactivated) throw badRequest("This custom emoji has been deactivated.");
  } else if (type === "zulip_extra_emoji") {
    if (code !== "zulip") throw badRequest("Invalid emoji code.");
    if (name !== code) throw badRequest("Invalid emoji name.");
  } else if (type === "unicode_emoji") {
    if (!isValidUnicodeEmojiCode(code)) throw badRequest("Invalid emoji code.");
    if (emojiNameToCode(name) !== code) throw badRequest("Invalid emoji name.");
  } else {
    throw badRequest("Invalid emoji type.");
  }
  return { emojiName: name, emojiCode: code, reactionType: type };
}
