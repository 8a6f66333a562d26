/** A message's HTML as the server rendered it, finished in the page (see lib/rendered.ts). */
import { useLayoutEffect, useRef } from "preact/hooks";
import { finishRendering, needsFinishing } from "../lib/rendered";
import { memo } from "../lib/memo";
import { groupHasMember } from "../state/people";
import { groups, me, settings, users } from "../state/store";

function Content({ html }: { html: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const myId = me.value;
  const twentyFourHour = settings.value.twenty_four_hour_time;
  useLayoutEffect(() => {
    if (!needsFinishing(html)) return;
    finishRendering(ref.current!, {
      me: myId,
      twentyFourHour,
      nameOf: (id) => users.peek()[id]?.full_name,
      inGroup: (id) => groupHasMember(groups.peek(), id, myId),
    });
  }, [html, myId, twentyFourHour]);
  return <div ref={ref} class="message-content rendered_markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}

export const MessageContent = memo(Content);
