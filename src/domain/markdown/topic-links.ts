import { compileLinkifiers, linkifierMatches } from "./linkifiers";
import { linkify } from "./linkify";
import type { Linkifier } from "./types";

export type TopicLink = { text: string; url: string };

/**
 * Zulip's `topic_links` of a message: the organization's linkifiers applied to the topic, then the raw URLs
 * in it (scheme-less ones as https), in the order they appear, overlapping ones dropped.
 */
export function topicLinks(topic: string, linkifiers: Linkifier[] = []): TopicLink[] {
  const found: { index: number; end: number; text: string; url: string }[] = linkifierMatches(
    topic,
    compileLinkifiers(linkifiers),
  );
  for (const m of linkify.match(topic) ?? []) {
    const url = m.schema === "" ? `https://${m.raw}` : m.url;
    if (m.schema === "mailto:" || !/^https?:/i.test(url)) continue;
    found.push({ index: m.index, end: m.lastIndex, text: m.raw, url });
  }
  found.sort((a, b) => a.index - b.index);
  const kept: typeof found = [];
  for (const m of found) if (kept.length === 0 || m.index >= kept[kept.length - 1]!.end) kept.push(m);
  return kept.map(({ text, url }) => ({ text, url }));
}
