/**
 * Unicode emoji names and codes, from the iamcal `emoji-datasource` data that Zulip's emoji set is built on.
 *
 * A code is Zulip's `emoji_code` for `unicode_emoji`: lowercase dash-separated hex code points with the
 * variation selector FE0F left out (`1f600`, `1f937-200d-2640`, `0023-20e3`). Names are iamcal's short names;
 * each hyphenated name also answers with underscores (`woman_shrugging`), which is the canonical spelling
 * `codeToName` gives. Skin-tone modifiers are not emoji of their own, as in Zulip.
 */
import { readFileSync } from "node:fs";
// Embedded as a file, not bundled as code: 1.2 MB of JSON compiled into the executable's JavaScript would
// be loaded (source and bytecode) at every start; as a file it is read only on first use.
import emojiJson from "emoji-datasource/emoji.json" with { type: "file" };

type Entry = { unified: string; short_names: string[]; category: string };
/** Trie over code points (FE0F skipped) for finding emoji in text. */
type Node = { code?: string; next?: Map<number, Node> };

const nameToCode = new Map<string, string>();
const codeToCanonical = new Map<string, string>();
const trie: Node = {};
const VS16 = 0xfe0f;
let loaded = false;

/**
 * Builds the maps on first use and lets the 1.3 MB source go: parsed whole, it is several times that
 * in memory, and an idle server that never meets an emoji has no need of it.
 */
function load(): void {
  if (loaded) return;
  loaded = true;
  const data: Entry[] = JSON.parse(readFileSync(emojiJson, "utf8"));
  for (const e of data) {
    if (e.category === "Component") continue;
    const code = toCode(e.unified);
    codeToCanonical.set(code, e.short_names[0]!.replace(/-/g, "_"));
    for (const name of e.short_names) {
      if (!nameToCode.has(name)) nameToCode.set(name, code);
      const underscored = name.replace(/-/g, "_");
      if (!nameToCode.has(underscored)) nameToCode.set(underscored, code);
    }
    addToTrie(e.unified, code);
  }
}

function addToTrie(unified: string, code: string): void {
  let node = trie;
  for (const hex of unified.split("-")) {
    const cp = parseInt(hex, 16);
    if (cp === VS16) continue;
    node.next ??= new Map();
    let child = node.next.get(cp);
    if (!child) node.next.set(cp, (child = {}));
    node = child;
  }
  node.code ??= code;
}

/** iamcal's `unified` ("1F937-200D-2640-FE0F") as Zulip's emoji code ("1f937-200d-2640"). */
function toCode(unified: string): string {
  return unified.toLowerCase().split("-").filter((h) => h !== "fe0f").join("-");
}

export function emojiNameToCode(name: string): string | undefined {
  load();
  return nameToCode.get(name);
}

/** The canonical name of a code: iamcal's first short name, hyphens as underscores. */
export function codeToName(code: string): string | undefined {
  load();
  return codeToCanonical.get(code);
}

export function isValidUnicodeEmojiCode(code: string): boolean {
  load();
  return codeToCanonical.has(code);
}

/** Whether a name is a known Unicode emoji name (any alias). */
export function isUnicodeEmojiName(name: string): boolean {
  load();
  return nameToCode.has(name);
}

/** Cheap pre-check: can `text` contain a Unicode emoji at all? (All emoji start at U+00A9 or above, or are keycaps.) */
export function mayContainEmoji(text: string): boolean {
  return /[\u00a9\u00ae\u203c-\uffff]/.test(text);
}

export type EmojiMatch = { code: string; end: number };

/**
 * The longest known emoji sequence starting at UTF-16 index `start` of `text`, with `end` just after it
 * (trailing FE0F included), or null. Variation selectors inside the text are skipped while matching.
 */
export function matchEmojiAt(text: string, start: number): EmojiMatch | null {
  load();
  let node: Node | undefined = trie;
  let i = start;
  let best: EmojiMatch | null = null;
  while (i < text.length && node?.next) {
    const cp = text.codePointAt(i)!;
    if (cp === VS16 && i > start) {
      i += 1;
      if (best && best.end === i - 1) best.end = i;
      continue;
    }
    node = node.next.get(cp);
    if (!node) break;
    i += cp > 0xffff ? 2 : 1;
    if (node.code) best = { code: node.code, end: i };
  }
  if (best && text.charCodeAt(best.end) === VS16) best.end += 1;
  return best;
}
