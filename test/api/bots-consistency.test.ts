/**
 * The bots list of /register (realm_bots: every bot for administrators, one's own otherwise), kept
 * by realm_bot events, equals a fresh /register's (see helpers/consistency.ts), after random bots
 * created, renamed, given to another owner, deactivated and reactivated, and role changes that make
 * an observer an administrator or not.
 */
import { describe, test } from "bun:test";
import fc from "fast-check";
import { startServer, type CastName } from "../helpers/server";
import { checkSequences, follow, type Slice } from "../helpers/consistency";

const OBSERVERS = ["hamlet", "othello", "iago"] as const;
const OWNERS = ["hamlet", "othello"] as const;
type Owner = (typeof OWNERS)[number];

type Op =
  | { kind: "create"; owner: Owner; n: number }
  | { kind: "rename"; pick: number; n: number }
  | { kind: "give"; pick: number; to: Owner }
  | { kind: "deactivate"; pick: number; back: boolean }
  | { kind: "role"; who: "othello"; admin: boolean };

const owner = fc.constantFrom(...OWNERS);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("create" as const), owner, n: fc.nat({ max: 99 }) }) },
  fc.record({ kind: fc.constant("rename" as const), pick: fc.nat(), n: fc.nat({ max: 99 }) }),
  fc.record({ kind: fc.constant("give" as const), pick: fc.nat(), to: owner }),
  fc.record({ kind: fc.constant("deactivate" as const), pick: fc.nat(), back: fc.boolean() }),
  fc.record({ kind: fc.constant("role" as const), who: fc.constant("othello" as const), admin: fc.boolean() }),
);

type Bots = Map<number, { full_name: string; owner_id: number | null; is_active: boolean }>;

const BOTS: Slice<Bots> = {
  register: { event_types: ["realm_bot"] },
  fromRegister: (r) => new Map(r.realm_bots.map((b: any) => [b.user_id, { full_name: b.full_name, owner_id: b.owner_id, is_active: b.is_active }])),
  apply(st, e) {
    if (e.type !== "realm_bot") return;
    if (e.op === "add") st.set(e.bot.user_id, { full_name: e.bot.full_name, owner_id: e.bot.owner_id, is_active: e.bot.is_active });
    if (e.op === "delete" || e.op === "remove") st.delete(e.bot.user_id);
    if (e.op === "update") {
      const b = st.get(e.bot.user_id);
      if (!b) return;
      if ("full_name" in e.bot) b.full_name = e.bot.full_name;
      if ("owner_id" in e.bot) b.owner_id = e.bot.owner_id;
      if ("is_active" in e.bot) b.is_active = e.bot.is_active;
    }
  },
  summary: (st) => [...st].sort((a, b) => a[0] - b[0]).map(([id, b]) => `${id} ${b.full_name} owner ${b.owner_id}${b.is_active ? "" : " (deactivated)"}`),
};

async function run(ops: Op[]) {
  const s = await startServer();
  try {
    const clients = await follow(s, OBSERVERS, BOTS);
    const bots = async () => (await s.app.db.all<{ id: number }>("SELECT id FROM users WHERE is_bot = 1 AND bot_owner_id IS NOT NULL ORDER BY id")).map((r) => r.id);
    const pick = async (k: number) => {
      const all = await bots();
      return all.length ? all[k % all.length] : undefined;
    };
    const admin = s.users.iago.client;
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      switch (o.kind) {
        case "create": {
          const r = await s.users[o.owner as CastName].client.post("/bots", { full_name: `Bot ${o.n}`, short_name: `bot${o.n}${log.length}` });
          if (r.status !== 200 && !/already|in use|taken/i.test(r.json.msg)) throw new Error(r.text);
          break;
        }
        case "rename": {
          const b = await pick(o.pick);
          if (b === undefined) break;
          const r = await admin.patch(`/bots/${b}`, { full_name: `Renamed ${o.n}` });
          if (r.status !== 200 && !/already|deactivated|No such bot/i.test(r.json.msg)) throw new Error(r.text);
          break;
        }
        case "give": {
          const b = await pick(o.pick);
          if (b === undefined) break;
          const r = await admin.patch(`/bots/${b}`, { bot_owner_id: s.users[o.to as CastName].id });
          if (r.status !== 200 && !/already|deactivated|No such bot/i.test(r.json.msg)) throw new Error(r.text);
          break;
        }
        case "deactivate": {
          const b = await pick(o.pick);
          if (b === undefined) break;
          const r = o.back ? await admin.post(`/users/${b}/reactivate`) : await admin.delete(`/bots/${b}`);
          if (r.status !== 200 && !/already|deactivated|No such bot|active bot named/i.test(r.json.msg)) throw new Error(r.text);
          break;
        }
        case "role": {
          const r = await s.users.desdemona.client.patch(`/users/${s.users[o.who].id}`, { role: o.admin ? 200 : 400 });
          if (r.status !== 200) throw new Error(r.text);
          break;
        }
      }
    }
    await clients.check(log);
  } finally {
    await s.close();
  }
}

describe("bots: register once and follow the events, or register again", () => {
  test("agree after random bots, owners, deactivations and role changes", () => checkSequences(op, run), 120_000);
});
