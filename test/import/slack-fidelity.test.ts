// What a Slack message holds beyond its text, imported as Zulip's Slack import converts it: legacy
// attachments and Block Kit blocks, external files and files the export gives no address for,
// integration bots (through Slack's bots.info), the subtypes Zulip leaves out, edits, reactions with
// skin tones; and people's avatars, downloaded from a fake Slack on loopback.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importSlack } from "../../src/import/slack/import";
import type { ImportResult } from "../../src/import/common/run";
import { createServer } from "../../src/server";
import { makePng } from "../helpers/uploads";
import { channel, message, user, writeSlackZip, type SlackExport } from "./slack-export";
import { importConfig, openImported, type Imported } from "./open-imported";

const root = mkdtempSync(join(tmpdir(), "parley-slack-fidelity-"));
const TOKEN = "xoxb-fidelity-token";
let slack: ReturnType<typeof Bun.serve>;
const hits: { path: string; auth: string | null }[] = [];
let png: Buffer;

const ts = (n: number) => `${1704067200 + n * 60}.000${String(n).padStart(3, "0")}`;

function exportData(host: string): SlackExport {
  const picture = (path: string) => ({ image_72: `${host}${path}?s=72`, image_512: `${host}${path}` });
  return {
    users: [
      user("U01", "ada", "Ada Lovelace", "ada@example.com", { is_primary_owner: true, is_owner: true, profile: { email: "ada@example.com", real_name: "Ada Lovelace", ...picture("/avatars/ada.png") } }),
      user("U02", "bob", "Bob Builder", "bob@example.com", { profile: { email: "bob@example.com", real_name: "Bob Builder", ...picture("/avatars/missing.png") } }),
      user("U03", "gus", "Gus Member", "gus@example.com", { profile: { email: "gus@example.com", real_name: "Gus Member", ...picture("/avatars/not-an-image.png") } }),
      user("U04", "cy", "Cy Plain", "cy@example.com"),
    ],
    channels: [channel("C01", "general", ["U01", "U02", "U03", "U04"])],
    days: {
      "general/2024-01-01.json": [
        message("U01", ts(1), "Deploy finished: v2", {
          attachments: [
            {
              fallback: "Deploy finished: v2",
              title: "Deploy finished",
              title_link: "https://ci.example.com/run/7",
              pretext: "v2 is live",
              text: "All checks *passed*",
              fields: [{ title: "Env", value: "prod", short: true }, { title: "Region", value: "" }, { value: "eu-west" }],
              image_url: "https://ci.example.com/chart.png",
              footer: "CI",
              ts: 1700000000,
            },
          ],
        }),
        {
          type: "message",
          subtype: "bot_message",
          bot_id: "B10",
          username: "hook",
          ts: ts(2),
          text: "Weekly report (summary)",
          blocks: [
            { type: "header", text: { type: "plain_text", text: "Weekly report" } },
            { type: "section", fields: [{ type: "mrkdwn", text: "Open: 3" }, { type: "mrkdwn", text: "Closed: 5" }] },
            { type: "divider" },
            { type: "context", elements: [{ type: "mrkdwn", text: "see details" }] },
            { type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: "Open" } }] },
          ],
        },
        // a person's own message: its rich_text block repeats the text, which is what comes in
        message("U02", ts(3), "plain words from Bob", {
          blocks: [{ type: "rich_text", block_id: "x1", elements: [{ type: "rich_text_section", elements: [{ type: "text", text: "plain words from Bob" }] }] }],
        }),
        message("U02", ts(4), "a block Zulip does not know", { blocks: [{ type: "video", title: { type: "plain_text", text: "clip" } }] }),
        message("U03", ts(5), "design doc", {
          files: [{ id: "F10", name: "Design", title: "Design doc", is_external: true, external_type: "gdrive", url_private: "https://docs.google.com/document/d/abc", mimetype: "application/vnd.google-apps.document" }],
        }),
        message("U03", ts(6), "the file Slack kept back", { files: [{ id: "F11", name: "secret.pdf", title: "secret", mimetype: "application/pdf" }] }),
        message("U03", ts(7), "a deleted file", { files: [{ id: "F12", mode: "tombstone" }] }),
        { type: "message", subtype: "bot_message", bot_id: "B11", username: "old", ts: ts(8), text: "from a bot Slack deleted" },
        { type: "message", subtype: "bot_message", bot_id: "B12", ts: ts(9), text: "from a bot Slack forgot" },
        message("U02", ts(10), "<@U02> has joined the channel", { subtype: "channel_join" }),
        message("U02", ts(11), "<@U02> has left the channel", { subtype: "channel_leave" }),
        message("U01", ts(12), "<@U01> pinned a message", { subtype: "pinned_item" }),
        message("U01", ts(13), "<@U01> unpinned a message", { subtype: "unpinned_item" }),
        message("U01", ts(14), "<@U01> renamed the channel", { subtype: "channel_name" }),
        message("U01", ts(15), "<@U01> set the channel topic: launches", { subtype: "channel_topic" }),
        message("U04", ts(16), "fixed the typo", { edited: { user: "U04", ts: ts(17) } }),
        message("U04", ts(18), "applause", {
          reactions: [
            { name: "clap::skin-tone-2", users: ["U01"], count: 1 },
            { name: "clap::skin-tone-5", users: ["U02"], count: 1 },
            { name: "clap", users: ["U01"], count: 1 },
            { name: "no_such_emoji::skin-tone-3", users: ["U03"], count: 1 },
          ],
        }),
        // Zulip: a file comment is sent by the message's sender (here the file's owner, as no user is named)
        { type: "message", subtype: "file_comment", ts: ts(19), text: "a comment on the file", file: { id: "F13", user: "U02", name: "x.txt", title: "x" }, comment: { user: "U01", comment: "a comment" } },
      ],
    },
  };
}

interface Run {
  result: ImportResult;
  logged: string[];
  imported: Imported;
}

async function runImport(name: string, token: string | undefined): Promise<Run> {
  const host = `http://127.0.0.1:${slack.port}`;
  const zip = join(root, `${name}.zip`);
  writeSlackZip(zip, exportData(host));
  const logged: string[] = [];
  const dataDir = join(root, name);
  const result = await importSlack(importConfig(dataDir), {
    zip,
    token,
    fileHosts: ["127.0.0.1"],
    emojiHosts: ["127.0.0.1"],
    apiBase: `${host}/api`,
    allowPrivateDownloads: true,
    log: (l) => logged.push(l),
  });
  return { result, logged, imported: await openImported(dataDir) };
}

let withToken: Run;
let withoutToken: Run;

beforeAll(async () => {
  png = await makePng(300, 200, "#aa3300");
  slack = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      hits.push({ path: url.pathname + url.search, auth: req.headers.get("authorization") });
      if (url.pathname === "/avatars/ada.png" || url.pathname === "/avatars/hook.png") return new Response(new Uint8Array(png), { headers: { "content-type": "image/png" } });
      if (url.pathname === "/avatars/not-an-image.png") return new Response("<html>sign in</html>", { headers: { "content-type": "text/html" } });
      if (url.pathname.startsWith("/api/") && req.headers.get("authorization") !== `Bearer ${TOKEN}`) return Response.json({ ok: false, error: "not_authed" });
      if (url.pathname === "/api/emoji.list") return Response.json({ ok: true, emoji: {} });
      if (url.pathname === "/api/bots.info") {
        const bot = url.searchParams.get("bot");
        if (bot === "B10") return Response.json({ ok: true, bot: { id: "B10", name: "Report Bot", deleted: false, icons: { image_72: `http://127.0.0.1:${slack.port}/avatars/hook.png` } } });
        if (bot === "B11") return Response.json({ ok: true, bot: { id: "B11", name: "Old Hook", deleted: true, icons: {} } });
        return Response.json({ ok: false, error: "bot_not_found" });
      }
      return new Response("not found", { status: 404 });
    },
  });
  withToken = await runImport("token", TOKEN);
  withoutToken = await runImport("no-token", undefined);
  // the first request loads the OpenAPI validator: not part of any test's time
  (await (await withToken.imported.as("ada@example.com")).get("/users/me")).success();
}, 60_000);

afterAll(async () => {
  await withToken?.imported.close();
  await withoutToken?.imported.close();
  slack?.stop(true);
  rmSync(root, { recursive: true, force: true });
});

async function generalMessages(run: Run) {
  const ada = await run.imported.as("ada@example.com");
  const raw = (await ada.get("/messages", { anchor: "oldest", num_before: 0, num_after: 100, narrow: JSON.stringify([{ operator: "channel", operand: "general" }]), apply_markdown: false })).success();
  const html = (await ada.get("/messages", { anchor: "oldest", num_before: 0, num_after: 100, narrow: JSON.stringify([{ operator: "channel", operand: "general" }]) })).success();
  return raw.messages.map((m: any, i: number) => ({ ...m, html: html.messages[i].content }));
}
const find = (list: any[], start: string) => list.find((m) => m.content.startsWith(start));

describe("attachments and blocks", () => {
  test("a legacy attachment stands in for the text, rendered as Zulip renders it", async () => {
    const m = find(await generalMessages(withToken), "## [Deploy finished]");
    expect(m.content).toBe(
      "## [Deploy finished](https://ci.example.com/run/7)\n\nv2 is live\n\nAll checks **passed**\n\n**Env**: prod\n**Region**\neu-west\n\n[](https://ci.example.com/chart.png)\n\nCI\n\n<time:2023-11-14T22:13:20+00:00>",
    );
    expect(m.html).toContain('<h2><a href="https://ci.example.com/run/7">Deploy finished</a></h2>');
    expect(m.html).toContain("<strong>Env</strong>: prod");
    expect(m.html).toContain('<time datetime="2023-11-14T22:13:20Z">');
  });

  test("blocks render as Zulip's: header, two-column fields, divider and context; buttons and rich_text left out", async () => {
    const list = await generalMessages(withToken);
    const report = find(list, "## Weekly report");
    expect(report.content).toBe("## Weekly report\n| | |\n|-|-|\n| Open: 3 | Closed: 5 |\n----\nsee details");
    expect(report.html).toContain("<h2>Weekly report</h2>");
    expect(report.html).toContain("<table>");
    expect(find(list, "plain words").content).toBe("plain words from Bob");
  });

  test("a block of a type Zulip does not know keeps the message's text, and is logged", async () => {
    const list = await generalMessages(withToken);
    expect(find(list, "a block Zulip").content).toBe("a block Zulip does not know");
    expect(withToken.logged.some((l) => l.includes(`general/2024-01-01.json: message ${ts(4)}`) && l.includes("Invalid message['blocks'][0]['type']"))).toBe(true);
    expect(withToken.result.skipped.get("attachments")).toBe(1);
  });
});

describe("files", () => {
  test("an external file is a link to it; one without an address is logged and its message kept; a deleted one is left out quietly", async () => {
    const list = await generalMessages(withToken);
    expect(find(list, "design doc").content).toBe("design doc\n[Design doc](https://docs.google.com/document/d/abc)");
    expect(find(list, "the file Slack kept back").content).toBe("the file Slack kept back");
    expect(withToken.logged).toContain(`skipped: general/2024-01-01.json: message ${ts(6)}: file F11: the export gives no address for it (no url_private)`);
    expect(find(list, "a deleted file").content).toBe("a deleted file");
    expect(withToken.logged.some((l) => l.includes("F12"))).toBe(false);
  });
});

describe("bots, subtypes, edits, reactions", () => {
  test("integration bots are named by bots.info, with Zulip's emails; deleted and unknown ones are inactive", async () => {
    const ada = await withToken.imported.as("ada@example.com");
    const { members } = (await ada.get("/users")).success();
    const bot = (name: string) => members.find((u: any) => u.full_name === name);
    expect(bot("Report Bot")).toMatchObject({ is_bot: true, is_active: true, email: "report-bot@parley.test" });
    expect(bot("Report Bot").avatar_url).toMatch(/^\/user_avatars\/\d+\/\d+\.png\?version=\d+$/);
    expect(bot("Old Hook")).toMatchObject({ is_bot: true, is_active: false, email: "oldhook-bot@parley.test" });
    expect(bot("Deleted Slack Bot B12")).toMatchObject({ is_bot: true, is_active: false, email: "deletedslackb12-bot@parley.test" });
    const list = await generalMessages(withToken);
    expect(find(list, "from a bot Slack deleted").sender_full_name).toBe("Old Hook");
    expect(find(list, "from a bot Slack forgot").sender_full_name).toBe("Deleted Slack Bot B12");
    expect(find(list, "## Weekly report").sender_full_name).toBe("Report Bot");
    // bots.info is asked with the token
    expect(hits.filter((h) => h.path.startsWith("/api/bots.info")).every((h) => h.auth === `Bearer ${TOKEN}`)).toBe(true);
  });

  test("without a token, bots are named as their messages show them, a nameless one as Zulip's deleted placeholder", async () => {
    const ada = await withoutToken.imported.as("ada@example.com");
    const { members } = (await ada.get("/users")).success();
    expect(members.find((u: any) => u.full_name === "hook")).toMatchObject({ is_bot: true, is_active: true, email: "hook-bot@parley.test" });
    expect(members.find((u: any) => u.full_name === "Deleted Slack Bot B12")).toMatchObject({ is_active: false });
  });

  test("joins, leaves, pins and renames are left out without a log line; a topic change, an edit's last text and a file comment come in", async () => {
    const list = await generalMessages(withToken);
    for (const gone of ["has joined", "has left", "pinned a", "unpinned a", "renamed the"]) expect(list.some((m: any) => m.content.includes(gone))).toBe(false);
    expect(withToken.logged.some((l) => /joined|has left|pinned|renamed/.test(l))).toBe(false);
    expect(find(list, "@**Ada Lovelace** set the channel topic").content).toBe("@**Ada Lovelace** set the channel topic: launches");
    const edited = find(list, "fixed the typo");
    expect(edited.last_edit_timestamp).toBeUndefined();
    expect(edited.timestamp).toBe(Math.floor(Number(ts(16))));
    expect(find(list, "a comment on the file").sender_full_name).toBe("Bob Builder");
  });

  test("reactions with skin tones merge under the emoji's Zulip name, one per person; an unknown emoji is logged once", async () => {
    const m = find(await generalMessages(withToken), "applause");
    const people = new Map<number, string>();
    const ada = await withToken.imported.as("ada@example.com");
    for (const u of (await ada.get("/users")).success().members) people.set(u.user_id, u.full_name);
    expect(m.reactions.map((r: any) => [r.emoji_name, r.emoji_code, people.get(r.user_id)]).sort()).toEqual([
      ["clap", "1f44f", "Ada Lovelace"],
      ["clap", "1f44f", "Bob Builder"],
    ]);
    expect(withToken.logged.filter((l) => l.includes("no_such_emoji"))).toEqual([`skipped: general/2024-01-01.json: message ${ts(18)}: reaction :no_such_emoji:: Zulip has no such emoji`]);
  });
});

describe("avatars", () => {
  test("a person's Slack picture becomes their avatar, served in both sizes", async () => {
    const ada = await withToken.imported.as("ada@example.com");
    const me = (await ada.get("/users/me")).success();
    expect(me.avatar_url).toMatch(new RegExp(`^/user_avatars/\\d+/${me.user_id}\\.png\\?version=\\d+$`));
    const server = createServer(withToken.imported.app);
    for (const [path, size] of [[me.avatar_url, 100], [me.avatar_url.replace(".png", "-medium.png"), 500]] as const) {
      const res = await server.handle(new Request(`http://parley.test${path}`));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      const sharp = (await import("sharp")).default;
      expect(await sharp(Buffer.from(await res.arrayBuffer())).metadata()).toMatchObject({ width: size, height: size });
    }
    const row = await withToken.imported.app.db.get<{ avatar_source: string }>("SELECT avatar_source FROM users WHERE delivery_email = 'ada@example.com'");
    expect(row!.avatar_source).toBe("U");
  });

  test("a picture that cannot be fetched or is no image leaves the default avatar, logged and counted in the summary", async () => {
    const sources = await withToken.imported.app.db.all<{ full_name: string; avatar_source: string }>(
      "SELECT full_name, avatar_source FROM users WHERE full_name IN ('Bob Builder', 'Gus Member', 'Cy Plain') ORDER BY full_name",
    );
    expect(sources).toEqual([
      { full_name: "Bob Builder", avatar_source: "G" },
      { full_name: "Cy Plain", avatar_source: "G" },
      { full_name: "Gus Member", avatar_source: "G" },
    ]);
    expect(withToken.logged.some((l) => l.startsWith("skipped: users.json: U02 (Bob Builder): the avatar was not imported (") && l.includes("404"))).toBe(true);
    expect(withToken.logged.some((l) => l.startsWith("skipped: users.json: U03 (Gus Member): the avatar was not imported (it is not an image"))).toBe(true);
    expect(withToken.result.skipped.get("avatars")).toBe(2);
    expect(withToken.result.summary.join("\n")).toContain("2 avatars");
    expect(withToken.result.summary).toContain("2 people and bots have their Slack avatar.");
  });

  test("avatars come in without a token too (they are public pictures)", async () => {
    const ada = await withoutToken.imported.as("ada@example.com");
    expect((await ada.get("/users/me")).success().avatar_url).toContain("/user_avatars/");
    expect(hits.some((h) => h.path === "/avatars/ada.png" && h.auth === null)).toBe(true);
    expect(withoutToken.result.skipped.get("avatars")).toBe(2);
  });
});
