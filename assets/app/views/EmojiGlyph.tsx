/** One emoji drawn: a Unicode emoji from its code points, the organization's own from its image. */
import { emojiFromCode } from "../lib/emoji";
import { realmEmoji } from "../state/store";

export interface EmojiLike {
  name: string;
  code: string;
  reaction_type: string;
  url?: string;
}

export function EmojiGlyph({ emoji, size = 20 }: { emoji: EmojiLike; size?: number }) {
  if (emoji.reaction_type === "realm_emoji") {
    const url = emoji.url ?? realmEmoji.value[emoji.code]?.source_url;
    if (url) return <img class="emoji-glyph emoji-image" src={url} alt={`:${emoji.name}:`} width={size} height={size} loading="lazy" />;
  }
  if (emoji.reaction_type === "unicode_emoji") {
    return (
      <span class="emoji-glyph" style={{ fontSize: `${Math.round(size * 0.9)}px` }} aria-hidden="true">
        {emojiFromCode(emoji.code)}
      </span>
    );
  }
  return <span class="emoji-glyph emoji-text" aria-hidden="true">:{emoji.name}:</span>;
}
