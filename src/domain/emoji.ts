/**
 * Zulip's Unicode emoji names and codes: the one table every part of Parley uses (reactions, status
 * emoji, Markdown `:name:` and emoji in text, custom emoji name conflicts, the emoji data document).
 *
 * The table is Zulip 10.x's `emoji_api.json` (`{"code_to_names": {code: [canonical, ...aliases]}}`),
 * derived once by build/emoji-names.ts into emoji/zulip-emoji-names.json. A code is Zulip's `emoji_code`
 * for `unicode_emoji`: lowercase dash-separated hex code points, U+FE0F left out (`1f600`,
 * `1f937-200d-2640`, `0023-20e3`). Skin-tone modifiers and most clock faces are not in it, as in Zulip.
 */
// Embedded as text, not bundled as code: the document is served as it is, and parsed only on first use.
import emojiApiText from "./emoji/zulip-emoji-names.json" with { type: "text" };

/** The emoji data document, byte for byte as served at `server_emoji_data_url`. */
export const EMOJI_API_JSON = emojiApiText as unknown as string;

let dataPath: string | null = null;

/**
 * Where the emoji data document is served: content-hashed like Zulip's static files
 * (`/static/generated/emoji/emoji_api.<12 hex of its MD5>.json`), so it can be cached forever.
 */
export function emojiDataPath(): string {
  return (dataPath ??= `/static/generated/emoji/emoji_api.${new Bun.CryptoHasher("md5").update(EMOJI_API_JSON).digest("hex").slice(0, 12)}.json`);
}

/** Trie over code points (FE0F skipped) for finding emoji in text. */
type Node = { code?: string; next?: Map<number, Node> };
type Table = { nameToCode: Map<string, string>; codeToNames: Map<string, readonly string[]>; trie: Node };

const VS16 = 0xfe0f;
let table: Table | null = null;

/** Builds the maps on first use (about a millisecond): an idle server that never meets an emoji has no need of them. */
function load(): Table {
  if (table) return table;
  const doc = JSON.parse(EMOJI_API_JSON) as { code_to_names: Record<string, string[]> };
  const t: Table = { nameToCode: new Map(), codeToNames: new Map(), trie: {} };
  for (const [code, names] of Object.entries(doc.code_to_names)) {
    t.codeToNames.set(code, names);
    // Zulip's generate_name_to_codepoint_map: canonical name and aliases, a later emoji winning a shared name.
    for (const name of names) t.nameToCode.set(name, code);
    addToTrie(t.trie, code);
  }
  return (table = t);
}

function addToTrie(trie: Node, code: string): void {
  let node = trie;
  for (const hex of code.split("-")) {
    const cp = parseInt(hex, 16);
    node.next ??= new Map();
    let child = node.next.get(cp);
    if (!child) node.next.set(cp, (child = {}));
    node = child;
  }
  node.code = code;
}

/** Zulip's name_to_codepoint: the code of a canonical name or alias. */
export function emojiNameToCode(name: string): string | undefined {
  return load().nameToCode.get(name);
}

/** Zulip's codepoint_to_name: the canonical name of a code. */
export function codeToName(code: string): string | undefined {
  return load().codeToNames.get(code)?.[0];
}

/** Every name of a code, the canonical one first (emoji_api.json's code_to_names). */
export function codeToNames(code: string): readonly string[] | undefined {
  return load().codeToNames.get(code);
}

/** Whether Zulip knows this code (check_emoji_request's `emoji_code in codepoint_to_name`). */
export function isValidUnicodeEmojiCode(code: string): boolean {
  return load().codeToNames.has(code);
}

/** Whether a name is a Unicode emoji name (canonical or alias). */
export function isUnicodeEmojiName(name: string): boolean {
  return load().nameToCode.has(name);
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
  let node: Node | undefined = load().trie;
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
