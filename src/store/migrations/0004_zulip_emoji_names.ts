import { codeToName, emojiNameToCode } from "../../domain/emoji";
import type { Sql } from "../db";

/** Rows of (code, stored name, Zulip's name) per statement: 3 parameters each, well under SQLite's limit. */
const CHUNK = 1000;

/**
 * Reactions and status emoji stored under a name Zulip does not use for their code (Parley took its
 * names from emoji-datasource before it used Zulip's table: `thumbsup`, `smile` for 😄, `woman-shrugging`)
 * take Zulip's canonical name for the same code: `+1`, `big_smile`, `woman_shrugging`. A name Zulip
 * knows for that code (an alias such as `thumbs_up`) is kept; a code Zulip does not know keeps its
 * name (clients show those by code). Messages already rendered are left as they are, as Zulip does.
 *
 * Plain SQL cannot hold the table, so this step is TypeScript; it reads the table embedded in the
 * executable as it is when the migration runs.
 */
export async function renameToZulipEmojiNames(sql: Sql): Promise<void> {
  for (const table of ["reactions", "user_status"]) {
    const pairs = await sql.all<{ emoji_code: string; emoji_name: string }>(
      `SELECT DISTINCT emoji_code, emoji_name FROM ${table} WHERE reaction_type = 'unicode_emoji' AND emoji_code != ''`,
    );
    const renames: string[][] = [];
    for (const { emoji_code: code, emoji_name: name } of pairs) {
      if (emojiNameToCode(name) === code) continue;
      const zulipName = codeToName(code);
      if (zulipName) renames.push([code, name, zulipName]);
    }
    for (let i = 0; i < renames.length; i += CHUNK) {
      const chunk = renames.slice(i, i + CHUNK);
      await sql.run(
        `WITH renamed (code, old_name, new_name) AS (VALUES ${chunk.map(() => "(?, ?, ?)").join(", ")})
         UPDATE ${table} SET emoji_name = (SELECT new_name FROM renamed WHERE code = emoji_code AND old_name = emoji_name)
         WHERE reaction_type = 'unicode_emoji' AND (emoji_code, emoji_name) IN (SELECT code, old_name FROM renamed)`,
        chunk.flat(),
      );
    }
  }
}
