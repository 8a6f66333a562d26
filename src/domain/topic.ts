/** Topic and content rules shared by send, edit, narrows and scheduling (Zulip's zerver/lib/message.py). */

export const RESOLVED_TOPIC_PREFIX = "✔ ";
export const EMPTY_TOPIC_ALIASES = ["(no topic)"];

/** Zulip's truncate_content: cut to `max` code points including the marker. */
export function truncate(text: string, max: number, marker: string): string {
  if (text.length <= max) return text; // UTF-16 length ≥ code points
  const points = Array.from(text);
  if (points.length <= max) return text;
  return points.slice(0, max - Array.from(marker).length).join("") + marker;
}

/** Message content as stored: trailing whitespace and leading blank lines dropped, null bytes refused, truncated. */
export function normalizeContent(raw: string, maxLength: number): { content: string } | { error: string } {
  const content = raw.trimEnd().replace(/^\n+/, "");
  if (content === "") return { error: "Message must not be empty" };
  if (content.includes("\u0000")) return { error: "Message must not contain null bytes" };
  return { content: truncate(content, maxLength, "\n[message truncated]") };
}

/** Code points Zulip refuses in topics and channel names: controls, surrogates and the 66 non-characters. */
export function firstUnprintable(s: string): number | null {
  let i = 0;
  for (const ch of s) {
    i++;
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return i;
    if (cp >= 0xd800 && cp <= 0xdfff) return i;
    if ((cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe) return i;
  }
  return null;
}

/**
 * A topic as given by a client: stripped, "(no topic)" and the organization's empty-topic display
 * name meaning the empty topic, truncated with "..." to the limit.
 */
export function normalizeTopic(raw: string, maxLength: number, emptyTopicDisplayName: string): { topic: string } | { error: string } {
  let topic = raw.trim();
  if (EMPTY_TOPIC_ALIASES.includes(topic) || topic === emptyTopicDisplayName) topic = "";
  const bad = firstUnprintable(topic);
  if (bad !== null) return { error: `Invalid character in topic, at position ${bad}!` };
  return { topic: truncate(topic, maxLength, "...") };
}

export const isResolved = (topic: string) => topic.startsWith(RESOLVED_TOPIC_PREFIX);

/** The topic without any resolved prefixes (Zulip strips every leading "✔ "). */
export function unresolvedName(topic: string): string {
  let t = topic;
  while (t.startsWith(RESOLVED_TOPIC_PREFIX)) t = t.slice(RESOLVED_TOPIC_PREFIX.length);
  return t.replace(/^✔+\s*/, "");
}

/** Whether going from `from` to `to` only resolves or unresolves the same topic. */
export function resolveChange(from: string, to: string): "resolved" | "unresolved" | null {
  if (!isResolved(from) && isResolved(to) && unresolvedName(to) === from) return "resolved";
  if (isResolved(from) && !isResolved(to) && unresolvedName(from) === to) return "unresolved";
  return null;
}

/** Case-insensitive topic identity (topics are matched without case in Zulip). */
export const topicKey = (streamId: number, topic: string) => `${streamId}\u0000${topic.toLowerCase()}`;

/** realm_empty_topic_display_name when the organization has not named the empty topic. */
export const DEFAULT_EMPTY_TOPIC_NAME = "general chat";

/** The organization's name for the empty topic, from its settings. */
export const emptyTopicNameOf = (settings: Record<string, unknown> | undefined) => {
  const v = settings?.empty_topic_display_name;
  return typeof v === "string" && v ? v : DEFAULT_EMPTY_TOPIC_NAME;
};

/** The empty topic as clients without the empty_topic_name capability see it. */
export const displayTopic = (topic: string, emptyTopicDisplayName: string, allowEmpty: boolean) =>
  topic === "" && !allowEmpty ? emptyTopicDisplayName : topic;
