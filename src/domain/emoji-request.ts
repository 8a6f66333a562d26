import { badRequest } from "../errors";
import { emojiNameToCode, isValidUnicodeEmojiCode } from "./emoji";

export type ReactionType = "unicode_emoji" | "realm_emoji" | "zulip_extra_emoji";

/** The organization's custom emoji, as the checks need them. */
export interface CustomEmoji {
  byName(name: string): { id: number } | undefined;
  byId(id: number): { name: string; deactivated: number } | undefined;
}

/** Zulip's get_emoji_data: the code and type a name stands for (custom emoji first, then "zulip", then Unicode). */
export function emojiData(custom: CustomEmoji, name: string): { code: string; type: ReactionType } {
  const e = custom.byName(name);
  if (e) return { code: String(e.id), type: "realm_emoji" };
  if (name === "zulip") return { code: "zulip", type: "zulip_extra_emoji" };
  const code = emojiNameToCode(name);
  if (code) return { code, type: "unicode_emoji" };
  throw badRequest(`Emoji '${name}' does not exist`);
}

/** Zulip's check_emoji_request: the name, code and type must agree. */
export function checkEmojiRequest(custom: CustomEmoji, name: string, code: string, type: string): asserts type is ReactionType {
  if (type === "realm_emoji") {
    const e = /^\d+$/.test(code) ? custom.byId(Number(code)) : undefined;
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
