// Slack's message markup ("mrkdwn") to Zulip Markdown, by the rules of Zulip's
// slack_message_conversion.py: *bold*, ~strike~ and _italic_ only between punctuation, spaces or
// symbols; <!here>/<!channel>/<!everyone> as @**all**; <#C…|name> as #**name**; <@U…> as
// @**Full Name**; <url|label> as [label](url) and <url> as url; <mailto:a@b|a@b> as mailto:a@b.
// Code spans and blocks keep Slack's backticks, which Zulip Markdown reads the same way.
import { truncate } from "../../domain/topic";

export interface MarkupLookups {
  /** a Slack user id (and the short name a mention may carry) to the full name used in @-mentions */
  userName(slackId: string, shortName: string | undefined): string | undefined;
  /** a Slack channel id to its name */
  channelName(slackId: string): string | undefined;
}

// Zulip's SLACK_*_REGEX: the marker must follow the start of a line or punctuation/space/symbol
// (not the marker itself, a backtick, @, \ or a closing bracket/quote) and precede the same (not an
// opening bracket/quote).
const emphasis = (marker: string) => {
  const m = marker === "*" ? "\\*" : marker;
  return new RegExp(
    `((?![${m}\`@\\\\\\p{Pf}\\p{Pe}])[\\p{P}\\p{Zs}\\p{S}]|^)(${m})([^${m}]+)(${m})((?![${m}\`@\\\\\\p{Pi}\\p{Ps}])(?=[\\p{P}\\p{Zs}\\p{S}]|$))`,
    "gmu",
  );
};
const BOLD = emphasis("*");
const STRIKE = emphasis("~");
const ITALIC = emphasis("_");

const USER_MENTION = /<@([a-zA-Z0-9]+)(?:\|([a-zA-Z0-9]+))?>/g;
const CHANNEL_MENTION = /<#([A-Z0-9]+)(?:\|([^>]*))?>/g;
// Zulip's LINK_REGEX: an optional scheme, a lower-case domain with a top-level part, an optional
// port and path; the label is what follows the first "|".
const LINK = /<((?:http:\/\/www\.|https:\/\/www\.|http:\/\/|https:\/\/|ftp:\/\/)?[a-z0-9]+(?:[-.][a-z0-9]+)*\.[a-z]{2,63}(?::[0-9]{1,5})?(?:\/[^>]*)?(?:\|[^>]*)?)>/g;
const MAILTO = /<((?:mailto:)?[\w.-]+@[\w.-]+(?:\.\w+)+)(?:\|[\w.-]+@[\w.-]+(?:\.\w+)+)?>/g;

export interface Converted {
  content: string;
  hasLink: boolean;
}

export function convertSlackMarkup(text: string, lookups: MarkupLookups): Converted {
  let out = text;
  out = out.replace(BOLD, (_, before, _m, inner) => `${before}**${inner}**`);
  out = out.replace(STRIKE, (_, before, _m, inner) => `${before}~~${inner}~~`);
  out = out.replace(ITALIC, (_, before, _m, inner) => `${before}*${inner}*`);
  out = out.replaceAll("<!everyone>", "@**all**").replaceAll("<!channel>", "@**all**").replaceAll("<!here>", "@**all**");
  out = out.replace(CHANNEL_MENTION, (whole, id: string) => {
    const name = lookups.channelName(id);
    return name === undefined ? whole : `#**${name}**`;
  });
  out = out.replace(USER_MENTION, (whole, id: string, short: string | undefined) => {
    const name = lookups.userName(id, short);
    return name === undefined ? whole : `@**${name}**`;
  });
  let hasLink = false;
  out = out.replace(LINK, (_, inside: string) => {
    hasLink = true;
    const bar = inside.indexOf("|");
    return bar === -1 ? inside : `[${inside.slice(bar + 1)}](${inside.slice(0, bar)})`;
  });
  out = out.replace(MAILTO, (_, address: string) => {
    hasLink = true;
    return address;
  });
  return { content: out, hasLink };
}

/** Zulip's topic of a Slack thread: "YYYY-MM-DD first words…", at most 60 characters, " (n)" on a repeat. */
export function threadTopic(content: string, threadTs: number, counter: { get(k: string): number | undefined; set(k: string, n: number): unknown }, maxLength = 60): string {
  const date = new Date(threadTs * 1000).toISOString().slice(0, 10);
  // a topic holds no line breaks or other control characters (Zulip refuses them in topics)
  const full = `${date} ${content}`.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
  const truncated = truncate(full, maxLength, "…");
  const seen = counter.get(truncated) ?? 0;
  counter.set(truncated, seen + 1);
  const count = seen > 0 ? ` (${seen + 1})` : "";
  return truncate(full, maxLength - count.length, "…") + count;
}
