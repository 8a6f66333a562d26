import { realmOf, type App } from "../../app";
import { flagList } from "../../domain/flags";
import { topicLinks, type Linkifier } from "../../domain/markdown";
import { displayTopic } from "../../domain/topic";
import { editHistoryPolicy, visibleEditHistory } from "../../domain/edit-history";
import { avatarUrl, dummyEmail, inaccessibleAvatarUrl, INACCESSIBLE_USER_NAME } from "../../domain/user-format";
import { emailHost } from "../email-visibility";
import type { MessageRow } from "../../store/messages";
import type { ReactionRow } from "../../store/reactions";
import type { SubmessageRow } from "../../store/submessages";
import type { Directory, DirectoryUser } from "./directory";
import { emptyTopicName } from "./render";
import { linkifierList } from "../linkifiers";

export interface FormatOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
  /** the users the viewer may see (accessibleUserIds; null or absent: everyone) */
  accessibleUsers?: ReadonlySet<number> | null;
}

/** The organization's linkifiers as last loaded by loadTopicLinkifiers, for `topic_links`. */
const topicLinkifiers = new WeakMap<App, Linkifier[]>();

/**
 * Brings the linkifiers that message objects' `topic_links` use up to date (the linkifiers area
 * keeps them in memory, so this is cheap): call it before formatting messages.
 */
export async function loadTopicLinkifiers(app: App): Promise<Linkifier[]> {
  const list = await linkifierList(app);
  topicLinkifiers.set(app, list);
  return list;
}

/** Zulip's `topic_links` of a channel topic with the organization's linkifiers (as last loaded). */
export const topicLinksOf = (app: App, topic: string) => topicLinks(topic, topicLinkifiers.get(app) ?? []);

/** The participants of a direct-message conversation, from its key ("3,7,9"). */
export const dmParticipants = (key: string) => key.split(",").map(Number);

const UNKNOWN = (id: number): Pick<DirectoryUser, "id" | "email" | "full_name"> => ({ id, email: `user${id}@unknown`, full_name: "Unknown user" });

function displayUser(dir: Directory, id: number) {
  const u = dir.users.get(id) ?? UNKNOWN(id);
  return { email: u.email, full_name: u.full_name, id: u.id, is_mirror_dummy: false };
}

/** What hangs on a message besides its row: its reactions and its submessages (widgets). */
export interface Attached {
  reactions: ReactionRow[];
  submessages: SubmessageRow[];
}

/** A message with nothing attached (a new message without a widget). */
export const NOTHING_ATTACHED: Attached = { reactions: [], submessages: [] };

/** Reactions in message objects (the legacy `user` object went away at feature level 328). */
export function reactionDicts(rows: ReactionRow[]) {
  return rows.map((r) => ({ emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type, user_id: r.user_id }));
}

/** Submessages in message objects (Zulip's SubMessage.get_raw_db_rows), in id order. */
export function submessageDicts(rows: SubmessageRow[]) {
  return rows.map((s) => ({ id: s.id, message_id: s.message_id, sender_id: s.sender_id, msg_type: s.msg_type, content: s.content }));
}

/** The edit history entries (newest first) for clients, with empty topics shown the client's way. */
export function editHistory(row: MessageRow, emptyName: string, allowEmpty: boolean): Record<string, unknown>[] {
  if (!row.edit_history) return [];
  const entries = JSON.parse(row.edit_history) as Record<string, unknown>[];
  return entries.map((e) => {
    const out = { ...e };
    for (const k of ["topic", "prev_topic"]) if (typeof out[k] === "string") out[k] = displayTopic(out[k] as string, emptyName, allowEmpty);
    return out;
  });
}

/**
 * Zulip's message object as `viewerId` sees it (recipient_id of an incoming 1:1 message is the
 * conversation's, i.e. the sender's). Without `opts` the content is left to the event queues
 * (raw_content, rendered_content, avatar_url_full), which shape it per queue.
 */
export function messageDict(app: App, dir: Directory, row: MessageRow, attached: Attached, viewerId: number, opts: FormatOptions | null): Record<string, unknown> {
  const sender = dir.users.get(row.sender_id);
  const emptyName = emptyTopicName(app);
  const allowEmpty = opts ? opts.allowEmptyTopicName : true;
  const out: Record<string, unknown> = {
    id: row.id,
    sender_id: row.sender_id,
    content: "",
    recipient_id: row.recipient_id,
    timestamp: Math.floor(row.date_sent),
    client: row.client,
    subject: row.stream_id !== null ? displayTopic(row.topic, emptyName, allowEmpty) : "",
    topic_links: row.stream_id !== null ? topicLinksOf(app, row.topic) : [],
    is_me_message: Boolean(row.is_me_message),
    reactions: reactionDicts(attached.reactions),
    submessages: submessageDicts(attached.submessages),
    sender_full_name: sender?.full_name ?? "Unknown user",
    sender_email: sender?.email ?? "",
    sender_realm_str: realmOf(app).string_id,
    display_recipient: "",
    type: row.stream_id !== null ? "stream" : "private",
    avatar_url: sender ? avatarUrl(sender, opts ? opts.clientGravatar : true) : null,
    content_type: "text/html",
  };
  if (row.stream_id !== null) {
    out.display_recipient = dir.streams.get(row.stream_id)?.name ?? "";
    out.stream_id = row.stream_id;
  } else {
    const ids = dmParticipants(row.dm_key ?? String(row.sender_id));
    out.display_recipient = ids.map((id) => displayUser(dir, id));
    if (ids.length === 2 && viewerId !== row.sender_id && sender?.recipient_id) out.recipient_id = sender.recipient_id;
  }
  if (row.last_edit_time !== null) out.last_edit_timestamp = Math.floor(row.last_edit_time);
  if (row.last_moved_time !== null) out.last_moved_timestamp = Math.floor(row.last_moved_time);
  if (row.edit_history) {
    const visible = visibleEditHistory(editHistory(row, emptyName, allowEmpty), editHistoryPolicy(realmOf(app).settings));
    if (visible.length) out.edit_history = visible;
  }
  if (opts) {
    out.content = opts.applyMarkdown ? row.rendered_content : row.content;
    out.content_type = opts.applyMarkdown ? "text/html" : "text/x-markdown";
  } else {
    delete out.content;
    delete out.content_type;
    out.raw_content = row.content;
    out.rendered_content = row.rendered_content;
    if (sender) out.avatar_url_full = avatarUrl(sender, false);
  }
  return out;
}

/** A fetched message: the message object with the viewer's flags. */
export function fetchedMessage(app: App, dir: Directory, row: MessageRow, attached: Attached, viewerId: number, flags: number, opts: FormatOptions) {
  const dict = messageDict(app, dir, row, attached, viewerId, opts);
  const out = opts.accessibleUsers && !opts.accessibleUsers.has(row.sender_id) ? withUnknownSender(app, dict) : dict;
  out.flags = flagList(flags);
  return out;
}

/**
 * A message as a guest who may not see its sender gets it (Zulip's can_access_sender): a channel
 * message from someone they share no channel with any more, or from a non-subscriber.
 */
export function withUnknownSender(app: App, message: Record<string, unknown>): Record<string, unknown> {
  const email = dummyEmail(message.sender_id as number, emailHost(app));
  const { avatar_url_full: _, ...out } = message;
  return { ...out, sender_full_name: INACCESSIBLE_USER_NAME, sender_email: email, avatar_url: inaccessibleAvatarUrl(email) };
}
