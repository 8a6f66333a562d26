/**
 * Who sees whose email: the `email` and `delivery_email` of every user in each observer's /register,
 * kept by realm_user update events, equal a fresh /register's (see helpers/consistency.ts), after
 * random changes of users' email_address_visibility and of roles (administrators and moderators
 * may see more addresses).
 */
import { describe, test } from "bun:test";
import fc from "fast-check";
import { startServer, type CastName } from "../helpers/server";
import { checkSequences, follow, type Slice } from "../helpers/consistency";

const OBSERVERS = ["hamlet", "othello", "shiva", "iago"] as const;
const SUBJECTS = ["hamlet", "othello", "cordelia", "shiva"] as const;
type Subject = (typeof SUBJECTS)[number];

// 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators
type Op = { kind: "visibility"; who: Subject; value: number } | { kind: "role"; who: "othello" | "shiva"; role: number } | { kind: "channel"; n: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("visibility" as const), who: fc.constantFrom(...SUBJECTS), value: fc.constantFrom(1, 2, 3, 4, 5) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("role" as const), who: fc.constantFrom<"othello" | "shiva">("othello", "shiva"), role: fc.constantFrom(200, 300, 400) }) },
  // a new channel's notice makes Notification Bot (on first use): a new user everyone learns of
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("channel" as const), n: fc.nat({ max: 99 }) }) },
);

type Emails = Map<number, { email: string; delivery_email: string | null }>;

const EMAILS: Slice<Emails> = {
  register: { event_types: ["realm_user"] },
  fromRegister: (r) => new Map(r.realm_users.map((u: any) => [u.user_id, { email: u.email, delivery_email: u.delivery_email ?? null }])),
  apply(st, e) {
    if (e.type === "realm_user" && e.op === "add") st.set(e.person.user_id, { email: e.person.email, delivery_email: e.person.delivery_email ?? null });
    if (e.type !== "realm_user" || e.op !== "update") return;
    const u = st.get(e.person.user_id);
    if (!u) return;
    if ("new_email" in e.person) u.email = e.person.new_email;
    if ("delivery_email" in e.person) u.delivery_email = e.person.delivery_email;
  },
  summary: (st) => [...st].sort((a, b) => a[0] - b[0]).map(([id, u]) => `${id} ${u.email} ${u.delivery_email}`),
};

async function run(ops: Op[]) {
  const s = await startServer();
  try {
    const clients = await follow(s, OBSERVERS, EMAILS);
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      if (o.kind === "visibility") {
        const r = await s.users[o.who as CastName].client.patch("/settings", { email_address_visibility: o.value });
        if (r.status !== 200) throw new Error(r.text);
      } else if (o.kind === "role") {
        const r = await s.users.desdemona.client.patch(`/users/${s.users[o.who].id}`, { role: o.role });
        if (r.status !== 200) throw new Error(r.text);
      } else {
        const r = await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: `Room ${o.n} ${log.length}` }] });
        if (r.status !== 200) throw new Error(r.text);
      }
    }
    await clients.check(log);
  } finally {
    await s.close();
  }
}

describe("who sees whose email: register once and follow the events, or register again", () => {
  test("agree after random visibility and role changes", () => checkSequences(op, run), 120_000);
});
