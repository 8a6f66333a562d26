/**
 * One emoji drawn in the person's emoji set (lib/emoji-set.ts): a Unicode emoji from the Google sheet
 * (its system glyph until the sheet has loaded), the organization's own from its image, or in the
 * "text" set any emoji as its `:name:`.
 */
import { computed } from "@preact/signals";
import { emojiFromCode, emojiModeOf, emojiSheet, loadEmojiSheet, spritePosition } from "../lib/emoji-set";
import { realmEmoji, settings } from "../state/store";

export interface EmojiLike {
  name: string;
  code: string;
  reaction_type: string;
  url?: string;
}

/** The person's emoji mode, from their emojiset setting. */
export const emojiMode = computed(() => emojiModeOf(settings.value.emojiset));

export function EmojiGlyph({ emoji, size = 20 }: { emoji: EmojiLike; size?: number }) {
  const mode = emojiMode.value;
  if (mode === "text") return <span class="emoji-glyph emoji-text" aria-hidden="true">:{emoji.name}:</span>;
  if (emoji.reaction_type === "realm_emoji") {
    const url = emoji.url ?? realmEmoji.value[emoji.code]?.source_url;
    if (url) return <img class="emoji-glyph emoji-image" src={url} alt={`:${emoji.name}:`} width={size} height={size} loading="lazy" />;
  }
  if (emoji.reaction_type === "unicode_emoji") {
    const sheet = emojiSheet.value;
    if (!sheet) void loadEmojiSheet();
    const position = sheet && spritePosition(sheet, emoji.code);
    if (position) return <span class="emoji-glyph emoji-sprite" style={{ width: `${size}px`, height: `${size}px`, backgroundPosition: position }} aria-hidden="true" />;
    return (
      <span class="emoji-glyph" style={{ fontSize: `${Math.round(size * 0.9)}px` }} aria-hidden="true">
        {emojiFromCode(emoji.code)}
      </span>
    );
  }
  return <span class="emoji-glyph emoji-text" aria-hidden="true">:{emoji.name}:</span>;
}
