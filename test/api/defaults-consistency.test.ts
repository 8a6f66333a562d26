/**
 * The organization's default channels and custom emoji, kept by default_streams and realm_emoji
 * events, equal a fresh /register's (see helpers/consistency.ts), after random channels made default
 * or not, archived and unarchived, and emoji added and removed.
 */
import { describe, test } from "bun:test";
import fc from "fast-check";
import { startServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { checkSequences, follow, type Slice } from "../helpers/consistency";
import { makePng } from "../helpers/uploads";

type Op =
  | { kind: "default"; channel: number; on: boolean }
  | { kind: "archive"; channel: number; back: boolean }
  | { kind: "emoji"; n: number; on: boolean };

const ch = fc.nat({ max: 2 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("default" as const), channel: ch, on: fc.boolean() }) },
  fc.record({ kind: fc.constant("archive" as const), channel: ch, back: fc.boolean() }),
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("emoji" as const), n: fc.nat({ max: 3 }), on: fc.boolean() }) },
);

interface Org {
  defaults: Set<number>;
  emoji: Map<string, { name: string; deactivated: boolean }>;
}

const ORG: Slice<Org> = {
  register: { event_types: ["default_streams", "realm_emoji"] },
  fromRegister: (r) => ({
    defaults: new Set(r.realm_default_streams),
    emoji: new Map(Object.entries(r.realm_emoji).map(([id, e]: [string, any]) => [id, { name: e.name, deactivated: e.deactivated }])),
  }),
  apply(st, e) {
    if (e.type === "default_streams") st.defaults = new Set(e.default_streams.map((d: any) => (typeof d === "number" ? d : d.stream_id)));
    if (e.type === "realm_emoji" && e.op === "update") st.emoji = new Map(Object.entries(e.realm_emoji).map(([id, x]: [string, any]) => [id, { name: x.name, deactivated: x.deactivated }]));
  },
  summary: (st) => [
    `defaults ${[...st.defaults].sort((a, b) => a - b).join(",")}`,
    ...[...st.emoji].sort((a, b) => Number(a[0]) - Number(b[0])).map(([id, e]) => `emoji ${id} ${e.name}${e.deactivated ? " (deactivated)" : ""}`),
  ],
};

async function run(ops: Op[]) {
  const s = await startServer();
  try {
    const channels = [
      await createChannel(s, "iago", "Lobby", { subscribers: ["hamlet"] }),
      await createChannel(s, "iago", "Annex", { subscribers: ["othello"] }),
      await createChannel(s, "iago", "Vault", { subscribers: ["iago"], invite_only: true }),
    ];
    const png = await makePng(16, 16);
    const admin = s.users.iago.client;
    const clients = await follow(s, ["hamlet", "othello", "iago"], ORG);
    const allowed = (r: any) => {
      if (r.status !== 200 && !/already|not a default|Private channels|deactivated|archived|Invalid|does not exist|not currently/i.test(r.json.msg)) throw new Error(r.text);
    };
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      const cid = channels[o.kind === "emoji" ? 0 : o.channel]!;
      switch (o.kind) {
        case "default":
          allowed(o.on ? await admin.post("/default_streams", { stream_id: cid }) : await admin.delete("/default_streams", { stream_id: cid }));
          break;
        case "archive":
          allowed(o.back ? await admin.patch(`/streams/${cid}`, { is_archived: false }) : await admin.delete(`/streams/${cid}`));
          break;
        case "emoji":
          allowed(
            o.on
              ? await admin.request("POST", `/realm/emoji/smiley${o.n}`, { file: new File([new Uint8Array(png)], `e${o.n}.png`, { type: "image/png" }) })
              : await admin.delete(`/realm/emoji/smiley${o.n}`),
          );
          break;
      }
    }
    await clients.check(log);
  } finally {
    await s.close();
  }
}

describe("default channels and custom emoji: register once and follow the events, or register again", () => {
  test("agree after random defaults, archiving and emoji", () => checkSequences(op, run), 120_000);
});
