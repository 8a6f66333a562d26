import type { Event, QueueOptions } from "./queue";
import { matchesQueueNarrow } from "../domain/narrow";
import { withoutPronounsType } from "../domain/profile-fields";

type Message = Record<string, unknown>;

/** Whether a queue's narrow (given at /register) leaves this message event out. */
export function outsideNarrow(event: Event, o: QueueOptions): boolean {
  if (event.type !== "message" || !o.narrow.length) return false;
  const m = event.message as any;
  return !matchesQueueNarrow(o.narrow, {
    type: m.type,
    streamName: typeof m.display_recipient === "string" ? m.display_recipient : undefined,
    streamId: m.stream_id,
    topic: m.subject,
    senderEmail: m.sender_email,
    senderId: m.sender_id,
    flags: (event.flags as string[]) ?? [],
  });
}

/** A message dict as a queue sees it: content as HTML or Markdown, the avatar, the empty topic's name. */
export function formatMessage(message: Message, o: QueueOptions, emptyTopicName: string): Message {
  const { rendered_content, raw_content, avatar_url_full, ...rest } = message as any;
  const out: Message = {
    ...rest,
    content: o.applyMarkdown ? rendered_content : raw_content,
    content_type: o.applyMarkdown ? "text/html" : "text/x-markdown",
  };
  if (rest.type === "stream" && rest.subject === "" && !o.capabilities?.empty_topic_name) out.subject = emptyTopicName;
  if (!o.clientGravatar && rest.avatar_url === null && avatar_url_full !== undefined) out.avatar_url = avatar_url_full;
  return out;
}

/**
 * Per-queue shaping of an event, decided at /register: message content as HTML or Markdown
 * (apply_markdown), gravatar URLs left to the client (client_gravatar), and the client capabilities
 * (empty_topic_name, bulk_message_deletion, user_list_incomplete and the others below) and
 * slim_presence. Everything read here from the options must be in the queue's shapeKey (queue.ts):
 * queues with the same key share the result. The narrow is outsideNarrow's.
 * Returns null to drop it, or several events for one (the older forms of some events).
 * `message` formats a message dict (fanout.ts passes one that formats each dict once per form).
 */
export function formatForQueue(
  event: Event,
  o: QueueOptions,
  emptyTopicName: string,
  message: (m: Message) => Message = (m) => formatMessage(m, o, emptyTopicName),
): Event | Event[] | null {
  const caps = o.capabilities ?? {};
  // clients without empty_topic_name see the organization's name for the empty topic (realm_empty_topic_display_name)
  const topic = (t: unknown) => (t === "" && !caps.empty_topic_name ? emptyTopicName : t);
  if (event.type === "message") return { ...event, message: message(event.message as Message) };
  if (event.type === "delete_message") {
    const out: Event = { ...event };
    if ("topic" in out) out.topic = topic(out.topic);
    // Without bulk_message_deletion a client understands one message per delete_message event.
    if (!caps.bulk_message_deletion && Array.isArray(out.message_ids)) {
      const { message_ids, ...rest } = out as any;
      return (message_ids as number[]).map((id) => ({ ...rest, message_id: id }));
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
  // Presence comes in two shapes: the simplified one (FL 419) or the legacy per-client one.
  if (event.type === "presence" && event.presences) {
    const { presences, user_id, email, server_timestamp, presence, ...rest } = event as any;
    if (caps.simplified_presence_events) return { ...rest, presences };
    return o.slimPresence ? { ...rest, user_id, server_timestamp, presence } : { ...rest, user_id, email, server_timestamp, presence };
  }
  // Without include_deactivated_groups a deactivated group simply disappears.
  if (event.type === "user_group" && event.op === "update" && (event.data as any)?.deactivated === true && !caps.include_deactivated_groups) {
    return { type: "user_group", op: "remove", group_id: event.group_id };
  }
  // a change to a deactivated group: only for clients that still know it (Zulip sends those only renames)
  if (event.type === "user_group" && event.for_deactivated_group) {
    if (!caps.include_deactivated_groups) return null;
    const { for_deactivated_group: _, ...rest } = event as any;
    return rest;
  }
  // a user the guest may not see: only clients that keep a complete user list (Zulip's inaccessible_user)
  if (event.type === "realm_user" && event.inaccessible_user) {
    if (caps.user_list_incomplete) return null;
    const { inaccessible_user: _, ...rest } = event as any;
    return rest;
  }
  if (event.type === "custom_profile_fields" && caps.pronouns_field_type_supported === false) {
    return { ...event, fields: withoutPronounsType(event.fields as Record<string, unknown>[]) };
  }
  if (event.type === "user_topic") return { ...event, topic_name: topic(event.topic_name) };
  if (event.type === "update_message_flags" && event.message_details && !caps.empty_topic_name) {
    const details: Record<string, unknown> = {};
    for (const [id, d] of Object.entries(event.message_details as Record<string, Record<string, unknown>>)) {
      details[id] = d.type === "stream" ? { ...d, topic: topic(d.topic) } : d;
    }
    return { ...event, message_details: details };
  }
  if (event.type === "muted_topics" && !caps.empty_topic_name) {
    return { ...event, muted_topics: (event.muted_topics as [string, string, number][]).map(([c, t, ts]) => [c, topic(t), ts]) };
  }
  // Archiving a channel: clients that keep archived channels (archived_channels) get is_archived and
  // keep it; older clients get stream delete instead (and on unarchiving, stream create).
  if (event.type === "stream" && event.op === "delete" && "for_archiving" in event) {
    if (caps.archived_channels) return null;
    const { for_archiving: _, ...rest } = event as any;
    return rest;
  }
  if (event.type === "stream" && event.op === "update" && event.property === "is_archived" && !caps.archived_channels) return null;
  if (event.type === "stream" && event.op === "create") {
    const { for_unarchiving, ...rest } = event as any;
    // unarchiving brings the channel back to older clients; the others kept it and get is_archived
    if (for_unarchiving) return caps.archived_channels ? null : rest;
    if (caps.archived_channels) return event;
    const streams = (rest.streams as { is_archived?: boolean }[]).filter((st) => !st.is_archived);
    return streams.length ? { ...rest, streams } : null;
  }
  // Legacy settings events only for clients without user_settings_object; linkifiers only for clients
  // that understand URL templates (Zulip's accepts_event).
  if ((event.type === "update_display_settings" || event.type === "update_global_notifications") && caps.user_settings_object) return null;
  if (event.type === "realm_linkifiers" && !caps.linkifier_url_template) return null;
  return event;
}
