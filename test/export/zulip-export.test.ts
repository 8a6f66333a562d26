// `parley export`: Zulip's organization export written from a data dir while Parley serves it, in the
// shape Zulip's importer reads (the table and field names checked here are the ones
// zerver/lib/import_realm.py looks up).
import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/main";
import { readTar } from "../../src/lib/tar";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
const root = mkdtempSync(join(tmpdir(), "parley-export-"));
const out = join(root, "org.tar.gz");
let files: Map<string, Buffer>;
let stdout: string[] = [];
let code: number;
let realm: any;
let messages: any;

beforeAll(async () => {
  s = await startServer();
  const { hamlet, othello, cordelia } = s.users;
  (await hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "verona" }], principals: [hamlet.id, othello.id] })).success();
  const m = (await hamlet.client.post("/messages", { type: "stream", to: "verona", topic: "balcony", content: "But soft" })).success().id;
  (await othello.client.post("/messages/flags", { messages: [m], op: "add", flag: "starred" })).success();
  (await cordelia.client.post("/messages", { type: "direct", to: [hamlet.id, othello.id], content: "All three of us" })).success();
  const spy = spyOn(console, "log").mockImplementation((...a: unknown[]) => void stdout.push(a.join(" ")));
  try {
    // the server stays open meanwhile: the export reads a snapshot
    code = await main(["export", "--data-dir", s.dataDir, out]);
  } finally {
    spy.mockRestore();
  }
  files = new Map();
  await readTar(out, async (e) => {
    const parts: Buffer[] = [];
    for await (const c of e.stream) parts.push(Buffer.from(c));
    files.set(e.name, Buffer.concat(parts));
  });
  realm = JSON.parse(files.get("zulip-export-parley/realm.json")!.toString());
  messages = JSON.parse(files.get("zulip-export-parley/messages-000001.json")!.toString());
}, 60_000);

afterAll(async () => {
  await s?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("parley export", () => {
  test("writes the archive while the server runs and prints what it holds", async () => {
    expect(code).toBe(0);
    const line = JSON.parse(stdout.at(-1)!);
    const messageCount = (await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM messages"))!.n;
    expect(line).toMatchObject({ export: out, counts: { people: 8, channels: 1, messages: messageCount, reactions: 0, files: 0, emoji: 0 } });
    expect(messages.zerver_message.length).toBe(messageCount);
    expect(line.bytes).toBeGreaterThan(0);
    expect([...files.keys()].filter((f) => !f.includes("/uploads/") || f.endsWith("records.json")).sort()).toEqual(
      ["analytics.json", "attachment.json", "avatars/records.json", "emoji/records.json", "messages-000001.json", "realm.json", "uploads/records.json"].map((f) => `zulip-export-parley/${f}`),
    );
  });

  test("realm.json holds the tables Zulip's importer walks, with ids that point at each other", () => {
    for (const t of ["zerver_realm", "zerver_userprofile", "zerver_userprofile_mirrordummy", "zerver_userprofile_crossrealm", "zerver_stream", "zerver_recipient", "zerver_subscription", "zerver_huddle", "zerver_usergroup", "zerver_namedusergroup", "zerver_usergroupmembership", "zerver_groupgroupmembership", "zerver_realmemoji", "zerver_realmfilter", "zerver_customprofilefield", "zerver_customprofilefieldvalue", "zerver_defaultstream", "zerver_reaction", "zerver_client", "zerver_realmauthenticationmethod", "zerver_realmdomain", "zerver_realmplayground"]) {
      expect(Array.isArray(realm[t])).toBe(true);
    }
    const hamlet = realm.zerver_userprofile.find((u: any) => u.delivery_email === "hamlet@zulip.com");
    expect(hamlet).toMatchObject({ id: s.users.hamlet.id, full_name: "King Hamlet", role: 400, is_active: true, is_bot: false, user_permissions: [], groups: [] });
    expect(realm.zerver_recipient.find((r: any) => r.id === hamlet.recipient)).toEqual({ id: hamlet.recipient, type: 1, type_id: hamlet.id });
    const verona = realm.zerver_stream.find((x: any) => x.name === "verona");
    expect(realm.zerver_recipient.find((r: any) => r.id === verona.recipient)).toMatchObject({ type: 2, type_id: verona.id });
    const subs = realm.zerver_subscription.filter((x: any) => x.recipient === verona.recipient).map((x: any) => x.user_profile).sort();
    expect(subs).toEqual([s.users.hamlet.id, s.users.othello.id].sort());
    const ids = [s.users.hamlet.id, s.users.othello.id, s.users.cordelia.id].sort((a, b) => a - b);
    const huddle = realm.zerver_huddle[0];
    expect(huddle).toMatchObject({ huddle_hash: createHash("sha1").update(ids.join(",")).digest("hex"), group_size: 3 });
    expect(realm.zerver_subscription.filter((x: any) => x.recipient === huddle.recipient).map((x: any) => x.user_profile).sort()).toEqual(ids.sort());
    const owners = realm.zerver_namedusergroup.find((g: any) => g.name === "role:owners");
    expect(owners.is_system_group).toBe(true);
    expect(realm.zerver_usergroupmembership.filter((m: any) => m.user_group === owners.usergroup_ptr).map((m: any) => m.user_profile)).toEqual([s.users.desdemona.id]);
    expect(realm.zerver_realm[0]).toMatchObject({ name: "Zulip Dev", message_content_edit_limit_seconds: 600, message_edit_history_visibility_policy: 1, topics_policy: 2 });
    // Zulip builds its Realm from these fields: settings it has no field for travel beside them
    expect(realm.zerver_realm[0].bot_creation_policy).toBeUndefined();
    expect(realm.parley_realm_settings).toMatchObject({ bot_creation_policy: 1 });
    expect(realm.zerver_stream.find((x: any) => x.name === "verona").topics_policy).toBe(1);
  });

  test("messages carry topic, rendered HTML, sender, recipient and each person's flags as Zulip's bitmask", async () => {
    const m = messages.zerver_message.find((x: any) => x.content === "But soft");
    expect(m).toMatchObject({ sender: s.users.hamlet.id, subject: "balcony", rendered_content: "<p>But soft</p>", is_channel_message: true });
    const verona = realm.zerver_stream.find((x: any) => x.name === "verona");
    expect(m.recipient).toBe(verona.recipient);
    const rows = messages.zerver_usermessage.filter((u: any) => u.message === m.id);
    expect(rows.find((u: any) => u.user_profile === s.users.othello.id).flags_mask).toBe(2);
    const stored = await s.app.db.all<{ user_id: number; flags: number }>("SELECT user_id, flags FROM user_messages WHERE message_id = ? ORDER BY user_id", [m.id]);
    // Zulip's bits: the first six as Parley's, has_alert_word and historical higher up
    const zulip = (f: number) => (f & 63) | (f & 64 ? 512 : 0) | (f & 128 ? 1024 : 0);
    expect(rows.map((u: any) => [u.user_profile, u.flags_mask]).sort((a: number[], b: number[]) => a[0]! - b[0]!)).toEqual(stored.map((r) => [r.user_id, zulip(r.flags)]));
    // a direct message's rows are marked is_private, as Zulip keeps them
    const dm = messages.zerver_message.find((x: any) => x.content === "All three of us");
    expect(messages.zerver_usermessage.filter((u: any) => u.message === dm.id).every((u: any) => (u.flags_mask & 2048) === 2048)).toBe(true);
    expect(realm.zerver_client.find((c: any) => c.id === m.sending_client)).toBeDefined();
  });

  test("messages are split across messages-NNNNNN.json files, and an import reads them all back in order", async () => {
    const { writeZulipExport } = await import("../../src/export/zulip");
    const { importZulip } = await import("../../src/import/zulip/import");
    const { importConfig, openImported } = await import("../import/open-imported");
    const split = join(root, "split.tar.gz");
    const result = await writeZulipExport(s.app.config, split, { db: s.app.db, messagesPerFile: 1 });
    const names: string[] = [];
    await readTar(split, async (e) => void names.push(e.name));
    const parts = names.filter((n) => /messages-\d{6}\.json$/.test(n));
    expect(parts.length).toBe(result.counts.messages);
    expect(parts[0]).toBe("zulip-export-parley/messages-000001.json");
    const dir = join(root, "split-imported");
    await importZulip(importConfig(dir), { archive: split, log: () => {}, out: { write: () => true, isTTY: false } as any });
    const imported = await openImported(dir);
    try {
      const c = await imported.as("cordelia@zulip.com");
      const before = (await s.users.cordelia.client.get("/messages", { anchor: "oldest", num_before: 0, num_after: 50, narrow: [] })).success().messages;
      const after = (await c.get("/messages", { anchor: "oldest", num_before: 0, num_after: 50, narrow: [] })).success().messages;
      expect(before.length).toBeGreaterThan(0);
      expect(after.map((m: any) => [m.content, m.timestamp])).toEqual(before.map((m: any) => [m.content, m.timestamp]));
    } finally {
      await imported.close();
    }
  });

  test("refuses an existing archive, a name that is not .tar.gz and a data dir without an organization (exit 1, one line)", async () => {
    const errors: string[] = [];
    const spy = spyOn(console, "error").mockImplementation((...a: unknown[]) => void errors.push(a.join(" ")));
    try {
      expect(await main(["export", "--data-dir", s.dataDir, out])).toBe(1);
      expect(await main(["export", "--data-dir", s.dataDir, join(root, "org.zip")])).toBe(1);
      const empty = join(root, "empty");
      expect(await main(["export", "--data-dir", empty, join(root, "none.tar.gz")])).toBe(1);
      expect(existsSync(join(root, "none.tar.gz"))).toBe(false);
      expect(await main(["export", "--data-dir", s.dataDir])).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(errors.slice(0, 3)).toEqual([
      `parley: export failed: ${out} already exists`,
      `parley: export failed: ${join(root, "org.zip")}: the export is a .tar.gz (Zulip's format)`,
      `parley: export failed: there is no database at ${join(root, "empty", "parley.db")}: nothing to export`,
    ]);
  });
});

