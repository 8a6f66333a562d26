import type { App } from "../app";
import { checkEmojiRequest, emojiData, type CustomEmoji, type ReactionType } from "../domain/emoji-request";
import { loadDirectory, type Directory } from "./messages/directory";

export type { ReactionType } from "../domain/emoji-request";
export interface EmojiRef {
  emojiName: string;
  emojiCode: string;
  reactionType: ReactionType;
}

/** The directory's custom emoji as the emoji checks see them. */
export const customEmojiOf = (d: Directory): CustomEmoji => ({ byName: (n) => d.emojiByName.get(n), byId: (id) => d.emojiById.get(id) });

/**
 * An emoji as a client names it: fills in the code and type from the name when the client gave only
 * the name, and checks that the three agree (Zulip's get_emoji_data + check_emoji_request).
 */
export async function resolveEmoji(app: App, name: string, code?: string, type?: string): Promise<EmojiRef> {
  const custom = customEmojiOf(await loadDirectory(app));
  if (code === undefined || type === undefined) {
    const data = emojiData(custom, name);
    return { emojiName: name, emojiCode: data.code, reactionType: data.type };
  }
  checkEmojiRequest(custom, name, code, type);
  return { emojiName: name, emojiCode: code, reactionType: type };
}
