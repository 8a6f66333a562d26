/** The API calls the views make, named for what they do. Their results reach the state as events. */
import { apiNarrow, type Narrow } from "../state/narrow";
import { viewBeforeRegister } from "../nav/hash";
import { takeEarly, type EarlyAnswer } from "./first-messages";
import { api, type Params } from "./http";

export type Anchor = number | "newest" | "oldest" | "first_unread";

const messagesParams = (narrow: Narrow, anchor: Anchor, numBefore: number, numAfter: number, includeAnchor: boolean) => ({
  narrow: apiNarrow(narrow),
  anchor,
  num_before: numBefore,
  num_after: numAfter,
  include_anchor: includeAnchor,
  apply_markdown: true,
  client_gravatar: false,
  allow_empty_topic_name: true,
});

/** GET /messages; the first call of the page may take the answer asked for at start-up (first-messages.ts). */
export function fetchMessages(narrow: Narrow, anchor: Anchor, numBefore: number, numAfter: number, includeAnchor = true): Promise<EarlyAnswer> {
  const params = messagesParams(narrow, anchor, numBefore, numAfter, includeAnchor);
  return takeEarly(params) ?? api("GET", "/messages", params);
}

/**
 * What a message view asks for when it opens (MessageView, and boot.tsx ahead of it): 50 messages either
 * side of the first unread one, of a linked one (`near`), or for a search of its newest results.
 */
export const openingFetch = (narrow: Narrow, near?: number) => [narrow, near ?? (narrow.kind === "search" ? "newest" : "first_unread"), 50, 50] as const;

/** What Recent conversations asks for: the newest 400 messages of all. */
export const RECENT_NARROW: Narrow = { kind: "all" };
export const recentFetch = () => [RECENT_NARROW, "newest", 400, 0] as const;

/**
 * The GET /messages parameters of the view a hash names, when they can be known before /register has
 * answered (nav/hash.ts viewBeforeRegister); null otherwise. The page's start-up script sends them
 * (start-requests.ts) and the view asks with the very same ones as it opens, so it takes that answer.
 */
export function firstViewParams(hash: string): Params | null {
  const v = viewBeforeRegister(hash);
  const first: readonly [Narrow, Anchor, number, number] | null = v?.kind === "narrow" ? openingFetch(v.narrow, v.near) : v?.kind === "recent" ? recentFetch() : null;
  return first && messagesParams(...first, true);
}

export const fetchTopics = (streamId: number) =>
  api<{ topics: { name: string; max_id: number }[] }>("GET", `/users/me/${streamId}/topics`, { allow_empty_topic_name: true }).then((r) => r.topics);

export type Destination = { type: "stream"; stream_id: number; topic: string } | { type: "direct"; user_ids: number[] };

export function sendMessage(to: Destination, content: string, local: { queueId: string; localId: string }) {
  const target = to.type === "stream" ? { type: "stream", to: to.stream_id, topic: to.topic } : { type: "direct", to: to.user_ids };
  return api<{ id: number }>("POST", "/messages", { ...target, content, queue_id: local.queueId, local_id: local.localId, read_by_sender: true });
}

export const markMessagesRead = (ids: number[]) => api("POST", "/messages/flags", { messages: ids, op: "add", flag: "read" });

/**
 * Marks every message of a narrow read or unread from an anchor on, a thousand at a time, as Zulip's web
 * app does ("mark all as read" for a view, "mark as unread from here").
 */
export async function flagNarrow(narrow: Narrow, op: "add" | "remove", anchor: Anchor = "oldest", includeAnchor = true): Promise<void> {
  let next: Anchor = anchor;
  let include = includeAnchor;
  for (let round = 0; round < 100; round++) {
    const r = await api<{ found_newest: boolean; last_processed_id: number | null }>("POST", "/messages/flags/narrow", {
      narrow: apiNarrow(narrow),
      anchor: next,
      include_anchor: include,
      num_before: 0,
      num_after: 1000,
      op,
      flag: "read",
    });
    if (r.found_newest || r.last_processed_id === null) return;
    next = r.last_processed_id;
    include = false;
  }
}

export const markAllRead = () => api("POST", "/mark_all_as_read");
export const markChannelRead = (streamId: number) => api("POST", "/mark_stream_as_read", { stream_id: streamId });
export const markTopicRead = (streamId: number, topic: string) => api("POST", "/mark_topic_as_read", { stream_id: streamId, topic_name: topic });

export const setTopicPolicy = (streamId: number, topic: string, policy: number) => api("POST", "/user_topics", { stream_id: streamId, topic, visibility_policy: policy });

export const setSubscriptionProperty = (streamId: number, property: "is_muted" | "pin_to_top", value: boolean) =>
  api("POST", "/users/me/subscriptions/properties", { subscription_data: [{ stream_id: streamId, property, value }] });

export const updateSetting = (name: string, value: unknown) => api("PATCH", "/settings", { [name]: value });
export const changePassword = (oldPassword: string, newPassword: string) => api("PATCH", "/settings", { old_password: oldPassword, new_password: newPassword });

// Writing: previews, typing notices, drafts, messages to send later.

export const renderMarkdown = (content: string) => api<{ rendered: string }>("POST", "/messages/render", { content }).then((r) => r.rendered);

export type TypingTo = { type: "stream"; stream_id: number; topic: string } | { type: "direct"; to: number[] };
export const setTyping = (op: "start" | "stop", to: TypingTo) => api("POST", "/typing", { op, ...to });

export interface DraftFields {
  type: "" | "stream" | "private";
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}
export const createDraft = (d: DraftFields) => api<{ ids: number[] }>("POST", "/drafts", { drafts: [d] }).then((r) => r.ids[0]!);
export const editDraft = (id: number, d: DraftFields) => api("PATCH", `/drafts/${id}`, { draft: d });
export const deleteDraft = (id: number) => api("DELETE", `/drafts/${id}`);

/** Where a scheduled message goes: `to` is the channel id, or the people's ids (as JSON). */
function scheduledTarget(to: Destination) {
  return to.type === "stream" ? { type: "stream", to: String(to.stream_id), topic: to.topic } : { type: "direct", to: JSON.stringify(to.user_ids) };
}
export const scheduleMessage = (to: Destination, content: string, at: number) =>
  api<{ scheduled_message_id: number }>("POST", "/scheduled_messages", { ...scheduledTarget(to), content, scheduled_delivery_timestamp: at, read_by_sender: true }).then((r) => r.scheduled_message_id);
export const editScheduledMessage = (id: number, change: { to?: Destination; content?: string; at?: number }) =>
  api("PATCH", `/scheduled_messages/${id}`, { ...(change.to ? scheduledTarget(change.to) : {}), content: change.content, scheduled_delivery_timestamp: change.at });
export const deleteScheduledMessage = (id: number) => api("DELETE", `/scheduled_messages/${id}`);

// Reacting: emoji reactions and widget events (poll votes, tasks).

export interface EmojiRef {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}
export const addReaction = (messageId: number, e: EmojiRef) => api("POST", `/messages/${messageId}/reactions`, { ...e });
export const removeReaction = (messageId: number, e: EmojiRef) => api("DELETE", `/messages/${messageId}/reactions`, { ...e });

export const sendWidgetEvent = (messageId: number, data: object) => api("POST", "/submessage", { message_id: messageId, msg_type: "widget", content: JSON.stringify(data) });

// Acting on messages: editing, moving, deleting, starring, their history.

export type PropagateMode = "change_one" | "change_later" | "change_all";

export interface MessageChange {
  content?: string;
  topic?: string;
  stream_id?: number;
  propagate_mode?: PropagateMode;
  send_notification_to_old_thread?: boolean;
  send_notification_to_new_thread?: boolean;
}

/** Edits a message's text, or moves it (and, by propagate_mode, others of its topic) to a topic or channel. */
export const editMessage = (id: number, change: MessageChange) => api("PATCH", `/messages/${id}`, { ...change });

export const deleteMessage = (id: number) => api("DELETE", `/messages/${id}`);

/** A message's Markdown source, as its sender wrote it. */
export const fetchMessageSource = (id: number) =>
  api<{ raw_content?: string; message: { content: string } }>("GET", `/messages/${id}`, { apply_markdown: false }).then((r) => r.message?.content ?? r.raw_content ?? "");

export interface HistoryEntry {
  topic: string;
  prev_topic?: string;
  stream?: number;
  prev_stream?: number;
  content?: string;
  rendered_content?: string;
  prev_content?: string;
  prev_rendered_content?: string;
  content_html_diff?: string;
  timestamp: number;
  user_id: number | null;
}

export const fetchMessageHistory = (id: number) =>
  api<{ message_history: HistoryEntry[] }>("GET", `/messages/${id}/history`, { allow_empty_topic_name: true }).then((r) => r.message_history);

export const setFlag = (ids: number[], flag: "starred" | "read", on: boolean) => api("POST", "/messages/flags", { messages: ids, op: on ? "add" : "remove", flag });

/** The newest message of a topic the person can see (a topic's actions name it), or null when there is none. */
export async function latestInTopic(streamId: number, topic: string): Promise<number | null> {
  const r = await fetchMessages({ kind: "topic", stream_id: streamId, topic }, "newest", 1, 0);
  return r.messages.at(-1)?.id ?? null;
}

// Inviting: a link others sign up with (Zulip's "Generate invite link").

export interface NewInviteLink {
  invite_as: number;
  /** null: the link never expires */
  invite_expires_in_minutes: number | null;
  include_realm_default_subscriptions: boolean;
}
export const createInviteLink = (p: NewInviteLink) =>
  api<{ invite_link: string }>("POST", "/invites/multiuse", { ...p, stream_ids: [] }).then((r) => r.invite_link);

/** An invitation as GET /invites lists it (seconds since the epoch; expiry_date null: never): a link or an email. */
export interface InviteLink {
  id: number;
  invited_by_user_id: number;
  invited: number;
  expiry_date: number | null;
  invited_as: number;
  is_multiuse: boolean;
  /** a reusable link's */
  link_url?: string;
  /** an email invitation's */
  email?: string;
  notify_referrer_on_join?: boolean;
}
/** The invitations the person may see, links and emails: an administrator everyone's, anyone else their own. */
export const fetchInvites = () => api<{ invites: InviteLink[] }>("GET", "/invites").then((r) => r.invites);
/** Revokes a link or an email invitation (two routes: their ids are counted apart in Zulip). */
export const revokeInvite = (i: Pick<InviteLink, "id" | "is_multiuse">) => api("DELETE", i.is_multiuse ? `/invites/multiuse/${i.id}` : `/invites/${i.id}`);
/** Sends an email invitation again (the same link). */
export const resendInvite = (id: number) => api("POST", `/invites/${id}/resend`);

export interface NewEmailInvites extends NewInviteLink {
  /** addresses separated by commas or newlines */
  invitee_emails: string;
  stream_ids: number[];
  notify_referrer_on_join: boolean;
}
/** Invites people by email (Zulip's POST /invites); INVITATION_FAILED errors carry the per-address reasons. */
export const sendEmailInvites = (p: NewEmailInvites) => api("POST", "/invites", { ...p });

// Channels: creating one, joining and leaving (the sidebar follows the subscription and stream events).

export interface NewChannel {
  name: string;
  description: string;
  invite_only: boolean;
  history_public_to_subscribers: boolean;
  is_web_public: boolean;
  /** the people subscribed with its creator */
  principals: number[];
  /** a notice in the organization's new-channel announcements channel */
  announce: boolean;
}

/** Creates a channel (POST /users/me/subscriptions makes one when the name is new) and subscribes its people. */
export const createChannel = (c: NewChannel) =>
  api("POST", "/users/me/subscriptions", {
    subscriptions: [{ name: c.name, description: c.description }],
    invite_only: c.invite_only,
    history_public_to_subscribers: c.history_public_to_subscribers,
    is_web_public: c.is_web_public,
    principals: c.principals,
    announce: c.announce,
  });

export const subscribeTo = (name: string) => api("POST", "/users/me/subscriptions", { subscriptions: [{ name }] });
export const unsubscribeFrom = (name: string) => api("DELETE", "/users/me/subscriptions", { subscriptions: [name] });
/** Zulip 10's unarchiving: PATCH /streams/{id} with is_archived false. */
export const unarchiveChannel = (streamId: number) => api("PATCH", `/streams/${streamId}`, { is_archived: false });
