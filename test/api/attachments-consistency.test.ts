/**
 * A user's uploads as their client keeps them (attachment add, update and remove events) equal
 * GET /attachments now, after random uploads, messages that link them,
 * edits that unlink them, message deletions and attachment deletions (fast-check;
 * CONSISTENCY_RUNS and CONSISTENCY_SEED search longer or elsewhere).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { MODERN_CAPABILITIES, startServer, type CastName, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { checkSequences } from "../helpers/consistency";
import { upload } from "../helpers/uploads";

const PEOPLE = ["hamlet", "othello"] as const;
type Person = (typeof PEOPLE)[number];

type Op =
  | { kind: "upload"; who: Person; n: number }
  | { kind: "link"; who: Person; pick: number }
  | { kind: "unlink"; pick: number }
  | { kind: "deleteMessage"; pick: number }
  | { kind: "deleteAttachment"; who: Person; pick: number };

const person = fc.constantFrom(...PEOPLE);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("upload" as const), who: person, n: fc.nat({ max: 9 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("link" as const), who: person, pick: fc.nat() }) },
  fc.record({ kind: fc.constant("unlink" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("deleteMessage" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("deleteAttachment" as const), who: person, pick: fc.nat() }),
);

interface Uploads {
  files: Map<number, { name: string; messages: number[] }>;
  space: number | null;
}

// upload_space_used is the whole organization's: events reach only the uploader, so others' copy
// of it is stale by design (as in Zulip) and it is left out here
const summary = (u: Uploads) => [
  ...[...u.files].sort((a, b) => a[0] - b[0]).map(([id, f]) => `${id} ${f.name} in ${[...f.messages].sort((a, b) => a - b).join(",")}`),
];

async function fetchUploads(s: TestServer, p: Person): Promise<Uploads> {
  const r = (await s.users[p as CastName].client.get("/attachments")).success();
  return { files: new Map(r.attachments.map((a: any) => [a.id, { name: a.name, messages: a.messages.map((m: any) => m.id) }])), space: r.upload_space_used };
}

async function run(ops: Op[]) {
  const s = await startServer();
  try {
    await createChannel(s, "iago", "Files", { subscribers: ["hamlet", "othello"] });
    const client = (p: Person) => s.users[p as CastName].client;
    const clients = new Map<Person, { queue: string; state: Uploads }>();
    for (const p of PEOPLE) {
      const queue = (await client(p).post("/register", { event_types: ["attachment"], client_capabilities: MODERN_CAPABILITIES })).success().queue_id;
      clients.set(p, { queue, state: await fetchUploads(s, p) });
    }
    const urls = new Map<Person, string[]>();
    const mine = async (p: Person) => (await s.app.db.all<{ id: number }>("SELECT id FROM attachments WHERE owner_id = ? ORDER BY id", [s.users[p as CastName].id])).map((r) => r.id);
    const messages = async () => s.app.db.all<{ id: number; sender_id: number }>("SELECT id, sender_id FROM messages WHERE content LIKE '%/user_uploads/%' ORDER BY id");
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      switch (o.kind) {
        case "upload": {
          const r = await upload(s, o.who as CastName, `file${o.n}.txt`, `contents ${o.n} `.repeat(o.n + 1), "text/plain");
          urls.set(o.who, [...(urls.get(o.who) ?? []), r.url]);
          break;
        }
        case "link": {
          const list = urls.get(o.who) ?? [];
          if (!list.length) break;
          const url = list[o.pick % list.length]!;
          (await client(o.who).post("/messages", { type: "stream", to: "Files", topic: "files", content: `[file](${url})` })).success();
          break;
        }
        case "unlink": {
          const all = await messages();
          if (!all.length) break;
          const m = all[o.pick % all.length]!;
          const sender = PEOPLE.find((p) => s.users[p as CastName].id === m.sender_id)!;
          const r = await client(sender).patch(`/messages/${m.id}`, { content: "no more files" });
          if (r.status !== 200) expect(r.json.msg).toBe("Nothing to change");
          break;
        }
        case "deleteMessage": {
          const all = await messages();
          if (all.length) (await s.users.iago.client.delete(`/messages/${all[o.pick % all.length]!.id}`)).success();
          break;
        }
        case "deleteAttachment": {
          const ids = await mine(o.who);
          if (ids.length) (await client(o.who).delete(`/attachments/${ids[o.pick % ids.length]}`)).success();
          break;
        }
      }
    }
    for (const p of PEOPLE) {
      const c = clients.get(p)!;
      for (const e of (await client(p).get("/events", { queue_id: c.queue, last_event_id: -1, dont_block: true })).success().events) {
        if (e.type !== "attachment") continue;
        c.state.space = e.upload_space_used;
        if (e.op === "remove") c.state.files.delete(e.attachment.id);
        else c.state.files.set(e.attachment.id, { name: e.attachment.name, messages: e.attachment.messages.map((m: any) => m.id) });
      }
      expect({ who: p, uploads: summary(c.state), ops: log }).toEqual({ who: p, uploads: summary(await fetchUploads(s, p)), ops: log });
    }
  } finally {
    await s.close();
  }
}

describe("uploads: list once and follow the events, or list again", () => {
  test("agree after random uploads, links, unlinks and deletions", () => checkSequences(op, run), 120_000);
});
