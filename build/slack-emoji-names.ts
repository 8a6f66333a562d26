/**
 * Derives src/import/slack/iamcal-emoji.json: the Slack (iamcal) emoji names whose code point Zulip's
 * own name table does not give, each with its code. Slack names reactions by iamcal's emoji-data
 * short names; Zulip's Slack import (zerver/data_import/slack.py) maps every short name and alias of
 * emoji-datasource's emoji.json to `non_qualified or unified`, lowercased, and from that code to
 * Zulip's name. Names on which both tables agree are left out (Zulip's table answers them).
 *
 * Rerun (nothing is fetched by this script): `npm pack emoji-datasource@15.1.2`, unpack it, then
 *   bun build/slack-emoji-names.ts PKG/emoji-datasource/emoji.json
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codeToName, emojiNameToCode } from "../src/domain/emoji";

const file = process.argv[2];
if (!file) throw new Error("usage: bun build/slack-emoji-names.ts emoji-datasource/emoji.json");
const data = JSON.parse(readFileSync(file, "utf8")) as { short_name: string; short_names: string[]; unified: string; non_qualified?: string | null }[];
const out: Record<string, string> = {};
for (const e of data) {
  const code = (e.non_qualified || e.unified).toLowerCase();
  for (const name of new Set([e.short_name, ...e.short_names])) {
    if (emojiNameToCode(name) === code) continue;
    // Zulip's import skips a code its own table lacks: "" says so where Zulip's table has the name for another emoji
    if (codeToName(code)) out[name] = code;
    else if (emojiNameToCode(name)) out[name] = "";
  }
}
const sorted = Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(join(import.meta.dir, "../src/import/slack/iamcal-emoji.json"), JSON.stringify(sorted, null, 0) + "\n");
console.log(`${Object.keys(sorted).length} Slack names differ from Zulip's`);
