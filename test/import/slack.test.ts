import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importSlack } from "../../src/import/slack/import";
import type { ImportResult } from "../../src/import/common/run";
import { channel, message, user, writeSlackZip, type SlackExport } from "./slack-export";
import { importConfig, openImported, type Imported } from "./open-imported";

const root = mkdtempSync(join(tmpdir(), "parley-slack-"));
const TOKEN = "xoxe-test-token";
let fileHost: ReturnType<typeof Bun.serve>;
const hits: { path: string; auth: string | null }[] = [];
let flakyCalls = 0;

const ts = (day: number, n: number) => `${1704067200 + day * 86400 + n * 60}.000${String(n).padStart(3, "0")}`;

function exportData(host: string): SlackExport {
  const file = (id: string, name: string, title: string, path: string, mimetype = "text/plain") => ({
    id,
    name,
    title,
    mimetype,
    size: 20,
    url_private: `${host}${path}`,
    timestamp: 1704067200,
  });
  return {
    users: [
      user("U01", "ada", "Ada Lovelace", "ada@example.com", { is_primary_owner: true, is_owner: true, is_admin: true, tz: "Europe/London" }),
      user("U02", "bob", "Bob Builder", "bob@example.com", { is_admin: true, tz: "America/Chicago" }),
      user("U03", "cy", "Cy Owner", "cy@example.com", { is_owner: true }),
      user("U04", "dee", "Dee Guest", "dee@example.com", { is_restricted: true }),
      user("U05", "eve", "Eve Single", "eve@example.com", { is_restricted: true, is_ultra_restricted: true }),
      user("U06", "finn", "Finn Former", "finn@example.com", { deleted: true }),
      user("U07", "gus", "Gus Member", "gus@example.com", { tz: null }),
      user("U08", "deploybot", "Deploy Bot", null, { is_bot: true, profile: { bot_id: "B08", real_name_normalized: "Deploy Bot" } }),
      user("USLACKBOT", "slackbot", "Slackbot", null, { profile: {} }),
      user("U09", "noemail", "No Email", null),
      // the same person under a second Slack account (shared channel): merged into Gus
      user("U10", "gus2", "Gus Again", "GUS@example.com"),
    ],
    channels: [
      channel("C01", "general", ["U01", "U02", "U03", "U04", "U07"], "Company-wide *announcements*"),
      channel("C02", "random", ["U01", "U02", "U06", "U99"], "Anything goes"),
      channel("C03", "old-stuff", ["U01"], "Before the move", { is_archived: true }),
    ],
    groups: [channel("G01", "secret", ["U01", "U02"], "Just us")],
    mpims: [{ id: "G02", name: "mpdm-ada--bob--gus-1", created: 1700000000, members: ["U01", "U02", "U07"], purpose: { value: "" } }],
    dms: [{ id: "D01", created: 1700000000, members: ["U01", "U02"] }],
    days: {
      "general/2024-01-01.json": [
        message("U01", ts(0, 1), "Hello <!channel>, welcome to *Parley* and _friends_ ~old~ `code`", {
          reactions: [
            { name: "+1", users: ["U02", "U03"], count: 2 },
            { name: "thumbsup::skin-tone-2", users: ["U02", "U07"], count: 2 },
            { name: "no_such_emoji_here", users: ["U02"], count: 1 },
          ],
        }),
        message("U02", ts(0, 2), "Release plan for <#C02|random> with <@U07>", { thread_ts: ts(0, 2), reply_count: 1 }),
        message("U07", ts(0, 3), "See <https://example.com/plan|the plan> and <https://example.org>", { thread_ts: ts(0, 2), parent_user_id: "U02" }),
        message("U42", ts(0, 4), "who am I"),
        message("U03", ts(0, 5), "<@U03> has joined the channel", { subtype: "channel_join" }),
        message("U01", ts(0, 6), "Minutes attached", { files: [file("F01", "notes.txt", "Notes", "/files/notes.txt")] }),
        { type: "message", subtype: "bot_message", bot_id: "B99", username: "CI Bot", ts: ts(0, 7), text: "Build passed" },
        message("U10", ts(0, 8), "posting from my other account"),
        message("U02", ts(0, 9), "A second thread", { thread_ts: ts(0, 9), reply_count: 0 }),
        message("U03", ts(0, 14), "ready :shipit:", { reactions: [{ name: "partyparrot", users: ["U01"], count: 1 }] }),
      ],
      "general/2024-01-02.json": [
        message("U01", ts(1, 1), "```\nconst x = 1;\n```"),
        message("U01", ts(1, 2), "waves", { subtype: "me_message" }),
        message("U02", ts(1, 3), "reply on the next day", { thread_ts: ts(0, 2), parent_user_id: "U02" }),
        message("U07", ts(1, 4), "flaky file", { files: [file("F03", "flaky.txt", "Flaky", "/files/flaky.txt")] }),
        message("U07", ts(1, 5), "gone file", { files: [file("F04", "gone.txt", "Gone", "/files/gone.txt")] }),
        message("U07", ts(1, 6), "elsewhere", { files: [{ id: "F05", name: "doc", title: "Design doc", url_private: "https://docs.example.com/d/1", mimetype: "application/pdf" }] }),
      ],
      "secret/2024-01-01.json": [message("U02", ts(0, 10), "private note", { files: [file("F02", "plan.txt", "Plan", "/files/plan.txt")] })],
      "mpdm-ada--bob--gus-1/2024-01-01.json": [message("U07", ts(0, 11), "group hello")],
      "D01/2024-01-02.json": [message("U02", ts(1, 7), "hi Ada")],
      "random/2024-01-01.json": [message("U06", ts(0, 12), "I was here")],
      "old-stuff/2023-12-31.json": [message("U01", ts(-1, 1), "from last year")],
      "unknown-folder/2024-01-01.json": [message("U01", ts(0, 13), "lost")],
    },
  };
}

let result: ImportResult;
let logged: string[] = [];
let dataDir: string;
let imported: Imported;

beforeAll(async () => {
  fileHost = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      const host = `http://127.0.0.1:${fileHost.port}`;
      hits.push({ path: url.pathname, auth: req.headers.get("authorization") });
      if (req.headers.get("authorization") !== `Bearer ${TOKEN}`) return new Response("no", { status: 401 });
      if (url.pathname === "/files/notes.txt") return new Response("meeting minutes\n");
      if (url.pathname === "/api/emoji.list")
        return Response.json({ ok: true, emoji: { shipit: `${host}/emoji/shipit.png`, partyparrot: `${host}/emoji/partyparrot.gif`, ship_it_too: "alias:shipit" } });
      if (url.pathname.startsWith("/emoji/")) return new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      if (url.pathname === "/files/plan.txt") return new Response("the secret plan\n");
      if (url.pathname === "/files/flaky.txt") return ++flakyCalls < 2 ? new Response("busy", { status: 503 }) : new Response("flaky but fine\n");
      return new Response("not found", { status: 404 });
    },
  });
  const host = `http://127.0.0.1:${fileHost.port}`;
  const zip = join(root, "export.zip");
  writeSlackZip(zip, exportData(host));
  dataDir = join(root, "data");
  result = await importSlack(importConfig(dataDir), {
    zip,
    token: TOKEN,
    orgName: "Acme",
    fileHosts: ["127.0.0.1"],
    emojiHosts: ["127.0.0.1"],
    apiBase: `${host}/api`,
    allowPrivateDownloads: true,
    log: (l) => logged.push(l),
  });
  imported = await openImported(dataDir);
  // the first request loads the OpenAPI validator: not part of any test's time
  (await (await imported.as("ada@example.com")).get("/users/me")).success();
}, 60_000);

afterAll(async () => {
  await imported?.close();
  fileHost?.stop(true);
  rmSync(root, { recursive: true, force: true });
});

const byName = (list: any[], name: string) => list.find((x) => x.full_name === name || x.name === name);

describe("people", () => {
  test("roles, states, bots, names, emails and time zones follow Zulip's Slack rules", async () => {
    const ada = await imported.as("ada@example.com");
    const { members } = (await ada.get("/users", { include_custom_profile_fields: false })).success();
    const shape = (name: string) => {
      const u = byName(members, name);
      return u && { role: u.role, is_active: u.is_active, is_bot: u.is_bot, timezone: u.timezone, email: u.delivery_email ?? u.email };
    };
    expect(shape("Ada Lovelace")).toEqual({ role: 100, is_active: true, is_bot: false, timezone: "Europe/London", email: "ada@example.com" });
    expect(shape("Bob Builder")).toEqual({ role: 200, is_active: true, is_bot: false, timezone: "America/Chicago", email: "bob@example.com" });
    expect(shape("Cy Owner")?.role).toBe(100);
    expect(shape("Dee Guest")?.role).toBe(600);
    expect(shape("Eve Single")?.role).toBe(600);
    expect(shape("Gus Member")).toEqual({ role: 400, is_active: true, is_bot: false, timezone: "America/New_York", email: "gus@example.com" });
    // a deleted person is deactivated and named by their Slack handle, as in Zulip
    expect(shape("finn")).toEqual({ role: 400, is_active: false, is_bot: false, timezone: "Europe/Paris", email: "finn@example.com" });
    expect(shape("Deploy Bot")).toMatchObject({ is_bot: true, email: "deploy-bot@parley.test" });
    expect(shape("Slackbot")).toMatchObject({ is_bot: true, email: "imported-slackbot-bot@parley.test" });
    expect(shape("CI Bot")).toMatchObject({ is_bot: true });
    expect(byName(members, "No Email")).toBeUndefined();
    expect(byName(members, "Gus Again")).toBeUndefined();
    expect(result.totals.people).toBe(10);
  });

  test("the primary owner's key is in the data dir's zuliprc", async () => {
    const rc = readFileSync(join(dataDir, "zuliprc"), "utf8");
    const key = /key=(\S+)/.exec(rc)![1]!;
    const row = await imported.app.db.get<{ api_key: string; role: number }>("SELECT api_key, role FROM users WHERE delivery_email = 'ada@example.com'");
    expect(rc).toContain("email=ada@example.com");
    expect(key).toBe(row!.api_key);
    expect(row!.role).toBe(100);
    expect(result.owner.email).toBe("ada@example.com");
  });
});

describe("channels", () => {
  test("public, private and archived channels keep their purposes and members", async () => {
    const ada = await imported.as("ada@example.com");
    const { streams } = (await ada.get("/streams", { include_all: true, exclude_archived: false })).success();
    const general = byName(streams, "general");
    expect(general).toMatchObject({ invite_only: false, description: "Company-wide *announcements*", is_archived: false });
    expect(general.rendered_description).toBe("<p>Company-wide <em>announcements</em></p>");
    expect(byName(streams, "secret")).toMatchObject({ invite_only: true, description: "Just us" });
    expect(byName(streams, "old-stuff")).toMatchObject({ is_archived: true });
    const subscribers = async (name: string) => {
      const { subscribers } = (await ada.get(`/streams/${byName(streams, name).stream_id}/members`)).success();
      const { members } = (await ada.get("/users")).success();
      return subscribers.map((id: number) => members.find((m: any) => m.user_id === id).full_name).sort();
    };
    expect(await subscribers("general")).toEqual(["Ada Lovelace", "Bob Builder", "Cy Owner", "Dee Guest", "Gus Member"]);
    // subscriber lists show active people only (as Zulip's); the deactivated member's row is kept
    expect(await subscribers("random")).toEqual(["Ada Lovelace", "Bob Builder"]);
    const finnRows = await imported.app.db.all(
      "SELECT s.active FROM subscriptions s JOIN users u ON u.id = s.user_id JOIN streams c ON c.id = s.stream_id WHERE u.delivery_email = 'finn@example.com' AND c.name = 'random'",
    );
    expect(finnRows).toEqual([{ active: 1 }]);
    expect(logged).toContain("skipped: channels.json: random: member U99: not in users.json");
    expect(await subscribers("secret")).toEqual(["Ada Lovelace", "Bob Builder"]);
  });

  test("a private channel is invisible to those outside it, and #general announces", async () => {
    const gus = await imported.as("gus@example.com");
    const { streams } = (await gus.get("/streams")).success();
    expect(byName(streams, "secret")).toBeUndefined();
    const ada = await imported.as("ada@example.com");
    const reg = (await ada.post("/register", { fetch_event_types: ["realm"] })).success();
    const general = (await ada.get("/get_stream_id", { stream: "general" })).success().stream_id;
    expect(reg.realm_new_stream_announcements_stream_id).toBe(general);
    expect(reg.realm_name).toBe("Acme");
  });
});

describe("messages", () => {
  const all = async (email: string) => {
    const c = await imported.as(email);
    return (await c.get("/messages", { anchor: "oldest", num_before: 0, num_after: 1000, apply_markdown: true })).success().messages as any[];
  };

  test("every message lands in its place with its sender, time, topic and rendered HTML", async () => {
    const msgs = await all("ada@example.com");
    const find = (text: string) => {
      const m = msgs.find((x) => x.content.includes(text));
      if (!m) throw new Error(`no message with ${text}`);
      return m;
    };
    const hello = find("welcome to");
    expect(hello).toMatchObject({ display_recipient: "general", subject: "imported from Slack", sender_full_name: "Ada Lovelace", timestamp: 1704067260 });
    expect(hello.content).toBe(
      '<p>Hello <span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span>, welcome to <strong>Parley</strong> and <em>friends</em> <del>old</del> <code>code</code></p>',
    );
    const parent = find("Release plan");
    expect(parent.subject).toBe("2024-01-01 Release plan for #**random** with @**Gus Member**");
    expect(parent.content).toContain('class="stream"');
    expect(parent.content).toContain('<span class="user-mention" data-user-id="');
    const reply = find("the plan");
    expect(reply.subject).toBe(parent.subject);
    expect(reply.content).toBe('<p>See <a href="https://example.com/plan">the plan</a> and <a href="https://example.org">https://example.org</a></p>');
    expect(find("reply on the next day").subject).toBe(parent.subject);
    expect(find("A second thread").subject).toBe("2024-01-01 A second thread");
    expect(find("const x").content).toContain('<div class="codehilite"><pre><span></span><code>const x = 1;\n</code></pre></div>');
    const me = find("waves");
    expect(me.content).toBe("<p>/me waves</p>");
    expect(me.is_me_message).toBe(true);
    expect(find("Build passed").sender_full_name).toBe("CI Bot");
    expect(find("posting from my other account").sender_full_name).toBe("Gus Member");
    expect(find("from last year")).toMatchObject({ display_recipient: "old-stuff", timestamp: 1704067200 - 86400 + 60 });
    // ids follow time across conversations
    const times = msgs.map((m) => m.timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const group = find("group hello");
    expect(group.type).toBe("private");
    expect(group.display_recipient.map((r: any) => r.email).sort()).toEqual(["ada@example.com", "bob@example.com", "gus@example.com"].sort());
    const dm = find("hi Ada");
    expect(dm.display_recipient.map((r: any) => r.full_name).sort()).toEqual(["Ada Lovelace", "Bob Builder"]);
    expect(dm.subject).toBe("");
  });

  test("messages are read by everyone, and a mention is a mention", async () => {
    const gus = await imported.as("gus@example.com");
    const reg = (await gus.post("/register", {})).success();
    expect(reg.unread_msgs.count).toBe(0);
    const msgs = await all("gus@example.com");
    const plan = msgs.find((m) => m.content.includes("Release plan"));
    expect(plan.flags).toEqual(["read", "mentioned"]);
    const hello = msgs.find((m) => m.content.includes("welcome to"));
    expect(hello.flags).toEqual(["read", "stream_wildcard_mentioned", "wildcard_mentioned"]);
  });

  test("reactions come under Zulip's emoji names, skin tones merged, unknown ones skipped", async () => {
    const msgs = await all("ada@example.com");
    const hello = msgs.find((m) => m.content.includes("welcome to"));
    const reactions = hello.reactions.map((r: any) => `${r.emoji_name}/${r.emoji_code}/${r.reaction_type}/${r.user_id}`).sort();
    const ids = Object.fromEntries((await imported.app.db.all<{ delivery_email: string; id: number }>("SELECT delivery_email, id FROM users")).map((u) => [u.delivery_email, u.id]));
    expect(reactions).toEqual(
      [`+1/1f44d/unicode_emoji/${ids["bob@example.com"]}`, `+1/1f44d/unicode_emoji/${ids["cy@example.com"]}`, `+1/1f44d/unicode_emoji/${ids["gus@example.com"]}`].sort(),
    );
    expect(logged.some((l) => l.includes("reaction :no_such_emoji_here:"))).toBe(true);
  });

  test("a message from someone not in users.json is skipped, logged with its file, and counted", () => {
    expect(logged).toContain("skipped: general/2024-01-01.json: message " + ts(0, 4) + ": its sender U42 is not in users.json");
    expect(result.skipped.get("messages")).toBe(1);
    expect(result.skipped.get("reactions")).toBe(1);
    expect(result.skipped.get("day files")).toBe(1);
    expect(result.summary[1]).toContain("1 messages");
  });
});

describe("files", () => {
  test("files are downloaded with the token, stored as uploads and linked from their messages", async () => {
    expect(hits.filter((h) => h.path === "/files/notes.txt").every((h) => h.auth === `Bearer ${TOKEN}`)).toBe(true);
    const gus = await imported.as("gus@example.com");
    const msgs = (await gus.get("/messages", { anchor: "oldest", num_before: 0, num_after: 1000 })).success().messages as any[];
    const minutes = msgs.find((m) => m.content.includes("Minutes attached"));
    const href = /href="(\/user_uploads\/[^"]+)"/.exec(minutes.content)![1]!;
    expect(minutes.content).toContain(">Notes</a>");
    const got = await gus.request("GET", href, {}, { raw: true });
    expect(got.status).toBe(200);
    expect(got.text).toBe("meeting minutes\n");
    // a 503 is retried
    const flaky = msgs.find((m) => m.content.includes("flaky file"));
    expect(flaky.content).toContain("/user_uploads/");
    expect(flakyCalls).toBe(2);
    // a file that cannot be fetched is logged and linked at its source
    const gone = msgs.find((m) => m.content.includes("gone file"));
    expect(gone.content).toContain(`/files/gone.txt`);
    expect(result.skipped.get("files")).toBe(1);
    // a link elsewhere stays a link
    expect(msgs.find((m) => m.content.includes("elsewhere")).content).toContain('<a href="https://docs.example.com/d/1">Design doc</a>');
    expect(result.totals.files).toBe(3);
  });

  test("a private channel's file is readable by its members only", async () => {
    const bob = await imported.as("bob@example.com");
    const msgs = (await bob.get("/messages", { anchor: "oldest", num_before: 0, num_after: 1000 })).success().messages as any[];
    const note = msgs.find((m) => m.content.includes("private note"));
    const href = /href="(\/user_uploads\/[^"]+)"/.exec(note.content)![1]!;
    expect((await bob.request("GET", href, {}, { raw: true })).text).toBe("the secret plan\n");
    const gus = await imported.as("gus@example.com");
    const denied = await gus.request("GET", href, {}, { raw: true });
    expect(denied.status).toBeGreaterThanOrEqual(400);
    expect(denied.text).not.toContain("the secret plan");
  });

  test("the import's downloads folder and its thread scratch file are gone after success", () => {
    expect(existsSync(join(root, ".data.import-in-progress-downloads"))).toBe(false);
    expect(existsSync(join(root, ".data.import-in-progress"))).toBe(false);
    expect(existsSync(join(dataDir, "slack-threads.scratch"))).toBe(false);
  });
});

describe("custom emoji", () => {
  test("Slack's custom emoji come in with the token (aliases left out) and serve reactions and messages", async () => {
    const ada = await imported.as("ada@example.com");
    const { emoji } = (await ada.get("/realm/emoji")).success();
    const names = Object.values(emoji as Record<string, { name: string; deactivated: boolean }>).map((e) => e.name).sort();
    expect(names).toEqual(["partyparrot", "shipit"]);
    expect(hits.find((h) => h.path === "/api/emoji.list")?.auth).toBe(`Bearer ${TOKEN}`);
    const msgs = (await ada.get("/messages", { anchor: "newest", num_before: 50, num_after: 0 })).success().messages as any[];
    const ready = msgs.find((m) => m.content.includes("ready"));
    expect(ready.content).toContain('<img alt=":shipit:" class="emoji"');
    const parrot = Object.entries(emoji as Record<string, { name: string }>).find(([, e]) => e.name === "partyparrot")![0];
    expect(ready.reactions).toEqual([expect.objectContaining({ emoji_name: "partyparrot", emoji_code: parrot, reaction_type: "realm_emoji" })]);
  });
});

describe("search", () => {
  test("imported messages are searchable at once, with nothing left to index", async () => {
    const state = await imported.app.db.get<{ last_id: number; newest: number }>("SELECT last_id, (SELECT max(id) FROM messages) AS newest FROM messages_fts_indexed");
    expect(state!.last_id).toBe(state!.newest);
    const ada = await imported.as("ada@example.com");
    const { messages } = (await ada.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "search", operand: "minutes" }] })).success();
    expect(messages.map((m: any) => m.content).join()).toContain("Minutes attached");
  });
});
