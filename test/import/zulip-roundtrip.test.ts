// The round trip: an organization made through the API → parley export (Zulip's format) → parley
// import zulip into an empty data dir → the same /register and the same messages, flags,
// reactions, uploads and settings, read through the API on both sides.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type Client, type TestServer } from "../helpers/server";
import { makePng, upload } from "../helpers/uploads";
import { writeZulipExport } from "../../src/export/zulip";
import { importZulip } from "../../src/import/zulip/import";
import type { ImportResult } from "../../src/import/common/run";
import { readTar } from "../../src/lib/tar";
import { importConfig, openImported, type Imported } from "./open-imported";

const root = mkdtempSync(join(tmpdir(), "parley-zulip-rt-"));
const archive = join(root, "org.tar.gz");
const dataDir = join(root, "imported");
let s: TestServer;
let imported: Imported;
let result: ImportResult;
const fileBytes = new TextEncoder().encode("quarterly numbers, version 3\n");
let png: Buffer;
const skipped: string[] = [];

/** People by email on both sides (ids are new after an import). */
const emailOf = (register: any) => new Map<number, string>(register.realm_users.map((u: any) => [u.user_id, u.delivery_email ?? u.email]));

async function populate() {
  const { desdemona, iago, hamlet, othello, cordelia, polonius } = s.users;
  const d = desdemona.client;
  (await d.post("/users/me/subscriptions", { subscriptions: [{ name: "design", description: "Shapes and *colours*" }], principals: [desdemona.id, iago.id, hamlet.id, othello.id, polonius.id] })).success();
  (await d.post("/users/me/subscriptions", { subscriptions: [{ name: "board", description: "Owners only" }], invite_only: true, principals: [desdemona.id, iago.id] })).success();
  png = await makePng(8, 8, "#aa3311");
  (await iago.client.request("POST", "/realm/emoji/parrot", { file: new File([new Uint8Array(png)], "parrot.png", { type: "image/png" }) })).success();
  (await d.post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://tracker.example.com/{id}" })).success();
  const field = (await d.post("/realm/profile_fields", { name: "Team", hint: "Where you work", field_type: 1 })).success().id;
  (await hamlet.client.patch("/users/me/profile_data", { data: [{ id: field, value: "Castle" }] })).success();
  const group = (await d.post("/user_groups/create", { name: "castle", description: "Castle folk", members: [hamlet.id, othello.id] })).success().group_id;
  (await d.post("/user_groups/create", { name: "everyone-ish", description: "Castle and more", members: [cordelia.id], subgroups: [group] })).success();
  (await d.patch("/realm", { description: "We make things", message_content_edit_limit_seconds: 1200, allow_message_editing: true, waiting_period_threshold: 7, topics_policy: "disable_empty_topic", default_language: "de" })).success();
  (await hamlet.client.patch("/settings", { twenty_four_hour_time: true })).success();
  const design = (await d.get("/get_stream_id", { stream: "design" })).success().stream_id;
  (await hamlet.client.post("/users/me/subscriptions/properties", {
    subscription_data: [
      { stream_id: design, property: "color", value: "#123456" },
      { stream_id: design, property: "pin_to_top", value: true },
      { stream_id: design, property: "desktop_notifications", value: false },
    ],
  })).success();
  (await othello.client.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: design, property: "is_muted", value: true }] })).success();
  (await othello.client.post("/users/me/muted_users/" + iago.id)).success();
  (await othello.client.post("/users/me/alert_words", { alert_words: ["colours"] })).success();

  const send = async (c: Client, p: Record<string, any>) => (await c.post("/messages", p)).success().id as number;
  const file = await upload(s, "hamlet", "numbers.txt", fileBytes, "text/plain");
  const m1 = await send(hamlet.client, { type: "stream", to: "design", topic: "plans", content: `First draft, see [numbers](${file.url}) and #123, @**Othello, the Moor of Venice**` });
  const m2 = await send(iago.client, { type: "stream", to: "design", topic: "plans", content: "Looks good :parrot:" });
  await send(othello.client, { type: "stream", to: "design", topic: "colours", content: "**Red** or blue?" });
  await send(d, { type: "stream", to: "board", topic: "budget", content: "Private numbers" });
  const dm = await send(hamlet.client, { type: "direct", to: [othello.id], content: "Just between us" });
  await send(cordelia.client, { type: "direct", to: [hamlet.id, othello.id], content: "Group hello" });
  (await hamlet.client.patch(`/messages/${m1}`, { content: `First draft (fixed), see [numbers](${file.url}) and #123, @**Othello, the Moor of Venice**` })).success();
  (await othello.client.post(`/messages/${m1}/reactions`, { emoji_name: "parrot" })).success();
  (await iago.client.post(`/messages/${m1}/reactions`, { emoji_name: "thumbs_up" })).success();
  (await hamlet.client.post(`/messages/${m2}/reactions`, { emoji_name: "heart" })).success();
  (await othello.client.post("/messages/flags", { messages: [m1, dm], op: "add", flag: "starred" })).success();
  (await othello.client.post("/messages/flags", { messages: [m1], op: "add", flag: "read" })).success();
  (await polonius.client.post("/messages/flags", { messages: [m2], op: "add", flag: "read" })).success();
}

beforeAll(async () => {
  // the real clock on both sides: who is a full member depends on the time
  s = await startServer({ realClock: true });
  await populate();
  // exported while the server runs, from its open database
  await writeZulipExport(s.app.config, archive, { db: s.app.db });
  result = await importZulip(importConfig(dataDir), { archive, log: (l) => skipped.push(l), out: { write: () => true, isTTY: false } as any });
  imported = await openImported(dataDir);
}, 60_000);

afterAll(async () => {
  await imported?.close();
  await s?.close();
  rmSync(root, { recursive: true, force: true });
});

const REGISTER = { apply_markdown: true, client_gravatar: false, include_subscribers: true };

async function pair(email: string): Promise<[Client, Client]> {
  const name = email.split("@")[0] as keyof TestServer["users"];
  return [s.users[name].client, await imported.as(email)];
}

/** The parts of /register that must survive, with ids replaced by emails and names. */
function comparable(r: any) {
  const email = emailOf(r);
  const streamName = new Map<number, string>([...r.subscriptions, ...r.unsubscribed, ...r.never_subscribed].map((x: any) => [x.stream_id, x.name]));
  const groupName = new Map<number, string>(r.realm_user_groups.map((g: any) => [g.id, g.name]));
  const emails = (ids: number[]) => ids.map((id) => email.get(id)).sort();
  return {
    users: r.realm_users.map((u: any) => ({ email: email.get(u.user_id), full_name: u.full_name, role: u.role, is_bot: u.is_bot, timezone: u.timezone, profile: Object.values(u.profile_data ?? {}).map((v: any) => v.value) })).sort((a: any, b: any) => a.email.localeCompare(b.email)),
    subscriptions: r.subscriptions.map((x: any) => ({
      name: x.name, description: x.description, invite_only: x.invite_only, color: x.color, pin_to_top: x.pin_to_top, is_muted: x.is_muted,
      desktop_notifications: x.desktop_notifications, history_public_to_subscribers: x.history_public_to_subscribers, subscribers: emails(x.subscribers),
    })).sort((a: any, b: any) => a.name.localeCompare(b.name)),
    groups: r.realm_user_groups.filter((g: any) => !g.is_system_group).map((g: any) => ({ name: g.name, description: g.description, members: emails(g.members), subgroups: g.direct_subgroup_ids.map((id: number) => groupName.get(id)).sort() })),
    system_groups: r.realm_user_groups.filter((g: any) => g.is_system_group).map((g: any) => ({ name: g.name, members: emails(g.members) })).sort((a: any, b: any) => a.name.localeCompare(b.name)),
    emoji: Object.values(r.realm_emoji).map((e: any) => ({ name: e.name, deactivated: e.deactivated, author: email.get(e.author_id) })),
    linkifiers: r.realm_linkifiers.map((l: any) => ({ pattern: l.pattern, url_template: l.url_template })),
    profile_fields: r.custom_profile_fields.map((f: any) => ({ name: f.name, hint: f.hint, type: f.type })),
    realm: { name: r.realm_name, description: r.realm_description, edit_limit: r.realm_message_content_edit_limit_seconds, allow_editing: r.realm_allow_message_editing, waiting: r.realm_waiting_period_threshold, topics_policy: r.realm_topics_policy, language: r.realm_default_language, edit_history: r.realm_message_edit_history_visibility_policy, email_visibility: r.realm_email_address_visibility ?? null, bots: r.realm_bot_creation_policy ?? null, announcements: streamName.get(r.realm_new_stream_announcements_stream_id) ?? null },
    settings: { twenty_four_hour_time: r.user_settings.twenty_four_hour_time },
    unread: { count: r.unread_msgs.count, streams: r.unread_msgs.streams.map((x: any) => ({ stream: streamName.get(x.stream_id), topic: x.topic, n: x.unread_message_ids.length })), dms: r.unread_msgs.pms.length, huddles: r.unread_msgs.huddles.length, mentions: r.unread_msgs.mentions.length },
    starred: r.starred_messages.length,
    user_topics: r.user_topics.map((t: any) => ({ stream: streamName.get(t.stream_id), topic: t.topic_name, policy: t.visibility_policy })),
    muted_users: r.muted_users.map((m: any) => email.get(m.id)),
    alert_words: r.alert_words,
  };
}

async function messagesOf(c: Client) {
  const body = (await c.get("/messages", { anchor: "newest", num_before: 100, num_after: 0, narrow: [], apply_markdown: true })).success();
  const reg = (await c.post("/register", { ...REGISTER, fetch_event_types: ["realm_user"] })).success();
  const email = emailOf(reg);
  const norm = (html: string) => html.replace(/data-user-id="\d+"/g, "").replace(/data-stream-id="\d+"/g, "").replace(/\/user_uploads\/[^"]+/g, "UPLOAD").replace(/\/user_avatars\/[^"]+/g, "EMOJI").replace(/channel\/\d+-/g, "channel/N-");
  return body.messages.map((m: any) => ({
    sender: email.get(m.sender_id),
    where: m.type === "stream" ? `${m.display_recipient}>${m.subject}` : (m.display_recipient as any[]).map((p) => p.email && email.get(p.id)).sort().join(","),
    content: norm(m.content),
    flags: [...m.flags].sort(),
    reactions: m.reactions.map((r: any) => `${r.emoji_name}/${r.reaction_type}/${email.get(r.user_id)}`).sort(),
    edited: Boolean(m.last_edit_timestamp),
    timestamp: m.timestamp,
  }));
}

describe("a Parley organization exported to Zulip's format and imported again", () => {
  test("the export is a .tar.gz in Zulip's layout: realm.json, messages, attachments, uploads, emoji and avatars with their records", async () => {
    const names: string[] = [];
    await readTar(archive, async (e) => {
      names.push(e.name);
    });
    for (const n of ["realm.json", "messages-000001.json", "attachment.json", "uploads/records.json", "emoji/records.json", "avatars/records.json"]) {
      expect(names).toContain(`zulip-export-parley/${n}`);
    }
    expect(names.some((n) => /^zulip-export-parley\/uploads\/\d+\/.+\/numbers\.txt$/.test(n))).toBe(true);
    expect(names.some((n) => /^zulip-export-parley\/emoji\/\d+\/emoji\/images\/.+\.png$/.test(n))).toBe(true);
  });

  test("the import reports what came in and skips nothing", async () => {
    const count = async (table: string) => (await s.app.db.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))!.n;
    // the Notification Bot is Parley's own on both sides (counted once, as the owner is)
    expect(result.totals).toMatchObject({ people: (await count("users")) - 1, channels: await count("streams"), messages: await count("messages"), reactions: 3, files: 1 });
    expect(skipped).toEqual([]);
    expect(result.summary[1]).toBe("Skipped nothing.");
    expect(existsSync(join(dataDir, "parley.db"))).toBe(true);
  });

  for (const email of ["desdemona@zulip.com", "hamlet@zulip.com", "othello@zulip.com", "polonius@zulip.com"]) {
    test(`${email} finds the same /register: people, channels and subscription settings, groups, emoji, linkifiers, profile fields, settings, unreads and stars`, async () => {
      const [before, after] = await pair(email);
      const a = comparable((await before.post("/register", REGISTER)).success());
      const b = comparable((await after.post("/register", REGISTER)).success());
      expect(b).toEqual(a);
      if (email === "hamlet@zulip.com") expect(b.subscriptions.find((x: any) => x.name === "design")).toMatchObject({ color: "#123456", pin_to_top: true, desktop_notifications: false });
      if (email === "othello@zulip.com") expect(b.starred).toBe(2);
    });

    test(`${email} finds the same messages with their places, flags, reactions, edits and times`, async () => {
      const [before, after] = await pair(email);
      const a = await messagesOf(before);
      const b = await messagesOf(after);
      expect(a.length).toBeGreaterThan(0);
      expect(b).toEqual(a);
    });
  }

  test("the edit history of an edited message survives, with its editor", async () => {
    const [, after] = await pair("hamlet@zulip.com");
    const found = (await after.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "search", operand: "fixed" }] })).success().messages;
    expect(found.length).toBe(1);
    const history = (await after.get(`/messages/${found[0].id}/history`)).success().message_history;
    expect(history.length).toBe(2);
    expect(history[0].content).toStartWith("First draft, see");
    expect(history[1].content).toStartWith("First draft (fixed)");
    expect(history[1].user_id).toBe((await imported.app.db.get<{ id: number }>("SELECT id FROM users WHERE delivery_email = 'hamlet@zulip.com'"))!.id);
  });

  test("the upload comes back byte for byte, linked from its message, and the custom emoji's image too", async () => {
    const [, after] = await pair("othello@zulip.com");
    const m = (await after.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [{ operator: "search", operand: "draft" }], apply_markdown: false })).success().messages[0];
    const url = /\((\/user_uploads\/[^)]+)\)/.exec(m.content)![1]!;
    const res = await imported.as("othello@zulip.com").then(async () => {
      const row = (await imported.app.db.get<{ email: string; api_key: string }>("SELECT email, api_key FROM users WHERE delivery_email = 'othello@zulip.com'"))!;
      const { createServer } = await import("../../src/server");
      return createServer(imported.app).handle(new Request(new URL(url, "http://parley.test"), { headers: { authorization: "Basic " + btoa(`${row.email}:${row.api_key}`) } }));
    });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(fileBytes);
    const attachments = (await (await imported.as("hamlet@zulip.com")).get("/attachments")).success().attachments;
    expect(attachments.map((a: any) => [a.name, a.size, a.messages.length])).toEqual([["numbers.txt", fileBytes.length, 1]]);
    const emoji = Object.values((await after.get("/realm/emoji")).success().emoji) as any[];
    const parrot = emoji.find((e) => e.name === "parrot")!;
    const img = await (await import("../../src/server")).createServer(imported.app).handle(new Request(new URL(parrot.source_url, "http://parley.test")));
    expect(img.status).toBe(200);
    expect((await img.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  test("search works at once in the imported organization", async () => {
    const [, after] = await pair("hamlet@zulip.com");
    const found = (await after.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "search", operand: "blue" }] })).success().messages;
    expect(found.map((m: any) => m.subject)).toEqual(["colours"]);
  });
});
