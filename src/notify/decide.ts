/**
 * Whether a message reaches a recipient by email and/or push: Zulip's UserMessageNotificationsData
 * (zerver/lib/notification_data.py) and maybe_enqueue_notifications, as one pure function that the
 * email pipeline and Web Push both use. Pure: the caller gathers the facts.
 */
import { FLAG } from "../domain/flags";
import { isTopicMuted, VISIBILITY } from "../domain/user-topics";
import type { UserSettings } from "../domain/user-settings";

/** Why a notification is sent, in Zulip's order of precedence. */
export type Trigger = "direct_message" | "mentioned" | "topic_wildcard_mentioned" | "stream_wildcard_mentioned" | "followed_topic" | "stream";

type NotifySettings = Pick<
  UserSettings,
  | "enable_offline_email_notifications"
  | "enable_offline_push_notifications"
  | "enable_online_push_notifications"
  | "enable_followed_topic_email_notifications"
  | "enable_followed_topic_push_notifications"
  | "enable_stream_email_notifications"
  | "enable_stream_push_notifications"
  | "wildcard_mentions_notify"
  | "enable_followed_topic_wildcard_mentions_notify"
>;

export interface RecipientFacts {
  userId: number;
  /** user_messages.flags as stored (read, mentioned, wildcards) */
  flags: number;
  isBot: boolean;
  settings: NotifySettings;
  /** has muted the sender */
  senderMuted: boolean;
  /** an event queue in use and presence active lately (activeClient in facts.ts) */
  activeClient: boolean;
  /** channel messages: the subscription's overrides (null: the personal setting) and mutes */
  channel?: {
    muted: boolean;
    topicPolicy: number;
    emailNotify: boolean | null;
    pushNotify: boolean | null;
    wildcardNotify: boolean | null;
  };
}

export interface MessageFacts {
  senderId: number;
  direct: boolean;
}

export interface Decision {
  email: Trigger | null;
  push: Trigger | null;
}

const NONE: Decision = { email: null, push: null };

/** The triggers that apply to this recipient, before the per-transport switches. */
function triggers(m: MessageFacts, r: RecipientFacts, transport: "email" | "push"): Trigger | null {
  const s = r.settings;
  const offline = transport === "email" ? s.enable_offline_email_notifications : s.enable_offline_push_notifications;
  // Zulip's email sender drops every missed-message email of someone with offline emails off
  // (handle_missedmessage_emails), followed topics and channel emails included
  if (transport === "email" && !offline) return null;
  if (m.direct) return offline ? "direct_message" : null;
  const c = r.channel!;
  const followed = c.topicPolicy === VISIBILITY.followed;
  if (r.flags & FLAG.mentioned && offline) return "mentioned";
  // wildcards: the channel's wildcard_mentions_notify over the personal one, or a followed topic's own switch
  const wildcardsNotify = (c.wildcardNotify ?? s.wildcard_mentions_notify) || (followed && s.enable_followed_topic_wildcard_mentions_notify);
  if (wildcardsNotify && offline) {
    if (r.flags & FLAG.topic_wildcard_mentioned) return "topic_wildcard_mentioned";
    if (r.flags & FLAG.stream_wildcard_mentioned) return "stream_wildcard_mentioned";
  }
  if (followed && (transport === "email" ? s.enable_followed_topic_email_notifications : s.enable_followed_topic_push_notifications)) return "followed_topic";
  const channelNotify = transport === "email" ? (c.emailNotify ?? s.enable_stream_email_notifications) : (c.pushNotify ?? s.enable_stream_push_notifications);
  return channelNotify ? "stream" : null;
}

/**
 * Per recipient: whether an email applies (only with no active client) and whether a push does
 * (with no active client, or with enable_online_push_notifications). Nothing for one's own message,
 * a bot, a muted sender, a message already read (muted senders' and one's own are born read), or a
 * channel message in a muted topic or channel.
 */
export function decideNotifications(m: MessageFacts, r: RecipientFacts): Decision {
  if (r.userId === m.senderId || r.isBot || r.senderMuted || r.flags & FLAG.read) return NONE;
  if (!m.direct && (!r.channel || isTopicMuted(r.channel.muted, r.channel.topicPolicy))) return NONE;
  return {
    email: r.activeClient ? null : triggers(m, r, "email"),
    push: r.activeClient && !r.settings.enable_online_push_notifications ? null : triggers(m, r, "push"),
  };
}
