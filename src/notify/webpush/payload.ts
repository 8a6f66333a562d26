/**
 * What a push says (pure): who wrote, where, what (plain text, shortened, or nothing when the
 * organization keeps message content out of notifications), and the link into the web app. The
 * service worker (assets/app/notify/sw-logic.ts) turns it into the notification.
 */
import { encodeChannel, encodeHashComponent } from "../../domain/markdown/urls";

export interface Person {
  id: number;
  name: string;
}

export type Conversation =
  | { type: "stream"; channel_id: number; channel: string; topic: string }
  /** the direct message's other people (the sender included), not the person told */
  | { type: "private"; people: Person[] };

export interface WebPushPayload {
  message_id: number;
  trigger: string;
  sender: Person & { avatar_url: string | null };
  conversation: Conversation;
  /** null when the organization hides message content in notifications */
  content: string | null;
  /** the conversation in the web app, at this message */
  url: string;
}

/** Zulip's truncate_content for pushes: 200 characters (a push service takes about 4 KB in all). */
export const MAX_CONTENT = 200;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'", nbsp: " " };

/** Rendered message HTML as one line of plain text. */
export function plainText(html: string): string {
  return html
    .replace(/<(br|\/p|\/li|\/h\d|\/blockquote|\/pre|\/tr)\b[^>]*>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
      const known = ENTITIES[name.toLowerCase()];
      if (known !== undefined) return known;
      if (!name.startsWith("#")) return whole;
      const code = name[1]!.toLowerCase() === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .replace(/\s+/g, " ")
    .trim();
}

/** At most `max` characters (code points), "…" marking the cut. */
export function shorten(text: string, max = MAX_CONTENT): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

/** Zulip's slug for people in a link: "5-King-Hamlet" for one, "5,9-group" for several. */
function peopleSlug(people: Person[]): string {
  const ids = people.map((p) => p.id).sort((a, b) => a - b);
  if (ids.length !== 1) return `${ids.join(",")}-group`;
  return `${ids[0]}-${encodeHashComponent(people[0]!.name.replace(/[ "%/<>`]+/g, "-"))}`;
}

/** Zulip's hash URL of the conversation near the message, on the server's address. */
export function conversationUrl(externalUrl: string, c: Conversation, messageId: number): string {
  const base = externalUrl.replace(/\/+$/, "");
  if (c.type === "stream") return `${base}/#narrow/channel/${encodeChannel(c.channel_id, c.channel)}/topic/${encodeHashComponent(c.topic)}/near/${messageId}`;
  return `${base}/#narrow/dm/${peopleSlug(c.people)}/near/${messageId}`;
}

export function buildPayload(p: {
  externalUrl: string;
  messageId: number;
  trigger: string;
  sender: WebPushPayload["sender"];
  conversation: Conversation;
  renderedContent: string;
  showContent: boolean;
}): WebPushPayload {
  return {
    message_id: p.messageId,
    trigger: p.trigger,
    sender: p.sender,
    conversation: p.conversation,
    content: p.showContent ? shorten(plainText(p.renderedContent)) : null,
    url: conversationUrl(p.externalUrl, p.conversation, p.messageId),
  };
}
