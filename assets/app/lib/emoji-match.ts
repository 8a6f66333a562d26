/**
 * Emoji by name, as Zulip's typeahead finds and sorts them (used by the compose box's `:` autocomplete
 * and the emoji picker's search). Pure.
 */
import type { RealmEmoji } from "../state/types";

const MAX_SUGGESTIONS = 8;

/** Zulip's popular emoji, suggested early: thumbs up, tada, smile, heart, working on it, octopus. */
export const POPULAR_EMOJI = ["1f44d", "1f389", "1f642", "2764", "1f6e0", "1f419"];

export interface EmojiEntry {
  name: string;
  code: string;
  reaction_type: "unicode_emoji" | "realm_emoji" | "zulip_extra_emoji";
  url?: string;
}

/**
 * Every emoji name there is: the organization's own emoji and Zulip's names (each alias too). (Zulip's
 * extra :zulip: emoji is left out: its image is not among the files Parley serves.)
 */
export function emojiEntries(codeToNames: Readonly<Record<string, readonly string[]>>, realmEmoji: Readonly<Record<string, RealmEmoji>>): EmojiEntry[] {
  const out: EmojiEntry[] = [];
  for (const e of Object.values(realmEmoji)) if (!e.deactivated) out.push({ name: e.name, code: e.id, reaction_type: "realm_emoji", url: e.source_url });
  const realmNames = new Set(out.map((e) => e.name));
  for (const [code, names] of Object.entries(codeToNames)) for (const name of names) if (!realmNames.has(name)) out.push({ name, code, reaction_type: "unicode_emoji" });
  return out;
}

/**
 * Emoji whose name (or a word of it) starts with the query, as Zulip sorts them: the exact name, then
 * popular ones, then names starting with the query (the organization's first), then the rest; one name
 * per emoji.
 */
export function emojiSuggestions(query: string, entries: readonly EmojiEntry[], limit = MAX_SUGGESTIONS): EmojiEntry[] {
  const q = query.toLowerCase().replace(/ /g, "_");
  const matching = entries.filter((e) => e.name === q || e.name.startsWith(q) || e.name.includes(`_${q}`));
  const popular = new Set(POPULAR_EMOJI);
  const tier = (e: EmojiEntry) => {
    if (e.name === q) return 0;
    if (e.reaction_type === "unicode_emoji" && popular.has(e.code)) return 1;
    const prefix = e.name.startsWith(q);
    const realm = e.reaction_type !== "unicode_emoji";
    return prefix ? (realm ? 2 : 3) : realm ? 4 : 5;
  };
  const sorted = matching.map((e, i) => ({ e, t: tier(e), i })).sort((a, b) => a.t - b.t || a.e.name.length - b.e.name.length || a.i - b.i);
  const seen = new Set<string>();
  const out: EmojiEntry[] = [];
  for (const { e } of sorted) {
    const key = `${e.reaction_type}:${e.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
    if (out.length >= limit) break;
  }
  return out;
}
