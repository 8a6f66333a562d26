/** A message's HTML as the server rendered it, finished in the page (see lib/rendered.ts), its emoji in the person's set. */
import { useLayoutEffect, useRef } from "preact/hooks";
import { drawMessageEmoji, emojiSheet, loadEmojiSheet } from "../lib/emoji-set";
import { finishRendering, needsFinishing } from "../lib/rendered";
import { memo } from "../lib/memo";
import { groupHasMember } from "../state/people";
import { groups, me, settings, users } from "../state/store";
import { emojiMode } from "./EmojiGlyph";

const hasEmoji = (html: string) => html.includes('class="emoji');

function Content({ html }: { html: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const myId = me.value;
  const twentyFourHour = settings.value.twenty_four_hour_time;
  const mode = emojiMode.value;
  const sheet = hasEmoji(html) && mode === "google" ? emojiSheet.value : null;
  useLayoutEffect(() => {
    if (!needsFinishing(html)) return;
    finishRendering(ref.current!, {
      me: myId,
      twentyFourHour,
      nameOf: (id) => users.peek()[id]?.full_name,
      inGroup: (id) => groupHasMember(groups.peek(), id, myId),
    });
  }, [html, myId, twentyFourHour]);
  useLayoutEffect(() => {
    if (!hasEmoji(html)) return;
    if (mode === "google" && !sheet) void loadEmojiSheet();
    drawMessageEmoji(ref.current!, mode, sheet);
  }, [html, mode, sheet]);
  return <div ref={ref} class="message-content rendered_markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}

export const MessageContent = memo(Content);
