// A hand-written Zulip-Cloud-style export imported and checked through the API: people and roles,
// channels and subscription settings, direct messages and groups, topics, rendered HTML (the
// export's, or Parley's when it has none), flags, reactions with custom emoji, edit history, groups,
// linkifiers, profile fields, settings, uploads, and the summary of what was left out.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importZulip } from "../../src/import/zulip/import";
import type { ImportResult } from "../../src/import/common/run";
import { createServer } from "../../src/server";
import { makePng } from "../helpers/uploads";
import type { Client } from "../helpers/server";
import { cloudExport, NOTES_BYTES, writeExport } from "./zulip-fixture";
import { importConfig, openImported, type Imported } from "./open-imported";

const root = mkdtempSync(join(tmpdir(), "parley-zulip-"));
const dataDir = join(root, "data");
let imported: Imported;
let result: ImportResult;
const log: string[] = [];
let ada: Client;
let di: Client;
let bo: Client;

beforeAll(async () => {
  const archive = join(root, "acme.tar.gz");
  await writeExport(archive, cloudExport(new Uint8Array(await makePng(16, 16, "#ff8800"))));
  result = await importZulip(importConfig(dataDir), { archive, log: (l) => log.push(l), out: { write: () => true, isTTY: false } as any });
  imported = await openImported(dataDir);
  [ada, di, bo] = await Promise.all(["ada@acme.test", "di@acme.test", "bo@acme.test"].map((e) => imported.as(e)));
}, 60_000);

afterAll(async () => {
  await imported?.close();
  rmSync(root, { recursive: true, force: true });
});

const register = (c: Client) => c.post("/register", { apply_markdown: true, include_subscribers: true }).then((r) => r.success());
const idOf = async (email: string) => (await imported.app.db.get<{ id: number }>("SELECT id FROM users WHERE delivery_email = ?", [email]))!.id;
const messages = async (c: Client, narrow: unknown[] = []) =>
  (await c.get("/messages", { anchor: "oldest", num_before: 0, num_after: 100, narrow, apply_markdown: true })).success().messages as any[];

describe("importing a Zulip Cloud export", () => {
  test("the summary counts what came in, notes the avatars left behind and lists fields Parley ignores", () => {
    expect(result.totals).toMatchObject({ messages: 6, reactions: 2, files: 1, channels: 3 });
    expect(result.summary[1]).toBe("Skipped nothing.");
    expect(result.summary.some((l) => /Left 1 uploaded avatars behind/.test(l))).toBe(true);
    expect(result.summary).toContain("Ignored 1 field of zerver_userprofile that Parley has no place for: favourite_colour.");
    // fields Zulip always exports and Parley knows it does not need are not reported
    expect(result.summary.join("\n")).not.toContain("search_tsvector");
    expect(log).toEqual([]);
  });

  test("people keep their names, emails, roles, states and time zones; the first owner owns the organization", async () => {
    const r = await register(ada);
    const people = Object.fromEntries(r.realm_users.concat(r.realm_non_active_users ?? []).map((u: any) => [u.delivery_email ?? u.email, u]));
    expect(people["ada@acme.test"]).toMatchObject({ full_name: "Ada Owner", role: 100, is_owner: true, timezone: "Europe/Berlin" });
    expect(people["bo@acme.test"].role).toBe(200);
    expect(people["cy@acme.test"].role).toBe(300);
    expect(people["di@acme.test"].role).toBe(400);
    expect(people["ed@acme.test"]).toMatchObject({ role: 600, is_guest: true });
    expect((await ada.get(`/users/${await idOf("fay@acme.test")}`)).success().user).toMatchObject({ full_name: "Fay Former", is_active: false });
    expect(r.realm_bots ?? []).toBeDefined();
    const bot = r.realm_users.find((u: any) => u.full_name === "Deploy Bot");
    expect(bot.is_bot).toBe(true);
    expect(r.realm_name).toBe("Acme Rockets");
    expect(r.realm_description).toBe("We build **rockets**");
    expect(r.realm_message_content_edit_limit_seconds).toBe(3600);
    expect(r.realm_invite_required).toBe(false);
    const general = r.subscriptions.find((s: any) => s.name === "general");
    expect(r.realm_new_stream_announcements_stream_id).toBe(general.stream_id);
    expect(r.realm_signup_announcements_stream_id).toBe(-1);
    const admins = r.realm_user_groups.find((g: any) => g.name === "role:administrators").id;
    expect(r.realm_can_add_custom_emoji_group).toBe(admins);
    expect(r.user_settings.twenty_four_hour_time).toBe(true);
    expect((await register(di)).user_settings.twenty_four_hour_time).toBe(false);
  });

  test("channels keep privacy, history, retention and members; subscriptions keep colour, pin, mute and notifications", async () => {
    const r = await register(bo);
    const general = r.subscriptions.find((s: any) => s.name === "general");
    const launch = r.subscriptions.find((s: any) => s.name === "launch");
    expect(general).toMatchObject({ description: "Everything", invite_only: false, color: "#e79ab5", pin_to_top: true });
    expect(launch).toMatchObject({ invite_only: true, history_public_to_subscribers: false, message_retention_days: 30, color: "#a6c7e5" });
    expect(launch.subscribers.sort()).toEqual([await idOf("ada@acme.test"), await idOf("bo@acme.test")].sort());
    const people = await Promise.all(["ada@acme.test", "bo@acme.test", "cy@acme.test", "di@acme.test", "ed@acme.test"].map(idOf));
    expect(general.subscribers.sort((a: number, b: number) => a - b)).toEqual(people.sort((a, b) => a - b));
    expect(r.realm_default_streams ?? (await bo.get("/default_streams")).success().default_streams.map((s: any) => s.stream_id)).toBeDefined();
    const dr = await register(di);
    expect(dr.subscriptions.find((s: any) => s.name === "general")).toMatchObject({ is_muted: true, desktop_notifications: true });
    expect(dr.subscriptions.some((s: any) => s.name === "launch")).toBe(false);
    // Fay had left #general: her subscription is kept, inactive
    expect((await imported.app.db.get<{ active: number }>("SELECT active FROM subscriptions WHERE user_id = ? AND stream_id = ?", [await idOf("fay@acme.test"), general.stream_id]))!.active).toBe(0);
    const cy = await imported.as("cy@acme.test");
    expect((await register(cy)).user_topics).toMatchObject([{ stream_id: general.stream_id, topic_name: "lunch", visibility_policy: 1 }]);
    expect(dr.alert_words).toEqual(["launch"]);
    // an archived channel stays archived, with its members
    const old = (await ada.get("/streams", { exclude_archived: false })).success().streams.find((x: any) => x.name === "old-rockets");
    expect(old).toMatchObject({ is_archived: true, description: "Before the move" });
  });

  test("messages keep their places, topics, senders, times and the export's rendered HTML, with uploads pointing at their new paths", async () => {
    const list = await messages(di);
    expect(list.map((m) => [m.type, m.type === "stream" ? `${m.display_recipient}>${m.subject}` : m.display_recipient.map((p: any) => p.email).length, m.sender_full_name, m.timestamp])).toEqual([
      ["stream", "general>kick-off", "Ada Owner", 1714000000],
      ["stream", "general>kick-off", "Di Member", 1714000060],
      ["private", 2, "Welcome Bot", 1714000090],
      ["private", 3, "Bo Admin", 1714000240],
      ["private", 2, "Bo Admin", 1714000300],
    ]);
    const first = list[0];
    expect(first.content).toMatch(/^<p>Welcome to <strong>Acme<\/strong>! Notes: <a href="\/user_uploads\/\d+\/[^"]+\/notes\.txt">notes\.txt<\/a><\/p>$/);
    expect(first.content).not.toContain("/user_uploads/2/ab/Xy12notes/");
    const url = /href="([^"]+)"/.exec(first.content)![1]!;
    const row = (await imported.app.db.get<{ email: string; api_key: string }>("SELECT email, api_key FROM users WHERE delivery_email = 'di@acme.test'"))!;
    const res = await createServer(imported.app).handle(new Request(new URL(url, "http://parley.test"), { headers: { authorization: "Basic " + btoa(`${row.email}:${row.api_key}`) } }));
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(NOTES_BYTES);
  });

  test("ids and emoji images inside the export's rendered HTML are rewritten to the new organization's", async () => {
    const m = (await messages(bo, [{ operator: "channel", operand: "launch" }]))[0];
    const general = (await bo.get("/get_stream_id", { stream: "general" })).success().stream_id;
    const emoji = Object.values((await bo.get("/realm/emoji")).success().emoji) as any[];
    const logo = emoji.find((e) => e.name === "rocket_logo")!;
    expect(m.content).toBe(
      `<p>T-minus 10 days, <span class="user-mention" data-user-id="${await idOf("ada@acme.test")}">@Ada Owner</span> in <a class="stream-topic" data-stream-id="${general}" href="/#narrow/channel/${general}-general/topic/kick-off">#general &gt; kick-off</a> <img alt=":rocket_logo:" class="emoji" src="${logo.source_url}" title="rocket logo"></p>`,
    );
  });

  test("a message the export left unrendered is rendered by Parley, mentions and linkifiers resolved for the new ids", async () => {
    const m = (await messages(di))[1];
    const ada = await idOf("ada@acme.test");
    const rendered = (await di.post("/messages/render", { content: "Thanks @**Ada Owner**, see RKT-12" })).success().rendered;
    expect(m.content).toBe(rendered);
    expect(m.content).toContain(`data-user-id="${ada}"`);
    expect(m.content).toContain('href="https://issues.acme.test/RKT-12"');
  });

  test("each person's flags come from the export: read, starred, mentioned", async () => {
    const [a, d] = [await messages(ada), await messages(di)];
    expect(a.find((m) => m.subject === "kick-off" && m.sender_full_name === "Ada Owner").flags).toEqual(["read"]);
    expect(a.find((m) => m.sender_full_name === "Di Member").flags).toEqual(["mentioned"]);
    expect(d.find((m) => m.sender_full_name === "Ada Owner").flags).toEqual(["starred"]);
    expect(d.find((m) => m.sender_full_name === "Di Member").flags).toEqual(["read"]);
    expect(a.find((m) => m.content.includes("Lunch")).flags.sort()).toEqual(["read", "starred"]);
    // Zulip's has_alert_word bit (512) is Parley's has_alert_word
    expect(a.find((m) => m.subject === "countdown").flags.sort()).toEqual(["has_alert_word", "read"]);
    // unread for Di: the welcome and the group message (#general's is unread too, but she muted #general)
    const unread = (await register(di)).unread_msgs;
    expect(unread.count).toBe(2);
    expect(unread.streams.map((x: any) => x.topic)).toEqual(["kick-off"]);
  });

  test("reactions keep their people and custom emoji, which point at the new emoji", async () => {
    const m = (await messages(di))[0];
    const emoji = Object.values((await di.get("/realm/emoji")).success().emoji) as any[];
    const logo = emoji.find((e) => e.name === "rocket_logo")!;
    expect(logo.author_id).toBe(await idOf("bo@acme.test"));
    expect(m.reactions.map((r: any) => [r.emoji_name, r.emoji_code, r.reaction_type, r.user_id]).sort()).toEqual(
      [["rocket_logo", logo.id, "realm_emoji", await idOf("bo@acme.test")], ["tada", "1f389", "unicode_emoji", await idOf("di@acme.test")]].sort(),
    );
  });

  test("edit history keeps its editor (mapped) and earlier text", async () => {
    const m = (await messages(di))[1];
    const history = (await di.get(`/messages/${m.id}/history`)).success().message_history;
    expect(history.map((h: any) => [h.content, h.user_id ?? null])).toEqual([
      ["Thanks Ada", await idOf("di@acme.test")],
      ["Thanks @**Ada Owner**, see RKT-12", await idOf("di@acme.test")],
    ]);
    expect(m.last_edit_timestamp).toBe(1714000120);
  });

  test("user groups keep members and subgroups; system groups are Parley's own, filled by role", async () => {
    const groups = (await di.get("/user_groups")).success().user_groups as any[];
    const rocketeers = groups.find((g) => g.name === "rocketeers");
    const building = groups.find((g) => g.name === "everyone-building");
    expect(rocketeers).toMatchObject({ description: "Build the rockets", is_system_group: false });
    expect(rocketeers.members.sort()).toEqual([await idOf("cy@acme.test"), await idOf("di@acme.test")].sort());
    expect(building.members).toEqual([await idOf("ed@acme.test")]);
    expect(building.direct_subgroup_ids).toEqual([rocketeers.id]);
    expect(groups.find((g) => g.name === "role:owners").members).toEqual([await idOf("ada@acme.test")]);
  });

  test("linkifiers and custom profile fields come across, a people field pointing at the new ids", async () => {
    expect((await di.get("/realm/linkifiers")).success().linkifiers.map((l: any) => [l.pattern, l.url_template])).toEqual([["RKT-(?P<id>[0-9]+)", "https://issues.acme.test/RKT-{id}"]]);
    const fields = (await di.get("/realm/profile_fields")).success().custom_fields as any[];
    expect(fields.map((f) => [f.name, f.type, f.hint])).toEqual([["Team", 1, "Which team"], ["Mentor", 6, ""]]);
    const me = (await di.get(`/users/${await idOf("di@acme.test")}`, { include_custom_profile_fields: true })).success().user;
    expect(me.profile_data[fields[0].id].value).toBe("Propulsion");
    expect(JSON.parse(me.profile_data[fields[1].id].value)).toEqual([await idOf("cy@acme.test")]);
  });

  test("the owner's zuliprc is in the data dir, and searching works at once", async () => {
    expect(await Bun.file(join(dataDir, "zuliprc")).text()).toContain("email=");
    const found = (await di.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "search", operand: "badge" }] })).success().messages;
    expect(found.map((m: any) => m.content)).toEqual(["<p>Your badge is ready</p>"]);
  });
});
