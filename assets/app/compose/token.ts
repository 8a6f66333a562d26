/**
 * What is being typed at the compose box's cursor, as Zulip's composebox_typeahead reads it: a token
 * starting with `@` (a person, group or everyone; `@_` silently), `#` (a channel, then `>` its topic) or
 * `:` (an emoji). Small and pure: the suggestions for a token (autocomplete.ts) load when first needed.
 */

/** How far back from the cursor a token is looked for (Zulip's MAX_LOOKBACK_FOR_TYPEAHEAD_COMPLETION). */
const LOOKBACK = 86;
/** What may follow the cursor for a suggestion to be offered (otherwise the cursor is inside a word). */
const TERMINAL = ",.;?!()[]> \u00a0\"'\n\t";

export type Token =
  | { kind: "mention"; silent: boolean; query: string; start: number }
  | { kind: "channel"; query: string; start: number }
  | { kind: "topic"; channel: string; query: string; start: number }
  | { kind: "emoji"; query: string; start: number };

/** Zulip's tokenize_compose_str: the `@`, `#` or `:` token nearest the end of `before`, and where it starts. */
function lastToken(before: string): { text: string; start: number } | null {
  const min = Math.max(0, before.length - LOOKBACK);
  for (let i = before.length - 1; i >= min; i--) {
    const c = before[i];
    if (c !== "@" && c !== "#" && c !== ":") continue;
    if (i === 0 || /[\s"'(/<[{]/.test(before[i - 1]!)) return { text: before.slice(i), start: i };
  }
  return null;
}

/** The token being typed at `cursor`, or null. */
export function tokenAt(text: string, cursor: number): Token | null {
  const before = text.slice(0, cursor);
  const rest = text.slice(cursor);
  if (rest !== "" && !TERMINAL.includes(rest[0]!)) return null;
  // `#**channel>topic` (after a channel was picked)
  const topic = /#\*\*([^*>]+)>([^*\n]*)$/.exec(before);
  if (topic) return topic[2]!.startsWith(" ") ? null : { kind: "topic", channel: topic[1]!, query: topic[2]!, start: topic.index };
  const token = lastToken(before);
  if (!token) return null;
  const t = token.text;
  if (t.startsWith(":")) {
    // not an emoticon like :P or :-), and not a bare colon
    if (/^:-.?$/.test(t) || /^:[^+a-z]?$/.test(t) || t[1] === " ") return null;
    return { kind: "emoji", query: t.slice(1), start: token.start };
  }
  if (t.startsWith("@")) {
    let q = t.slice(1);
    const silent = q.startsWith("_");
    if (silent) q = q.slice(1);
    if (q.startsWith("**")) q = q.slice(2);
    else if (q.startsWith("*")) q = q.slice(1);
    if (q.includes("*") || q.startsWith(" ")) return null;
    return { kind: "mention", silent, query: q, start: token.start };
  }
  // "#"
  let q = t.slice(1);
  if (q === "") return null;
  if (q.startsWith("**")) q = q.slice(2);
  if (q.startsWith(" ") || q.includes("*")) return null;
  return { kind: "channel", query: q, start: token.start };
}
