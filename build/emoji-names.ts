/**
 * Derives src/domain/emoji/zulip-emoji-names.json, Parley's one table of Zulip's Unicode emoji names,
 * from Zulip's published sources, exactly the way Zulip's own build does it. The output is Zulip's
 * `emoji_api.json` document, `{"code_to_names": {code: [canonical, ...aliases]}}`, written compactly.
 *
 * How Zulip gets there (zulip/zulip, tools/setup/emoji/):
 *   - `generate_emoji_names` writes `emoji_names.py` (EMOJI_NAME_MAPS): for every emoji of the
 *     emoji-datasource data (skin tones and most clock faces left out) it takes Zulip's hand-picked
 *     names from `custom_emoji_names.py`, or else CLDR's English annotations (canonical name = the `tts`
 *     label, aliases = the `default` keywords); then it drops aliases equal to a canonical name, drops
 *     aliases two emoji would share (unless hand-picked), and adds an ASCII alias to non-ASCII names.
 *   - `build_emoji` checks every code has a Google image (`has_img_google`), then writes
 *     `emoji_api.json` (code_to_names, canonical name first), `name_to_codepoint` and `codepoint_to_name`
 *     from EMOJI_NAME_MAPS alone (emoji_setup_utils.py). Codes are the emoji's code points in lowercase
 *     hex, 4 digits at least, dash-separated, with every U+FE0F left out (zerver/lib/emoji_utils.py).
 *
 * Zulip 10.x (what Parley reports being) was built from custom_emoji_names.py as it stood before
 * Zulip 11 renamed :smile: (so 1f642 is :smile:, 263a :smiling_face:, 1f604 :big_smile:), CLDR 45
 * (cldr-annotations-modern and cldr-annotations-derived-modern 45.0.0) and emoji-datasource 15.1.2
 * (Unicode 15.1; every emoji-datasource-* package holds the same emoji.json).
 *
 * Rerun (nothing is fetched by this script; give it local files):
 *   npm pack emoji-datasource@15.1.2 cldr-annotations-modern@45.0.0 cldr-annotations-derived-modern@45.0.0
 *   (unpack them), and take custom_emoji_names.py (or emoji_names.py) from a checkout of zulip/zulip, then
 *
 *   bun build/emoji-names.ts --emoji-data PKG/emoji-datasource/emoji.json \
 *     --custom-names ZULIP/tools/setup/emoji/custom_emoji_names.py \
 *     --cldr PKG/cldr-annotations-modern/annotations/en/annotations.json \
 *     --cldr-derived PKG/cldr-annotations-derived-modern/annotationsDerived/en/annotations.json
 *
 * or, from Zulip's generated names file instead of regenerating it:
 *
 *   bun build/emoji-names.ts --emoji-data PKG/emoji-datasource/emoji.json \
 *     --emoji-names ZULIP/tools/setup/emoji/emoji_names.py
 *
 * `--out FILE` writes elsewhere than src/domain/emoji/zulip-emoji-names.json. A table whose names
 * change needs a migration for stored reactions, like src/store/migrations/0004_zulip_emoji_names.ts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

type NameInfo = { canonical_name: string; aliases: string[] };
type NameMaps = Map<string, NameInfo>;
type EmojiDict = { unified: string; has_img_google: boolean };
type Cldr = Record<string, { default?: string[]; tts?: string[] }>;

/** The value assigned to `name` in a Python source file: dicts, lists and strings (comments skipped). */
export function pythonLiteral(source: string, name: string): unknown {
  const m = new RegExp(`^${name}\\b[^=\\n]*=\\s*`, "m").exec(source);
  if (!m) throw new Error(`${name} is not assigned in this file`);
  let i = m.index + m[0].length;
  const skip = () => {
    for (;;) {
      while (i < source.length && /\s/.test(source[i]!)) i++;
      if (source[i] !== "#") return;
      while (i < source.length && source[i] !== "\n") i++;
    }
  };
  const fail = (what: string): never => {
    throw new Error(`${what} at line ${source.slice(0, i).split("\n").length} of the ${name} literal`);
  };
  const value = (): unknown => {
    skip();
    const c = source[i];
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      const out: unknown[] = [];
      i++;
      for (;;) {
        skip();
        if (source[i] === close) break;
        const item = value();
        skip();
        if (c === "{") {
          if (source[i] !== ":") fail("expected ':'");
          i++;
          out.push([item, value()]);
          skip();
        } else out.push(item);
        if (source[i] === ",") i++;
        else if (source[i] !== close) fail(`expected ',' or '${close}'`);
      }
      i++;
      return c === "{" ? Object.fromEntries(out as [string, unknown][]) : out;
    }
    if (c === '"' || c === "'") {
      let s = "";
      for (i++; source[i] !== c; i++) {
        if (i >= source.length) fail("unterminated string");
        if (source[i] !== "\\") {
          s += source[i];
          continue;
        }
        const e = source[++i]!;
        const hex = (n: number) => String.fromCodePoint(parseInt(source.slice(i + 1, (i += n) + 1), 16));
        s += e === "n" ? "\n" : e === "t" ? "\t" : e === "x" ? hex(2) : e === "u" ? hex(4) : e === "U" ? hex(8) : e;
      }
      i++;
      return s;
    }
    return fail(`unexpected ${JSON.stringify(c)}`);
  };
  return value();
}

const nameMaps = (o: unknown): NameMaps => new Map(Object.entries(o as Record<string, NameInfo>));

/** zerver/lib/emoji_utils.py: unqualify_emoji + emoji_to_hex_codepoint (get_emoji_code in emoji_setup_utils.py). */
export const emojiCode = (unified: string) =>
  unified
    .split("-")
    .map((h) => parseInt(h, 16))
    .filter((cp) => cp !== 0xfe0f)
    .map((cp) => cp.toString(16).padStart(4, "0"))
    .join("-");

const unqualifiedEmoji = (unified: string) =>
  String.fromCodePoint(...unified.split("-").map((h) => parseInt(h, 16)).filter((cp) => cp !== 0xfe0f));

// generate_emoji_names: the clock faces Zulip leaves out (all but 1f557, its :time:) and the skin tones.
const SKIPPED = new Set([
  ..."1f550 1f551 1f552 1f553 1f554 1f555 1f556 1f558 1f559 1f55a 1f55b 1f55c 1f55d 1f55e 1f55f".split(" "),
  ..."1f560 1f561 1f562 1f563 1f564 1f565 1f566 1f567 1f3fb 1f3fc 1f3fd 1f3fe 1f3ff".split(" "),
]);

/** generate_emoji_names' cleanup_name (the replacements in its order, then runs of `_`, then lowercase). */
function cleanupName(name: string): string {
  const replacements: [string, string][] = [
    [" ", "_"], ["-", "_"], ["–", "_"], ["“", ""], ["”", ""], [":", ""], [".", ""], [",", ""],
    ["(", ""], [")", ""], ["&", "and"], ["‘", ""], ["’", ""], ["'", ""],
  ];
  for (const [before, after] of replacements) name = name.split(before).join(after);
  return name.replace(/_{2,}/g, "_").toLowerCase();
}

/** generate_emoji_names' convert_non_ascii_chars. */
function convertNonAscii(name: string): string {
  const map: Record<string, string> = { è: "e", ǐ: "i", ó: "o", ā: "a", ō: "o", ñ: "n", ô: "o", ç: "c", é: "e", ã: "a", í: "i", å: "a", ü: "u" };
  for (const [before, after] of Object.entries(map)) name = name.split(before).join(after);
  if (!isAscii(name)) throw new Error(`${name} still contains non-ascii characters`);
  return name;
}

const isAscii = (s: string) => /^[\x00-\x7f]*$/.test(s);

function removeFirst(list: string[], item: string): void {
  const at = list.indexOf(item);
  if (at < 0) throw new Error(`list.remove(x): ${item} not in list`);
  list.splice(at, 1);
}

/** generate_emoji_names' main(), step for step: EMOJI_NAME_MAPS from the custom names, CLDR and the emoji data. */
export function generateEmojiNames(emojiData: EmojiDict[], custom: NameMaps, cldr: Cldr): NameMaps {
  const all: NameMaps = new Map();
  const canonicalNames = new Set<string>();
  const aliasToCodes = new Map<string, string[]>();
  const codesOf = (alias: string) => aliasToCodes.get(alias) ?? (aliasToCodes.set(alias, []), aliasToCodes.get(alias)!);

  // STEP 1: a first draft of every emoji's names.
  for (const e of emojiData) {
    const code = emojiCode(e.unified);
    if (SKIPPED.has(code)) continue;
    const hand = custom.get(code);
    if (hand) {
      const canonical = cleanupName(hand.canonical_name);
      if (canonicalNames.has(canonical)) throw new Error(`${canonical} was already added with a different codepoint`);
      canonicalNames.add(canonical);
      all.set(code, hand);
      continue;
    }
    const annotation = cldr[unqualifiedEmoji(e.unified)];
    if (!annotation) continue; // not in CLDR either: Zulip skips it
    if (annotation.tts?.length !== 1) throw new Error(`CLDR has ${annotation.tts?.length} tts labels for ${code}`);
    const canonical = cleanupName(annotation.tts[0]!.trim());
    if (canonicalNames.has(canonical)) throw new Error(`${canonical} was already added with a different codepoint`);
    all.set(code, { canonical_name: canonical, aliases: (annotation.default ?? []).map((a) => cleanupName(a.trim())) });
    canonicalNames.add(canonical);
  }
  // STEP 2: no alias may be another emoji's canonical name.
  for (const [code, names] of all) {
    for (const alias of [...names.aliases]) {
      if (canonicalNames.has(alias)) removeFirst(names.aliases, alias);
      else codesOf(alias).push(code);
    }
  }
  // STEP 3: an alias several emoji share stays only where it was hand-picked.
  for (const [alias, codes] of aliasToCodes) {
    if (codes.length > 1) for (const code of codes) if (!custom.has(code)) removeFirst(all.get(code)!.aliases, alias);
  }
  // STEP 4: every non-ASCII name also answers in ASCII.
  for (const names of all.values()) {
    for (const name of [names.canonical_name, ...names.aliases]) {
      if (["ココ", "サ", "指", "空"].includes(name)) {
        if (!names.aliases.some(isAscii)) throw new Error(`${name} has no ASCII alias`);
        continue;
      }
      if (isAscii(name)) continue;
      const asciiAlias = convertNonAscii(name);
      for (const code of codesOf(asciiAlias)) removeFirst(all.get(code)!.aliases, asciiAlias);
      names.aliases.push(asciiAlias);
    }
  }
  return all;
}

/** build_emoji's check, then generate_codepoint_to_names_map: the emoji_api.json document. */
export function emojiApiDocument(maps: NameMaps, emojiData: EmojiDict[]): { code_to_names: Record<string, string[]> } {
  const supported = new Set(emojiData.filter((e) => e.has_img_google).map((e) => emojiCode(e.unified)));
  const codeToNames: Record<string, string[]> = {};
  for (const [code, names] of maps) {
    if (!supported.has(code)) throw new Error(`${code} has no Google image in this emoji data (build_emoji's assertion)`);
    codeToNames[code] = [names.canonical_name, ...names.aliases];
  }
  return { code_to_names: codeToNames };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      "emoji-data": { type: "string" },
      "emoji-names": { type: "string" },
      "custom-names": { type: "string" },
      cldr: { type: "string" },
      "cldr-derived": { type: "string" },
      out: { type: "string", default: join(import.meta.dir, "../src/domain/emoji/zulip-emoji-names.json") },
    },
  });
  const read = (path: string) => readFileSync(path, "utf8");
  if (!values["emoji-data"] || !(values["emoji-names"] || (values["custom-names"] && values.cldr && values["cldr-derived"]))) {
    console.error("usage: bun build/emoji-names.ts --emoji-data emoji.json (--emoji-names emoji_names.py | --custom-names custom_emoji_names.py --cldr annotations.json --cldr-derived annotations.json) [--out FILE]");
    process.exit(2);
  }
  const emojiData = JSON.parse(read(values["emoji-data"])) as EmojiDict[];
  let maps: NameMaps;
  if (values["emoji-names"]) maps = nameMaps(pythonLiteral(read(values["emoji-names"]), "EMOJI_NAME_MAPS"));
  else {
    const cldr: Cldr = { ...JSON.parse(read(values.cldr!)).annotations.annotations, ...JSON.parse(read(values["cldr-derived"]!)).annotationsDerived.annotations };
    maps = generateEmojiNames(emojiData, nameMaps(pythonLiteral(read(values["custom-names"]!), "CUSTOM_EMOJI_NAME_MAPS")), cldr);
  }
  const doc = emojiApiDocument(maps, emojiData);
  const text = JSON.stringify(doc);
  writeFileSync(values.out!, text);
  const names = Object.values(doc.code_to_names).reduce((n, l) => n + l.length, 0);
  const gzipped = Bun.gzipSync(new TextEncoder().encode(text)).length;
  console.log(`${values.out}: ${Object.keys(doc.code_to_names).length} emoji, ${names} names, ${text.length} bytes (${gzipped} gzipped)`);
}
