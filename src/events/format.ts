import type { Event } from "./queue";
import type { EventQueue } from "./queue";

/**
 * Per-queue shaping of an event, decided at /register: message content as HTML or Markdown
 * (apply_markdown), gravatar URLs left to the client (client_gravatar). Returns null to drop it.
 */
export function formatForQueue(event: Event, q: EventQueue): Event | null {
  if (event.type === "message") {
    const message = event.message as Record<string, unknown>;
    const { rendered_content, raw_content, avatar_url_full, ...rest } = message as any;
    const out: Record<string, unknown> = {
      ...rest,
      content: q.options.applyMarkdown ? rendered_content : raw_content,
      content_type: q.options.applyMarkdown ? "text/html" : "text/x-markdown",
    };
    if (!q.options.clientGravatar && rest.avatar_url === null && avatar_url_full !== undefined) out.avatar_url = avatar_url_full;
    return { ...event, message: out };
  }
  return event;
}
