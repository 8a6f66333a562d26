/**
 * Links into the web app's conversations, as Zulip builds them (zerver/lib/url_encoding.py):
 * `#narrow/channel/ID-name/topic/T` and `#narrow/dm/IDS-slug`, with its hash encoding.
 */

/** Zulip's encode_hash_component: percent-encoding with "." for "%" (and "." itself as ".2E"). */
export const encodeHashComponent = (s: string) => encodeURIComponent(s).replace(/[.()!'*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase()).replace(/%/g, ".");

export const channelNarrow = (streamId: number, name: string) => `#narrow/channel/${encodeHashComponent(`${streamId}-${name.replace(/ /g, "-")}`)}`;

export const topicNarrow = (streamId: number, name: string, topic: string) => `${channelNarrow(streamId, name)}/topic/${encodeHashComponent(topic)}`;

/** A direct-message conversation seen by one of its people: the others' ids, and the one other's name or "group". */
export function dmNarrow(otherIds: number[], otherName?: string): string {
  const slug = otherIds.length === 1 && otherName ? otherName.replace(/[ "%/<>`\p{C}]+/gu, "-") : "group";
  return `#narrow/dm/${[...otherIds].sort((a, b) => a - b).join(",")}-${encodeHashComponent(slug)}`;
}
