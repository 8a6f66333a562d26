import type { Event } from "./queue";
import type { EventQueue } from "./queue";
import { matchesQueueNarrow } from "../domain/narrow";

/** What clients without the `empty_topic_name` capability see for the empty topic (realm_empty_topic_display_name). */
export const EMPTY_TOPIC_DISPLAY_NAME = "general chat";

/**
 * Per-queue shaping of an event, decided at /register: message content as HTML or Markdown
 * (apply_markdown), gravatar URLs left to the client (client_gravatar), the queue's narrow, and
 * the client capabilities (empty_topic_name, bulk_message_deletion, stream_typing_notifications).
 * Returns null to drop it.
 */
export function formatForQueue(event: Event, q: EventQueue): Event | null {
  const caps = q.options.capabilities ?? {};
  const topic = (t: unknown) => (t === "" && !caps.empty_topic_name ? EMPTY_TOPIC_DISPLAY_NAME : t);
  if (event.type === "message") {
    const message = event.message as Record<string, unknown>;
    const { rendered_content, raw_content, avatar_url_full, ...rest } = message as any;
    if (q.options.narrow.length) {
      const ok = matchesQueueNarrow(q.options.narrow, {
        type: rest.type,
        streamName: typeof rest.display_recipient === "string" ? rest.display_recipient : undefined,
        streamId: rest.stream_id,
        topic: rest.subject,
        senderEmail: rest.sender_email,
        senderId: rest.sender_id,
        flags: (event.flags as string[]) ?? [],
      });
      if (!ok) return null;
    }
    const out: Record<string, unknown> = {
      ...rest,
      content: q.options.applyMarkdown ? rendered_content : raw_content,
      content_type: q.options.applyMarkdown ? "text/html" : "text/x-markdown",
    };
    if (rest.type === "stream") out.subject = topic(rest.subject);
    if (!q.options.clientGravatar && rest.avatar_url === null && avatar_url_full !== undefined) out.avatar_url = avatar_url_full;
    return { ...event, message: out };
  }
  if (event.type === "delete_message") {
    const out: Event = { ...event };
    if ("topic" in out) out.topic = topic(out.topic);
    if (!caps.bulk_message_deletion && Array.isArray(out.message_ids)) {
      const { message_ids, ...rest } = out as any;
      return { ...rest, message_id: message_ids[0] };
    }
    return out;
  }
  if (event.type === "update_message") {
    if (!("orig_subject" in event) && !("subject" in event)) return event;
    const out: Event = { ...event };
    if ("orig_subject" in out) out.orig_subject = topic(out.orig_subject);
    if ("subject" in out) out.subject = topic(out.subject);
    return out;
  }
  if (event.type === "typing" && event.message_type === "stream") {
    if (!caps.stream_typing_notifications) return null;
    return { ...event, topic: topic(event.topic) };
  }
  if (event.type === "user_topic") return { ...event, topic_name: topic(event.topic_name) };
  return event;
}
