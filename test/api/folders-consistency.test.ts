/**
 * Channel folders (name, description, archived, order) and which folder each channel is in, kept by
 * channel_folder and stream events, equal a fresh /register's (see helpers/consistency.ts), after
 * random folders created, renamed, archived and unarchived, reordered, and channels moved between
 * folders.
 */
import { describe, test } from "bun:test";
import fc from "fast-check";
import { startServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { checkSequences, follow, type Slice } from "../helpers/consistency";

type Op =
  | { kind: "create"; n: number }
  | { kind: "rename"; pick: number; n: number }
  | { kind: "archive"; pick: number; on: boolean }
  | { kind: "reorder"; seed: number }
  | { kind: "assign"; channel: number; pick: number; none: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("create" as const), n: fc.nat({ max: 99 }) }),
  fc.record({ kind: fc.constant("rename" as const), pick: fc.nat(), n: fc.nat({ max: 99 }) }),
  fc.record({ kind: fc.constant("archive" as const), pick: fc.nat(), on: fc.boolean() }),
  fc.record({ kind: fc.constant("reorder" as const), seed: fc.nat() }),
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("assign" as const), channel: fc.nat({ max: 1 }), pick: fc.nat(), none: fc.boolean() }) },
);

interface Folders {
  folders: Map<number, { name: string; description: string; is_archived: boolean; order: number }>;
  channelFolder: Map<number, number | null>;
}

const FOLDERS: Slice<Folders> = {
  register: { event_types: ["channel_folders", "channel_folder", "subscription", "stream"] },
  fromRegister: (r) => ({
    folders: new Map(r.channel_folders.map((f: any) => [f.id, { name: f.name, description: f.description, is_archived: f.is_archived, order: f.order }])),
    channelFolder: new Map([...r.subscriptions, ...r.unsubscribed, ...r.never_subscribed].map((c: any) => [c.stream_id, c.folder_id ?? null])),
  }),
  apply(st, e) {
    if (e.type === "channel_folder") {
      if (e.op === "add") st.folders.set(e.channel_folder.id, { name: e.channel_folder.name, description: e.channel_folder.description, is_archived: e.channel_folder.is_archived, order: e.channel_folder.order });
      if (e.op === "update") {
        const f = st.folders.get(e.channel_folder_id);
        if (f) for (const k of ["name", "description", "is_archived"] as const) if (k in e.data) (f as any)[k] = e.data[k];
      }
      if (e.op === "reorder") (e.order as number[]).forEach((id, i) => st.folders.has(id) && (st.folders.get(id)!.order = i));
    }
    if (e.type === "stream" && e.op === "update" && e.property === "folder_id") st.channelFolder.set(e.stream_id, e.value);
    if (e.type === "stream" && e.op === "create") for (const c of e.streams) st.channelFolder.set(c.stream_id, c.folder_id ?? null);
    if (e.type === "subscription" && e.op === "add") for (const c of e.subscriptions) st.channelFolder.set(c.stream_id, c.folder_id ?? null);
  },
  summary: (st) => [
    ...[...st.folders].sort((a, b) => a[0] - b[0]).map(([id, f]) => `folder ${id} "${f.name}" "${f.description}"${f.is_archived ? " archived" : ""} order ${f.order}`),
    ...[...st.channelFolder].sort((a, b) => a[0] - b[0]).map(([id, f]) => `channel ${id} in ${f}`),
  ],
};

async function run(ops: Op[]) {
  const s = await startServer();
  try {
    const channels = [
      await createChannel(s, "iago", "North", { subscribers: ["hamlet"] }),
      await createChannel(s, "iago", "South", { subscribers: ["othello"] }),
    ];
    const admin = s.users.iago.client;
    const clients = await follow(s, ["hamlet", "othello", "iago"], FOLDERS, { unvalidatedEvents: true });
    const folders = async () => (await s.app.db.all<{ id: number }>("SELECT id FROM channel_folders ORDER BY id")).map((r) => r.id);
    const pick = async (k: number) => {
      const all = await folders();
      return all.length ? all[k % all.length] : undefined;
    };
    const allowed = (r: any) => {
      if (r.status !== 200 && !/already|Nothing to change|archived|Invalid|remove all the channels/i.test(r.json.msg)) throw new Error(r.text);
    };
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      switch (o.kind) {
        case "create":
          allowed(await admin.post("/channel_folders/create", { name: `Folder ${o.n}`, description: `about ${o.n}` }));
          break;
        case "rename": {
          const f = await pick(o.pick);
          if (f !== undefined) allowed(await admin.patch(`/channel_folders/${f}`, { name: `Renamed ${o.n}` }));
          break;
        }
        case "archive": {
          const f = await pick(o.pick);
          if (f !== undefined) allowed(await admin.patch(`/channel_folders/${f}`, { is_archived: o.on }));
          break;
        }
        case "reorder": {
          const all = await folders();
          if (all.length < 2) break;
          const order = [...all].sort((a, b) => ((a * 7919 + o.seed) % 97) - ((b * 7919 + o.seed) % 97));
          allowed(await admin.patch("/channel_folders", { order }));
          break;
        }
        case "assign": {
          const f = o.none ? null : await pick(o.pick);
          if (f === undefined) break;
          allowed(await admin.patch(`/streams/${channels[o.channel]}`, { folder_id: f }));
          break;
        }
      }
    }
    await clients.check(log);
  } finally {
    await s.close();
  }
}

describe("channel folders: register once and follow the events, or register again", () => {
  test("agree after random folder and channel changes", () => checkSequences(op, run), 120_000);
});
