import { describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { closeApp, openApp } from "../../src/app";
import { sendStream } from "../helpers/messages";
import { createChannel } from "../helpers/channels";
import { startServer } from "../helpers/server";

// Reactions and status emoji as Parley stored them when its names came from emoji-datasource.
describe("migration 4: stored emoji names become Zulip's", () => {
  for (const viaClient of [false, true]) {
    test(`reactions and status emoji under names Zulip does not use take Zulip's canonical name (${viaClient ? "through the libSQL client" : "embedded"})`, async () => {
      const s = await startServer({ viaClient });
      const { users: u, app } = s;
      let reopened: typeof app | null = null;
      try {
        await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello", "cordelia"] });
        const m1 = await sendStream(s, "othello", "Verona", "t", "one");
        const m2 = await sendStream(s, "othello", "Verona", "t", "two");
        const old: [number, number, string, string, string][] = [
          [m1, u.hamlet.id, "thumbsup", "1f44d", "unicode_emoji"], // iamcal's alias of 👍
          [m1, u.othello.id, "thumbsup", "1f44d", "unicode_emoji"],
          [m1, u.iago.id, "smile", "1f604", "unicode_emoji"], // iamcal's smile is Zulip's big_smile
          [m1, u.cordelia.id, "woman-shrugging", "1f937-200d-2640", "unicode_emoji"],
          [m2, u.hamlet.id, "thumbs_up", "1f44d", "unicode_emoji"], // already a Zulip alias: kept
          [m2, u.othello.id, "octopus", "1f419", "unicode_emoji"], // Zulip's canonical name: kept
          [m2, u.iago.id, "clock1", "1f550", "unicode_emoji"], // a code Zulip leaves out: kept
          [m2, u.cordelia.id, "smile", "7", "realm_emoji"], // a custom emoji: not touched
        ];
        for (const r of old) {
          await app.db.run("INSERT INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type) VALUES (?, ?, ?, ?, ?)", r);
        }
        await app.db.run("INSERT INTO user_status (user_id, emoji_name, emoji_code, reaction_type, timestamp) VALUES (?, ?, ?, ?, 0), (?, ?, ?, ?, 0)", [
          u.hamlet.id, "slightly_smiling_face", "1f642", "unicode_emoji",
          u.othello.id, "heart", "2764", "unicode_emoji",
        ]);
        // The database as an older Parley left it: migration 4 not yet applied.
        await app.db.run("DELETE FROM schema_migrations WHERE version = 4");
        await closeApp(app);

        reopened = await openApp(app.config, { quiet: true, viaClient });
        const db = reopened.db;
        expect((await db.all<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version")).map((r) => r.version)).toContain(4);
        expect(await db.all("SELECT message_id, user_id, emoji_name, emoji_code, reaction_type FROM reactions ORDER BY id")).toEqual([
          { message_id: m1, user_id: u.hamlet.id, emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji" },
          { message_id: m1, user_id: u.othello.id, emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji" },
          { message_id: m1, user_id: u.iago.id, emoji_name: "big_smile", emoji_code: "1f604", reaction_type: "unicode_emoji" },
          { message_id: m1, user_id: u.cordelia.id, emoji_name: "woman_shrugging", emoji_code: "1f937-200d-2640", reaction_type: "unicode_emoji" },
          { message_id: m2, user_id: u.hamlet.id, emoji_name: "thumbs_up", emoji_code: "1f44d", reaction_type: "unicode_emoji" },
          { message_id: m2, user_id: u.othello.id, emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji" },
          { message_id: m2, user_id: u.iago.id, emoji_name: "clock1", emoji_code: "1f550", reaction_type: "unicode_emoji" },
          { message_id: m2, user_id: u.cordelia.id, emoji_name: "smile", emoji_code: "7", reaction_type: "realm_emoji" },
        ]);
        expect(await db.all("SELECT user_id, emoji_name, emoji_code FROM user_status ORDER BY user_id", [])).toEqual(
          [
            { user_id: u.hamlet.id, emoji_name: "smile", emoji_code: "1f642" },
            { user_id: u.othello.id, emoji_name: "heart", emoji_code: "2764" },
          ].sort((a, b) => a.user_id - b.user_id),
        );
      } finally {
        if (reopened) await closeApp(reopened);
        rmSync(s.dataDir, { recursive: true, force: true });
      }
    });
  }
});
