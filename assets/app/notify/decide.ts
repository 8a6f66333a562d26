/**
 * Whether a new message should alert the person, and how (pure, over the state before the message
 * and the message event), following Zulip's web app (message_notifications.ts) and the person's
 * settings: never their own messages, ones already read (muted senders' arrive read), or while they
 * look at the page; muted channels and topics are quiet unless the message mentions them by name or is
 * in a followed topic; then a desktop notification and a sound each by their own settings: for direct
 * messages, personal and group mentions, wildcard mentions (as wildcard_mentions_notify says, per
 * channel too), followed topics, alert words, and channels set to notify for every message.
 */
import { isTopicMuted, POLICY, topicPolicy } from "../state/user-topics";
import { keyIds, messageDmKey, userName } from "../state/people";
import type { Message, State } from "../state/types";

export interface Alert {
  desktop: boolean;
  sound: boolean;
}

type Channelwise = "desktop_notifications" | "audible_notifications" | "wildcard_mentions_notify";

/** A channel's own choice, or the person's general one (Zulip's stream_data.receives_notifications). */
function receives(state: State, streamId: number, setting: Channelwise): boolean {
  const own = state.subscriptions[streamId]?.[setting];
  if (typeof own === "boolean") return own;
  if (setting === "desktop_notifications") return state.settings.enable_stream_desktop_notifications;
  if (setting === "audible_notifications") return state.settings.enable_stream_audible_notifications;
  return state.settings.wildcard_mentions_notify;
}

const WILDCARD = ["stream_wildcard_mentioned", "topic_wildcard_mentioned"];

/** Zulip's message_is_notifiable: what may alert at all, whatever the settings. */
function notifiable(state: State, m: Message, flags: readonly string[]): boolean {
  if (m.sender_id === state.me || flags.includes("read") || state.muted_users.includes(m.sender_id)) return false;
  if (flags.includes("mentioned")) return true;
  if (m.type !== "stream") return true;
  if (topicPolicy(state, m.stream_id!, m.subject) === POLICY.followed) return true;
  return !isTopicMuted(state, m.stream_id!, m.subject);
}

function wants(state: State, m: Message, flags: readonly string[], kind: "desktop" | "sound"): boolean {
  const s = state.settings;
  const stream = m.type === "stream";
  const followed = stream && topicPolicy(state, m.stream_id!, m.subject) === POLICY.followed;
  if (kind === "sound" && s.notification_sound === "none") return false;
  if (stream && receives(state, m.stream_id!, kind === "desktop" ? "desktop_notifications" : "audible_notifications")) return true;
  if (followed && (kind === "desktop" ? s.enable_followed_topic_desktop_notifications : s.enable_followed_topic_audible_notifications)) return true;
  if (!(kind === "desktop" ? s.enable_desktop_notifications : s.enable_sounds)) return false;
  if (!stream || flags.includes("has_alert_word") || flags.includes("mentioned")) return true;
  const wildcard = flags.some((f) => WILDCARD.includes(f));
  if (wildcard && receives(state, m.stream_id!, "wildcard_mentions_notify")) return true;
  return wildcard && followed && s.enable_followed_topic_wildcard_mentions_notify;
}

/**
 * How a message event should alert the person, or null for not at all. `pageActive`: the page is shown
 * and has the focus (then the message is seen where it lands, and nothing pops up).
 */
export function alertFor(state: State, event: { type: string; message?: Message; flags?: string[] }, pageActive: boolean): Alert | null {
  if (event.type !== "message" || !event.message || pageActive) return null;
  const m = event.message;
  const flags = event.flags ?? [];
  if (!notifiable(state, m, flags)) return null;
  const alert = { desktop: wants(state, m, flags, "desktop"), sound: wants(state, m, flags, "sound") };
  return alert.desktop || alert.sound ? alert : null;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'", nbsp: " " };

/** A message's rendered HTML as plain text for a notification (tags out, entities decoded, spaces folded). */
export function plainText(html: string): string {
  return html
    .replace(/<(br|\/p|\/li|\/h\d|\/blockquote|\/pre)\b[^>]*>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
      const known = ENTITIES[name.toLowerCase()];
      if (known !== undefined) return known;
      if (name.startsWith("#")) {
        const code = name[1]!.toLowerCase() === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
      }
      return whole;
    })
    .replace(/\s+/g, " ")
    .trim();
}

export interface NotificationText {
  title: string;
  body: string;
  /** one notification per message: a later one for the same message replaces it */
  tag: string;
}

const MAX_BODY = 150;

/** What the notification says, as Zulip's does: who wrote, where, and (unless the person hides it for direct messages) what. */
export function notificationText(state: State, m: Message): NotificationText {
  const sender = state.users[m.sender_id]?.full_name ?? m.sender_full_name;
  let title = sender;
  if (m.type === "stream") title = `${sender} (#${state.channels[m.stream_id!]?.name ?? "channel"} › ${m.subject || state.realm.empty_topic_display_name})`;
  else {
    const others = keyIds(messageDmKey(state.me, m)).filter((id) => id !== m.sender_id);
    if (others.length) title = `${sender} (to you and ${others.map((id) => userName(state.users, id)).sort((a, b) => a.localeCompare(b)).join(", ")})`;
  }
  let body = plainText(m.content);
  if (m.type === "private" && !state.settings.pm_content_in_desktop_notifications) body = `New direct message from ${sender}`;
  if (body.length > MAX_BODY) body = `${body.slice(0, MAX_BODY - 1).trimEnd()}…`;
  return { title, body, tag: String(m.id) };
}
