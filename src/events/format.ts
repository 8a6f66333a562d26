import type { Event } from "./queue";
import type { EventQueue } from "./queue";

/**
 * Per-queue shaping of an event, decided at /register: message content as HTML or Markdown
 * (apply_markdown), gravatar URLs left to the client (client_gravatar), and the older event forms
 * for clients without a capability. Returns null to drop it, or several events for one.
 */
export function formatForQueue(event: Event, q: EventQueue): Event | Event[] | null {
  const caps = q.options.capabilities;
  // Without bulk_message_deletion a client understands one message per delete_message event.
  if (event.type === "delete_message" && Array.isArray(event.message_ids) && !caps.bulk_message_deletion) {
    const { message_ids, ...rest } = event;
    return (message_ids as number[]).map((id) => ({ ...rest, message_id: id }));
  }
  // Without include_deactivated_groups a deactivated group simply disappears.
  if (event.type === "user_group" && event.op === "update" && (event.data as any)?.deactivated === true && !caps.include_deactivated_groups) {
    return { type: "user_group", op: "remove", group_id: event.group_id };
  }
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
