/**
 * Who a guest can see, when guests may not see everyone (can_access_all_users_group = members): the
 * users of the guest's /register, kept by realm_user add, update and remove events, equal a fresh
 * /register's (see helpers/consistency.ts), after random subscriptions and unsubscriptions of the
 * guest and of others, direct messages, renames, deactivations and reactivations, new users and bots,
 * and the setting itself switched back and forth. Zulip's rule: a guest sees the people in their
 * channels and direct-message conversations, and bots. A client without user_list_incomplete keeps
 * everyone else as "Unknown user" placeholders (and turns a realm_user remove into one).
 */
import { describe, test } from "bun:test";
import fc from "fast-check";
import { MODERN_CAPABILITIES, startServer, type CastName } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { checkSequences, follow, type Slice } from "../helpers/consistency";

const GUEST = "polonius" as const;
const OTHERS = ["hamlet", "othello", "cordelia", "shiva"] as const;
type Other = (typeof OTHERS)[number];
const CHANNEL_NAMES = ["Hall", "Den", "Loft"] as const;

type Op =
  | { kind: "subscribe"; who: Other | typeof GUEST; channel: number; on: boolean }
  | { kind: "dm"; from: Other | typeof GUEST; to: Other | typeof GUEST }
  | { kind: "rename"; who: Other; n: number }
  | { kind: "deactivate"; who: Other; back: boolean }
  | { kind: "create"; bot: boolean }
  | { kind: "restrict"; on: boolean };

const anyone = fc.constantFrom<Other | typeof GUEST>(...OTHERS, GUEST);
const other = fc.constantFrom(...OTHERS);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("subscribe" as const), who: anyone, channel: fc.nat({ max: 2 }), on: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("dm" as const), from: anyone, to: anyone }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("rename" as const), who: other, n: fc.nat({ max: 5 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("deactivate" as const), who: other, back: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("create" as const), bot: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("restrict" as const), on: fc.boolean() }) },
);

/** user id → what the guest knows of them */
type Seen = Map<number, { full_name: string; is_active: boolean }>;

const seen = (userListIncomplete: boolean): Slice<Seen> => ({
  register: { event_types: ["realm_user"], client_capabilities: { ...MODERN_CAPABILITIES, user_list_incomplete: userListIncomplete } },
  fromRegister(r) {
    const out: Seen = new Map();
    for (const u of r.realm_users) out.set(u.user_id, { full_name: u.full_name, is_active: true });
    for (const u of r.realm_non_active_users ?? []) out.set(u.user_id, { full_name: u.full_name, is_active: false });
    return out;
  },
  apply(st, e) {
    if (e.type !== "realm_user") return;
    if (e.op === "add") st.set(e.person.user_id, { full_name: e.person.full_name, is_active: e.person.is_active ?? true });
    // what Zulip's own apply_event does
    if (e.op === "remove") {
      if (userListIncomplete) st.delete(e.person.user_id);
      else st.set(e.person.user_id, { full_name: "Unknown user", is_active: true });
    }
    if (e.op === "update") {
      const u = st.get(e.person.user_id);
      if (!u) return;
      if ("full_name" in e.person) u.full_name = e.person.full_name;
      if ("is_active" in e.person) u.is_active = e.person.is_active;
    }
  },
  summary: (st) => [...st].sort((a, b) => a[0] - b[0]).map(([id, u]) => `${id} ${u.full_name}${u.is_active ? "" : " (deactivated)"}`),
});

const run = (userListIncomplete: boolean) => async (ops: Op[]) => {
  const s = await startServer();
  try {
    const id = (p: string) => s.users[p as CastName].id;
    const owner = s.users.desdemona.client;
    const channels = [
      await createChannel(s, "iago", "Hall", { subscribers: ["hamlet", "polonius"] }),
      await createChannel(s, "iago", "Den", { subscribers: ["othello"] }),
      await createChannel(s, "iago", "Loft", { subscribers: ["cordelia", "shiva"], invite_only: true }),
    ];
    const restrict = (on: boolean) => owner.patch("/realm", { can_access_all_users_group: { new: s.app.systemGroups.get(on ? "role:members" : "role:everyone")! } });
    (await restrict(true)).success();
    const clients = await follow(s, [GUEST], seen(userListIncomplete));
    let created = 0;
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      switch (o.kind) {
        case "subscribe": {
          const name = CHANNEL_NAMES[o.channel]!;
          const r = o.on
            ? await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name }], principals: [id(o.who)] })
            : await s.users.iago.client.delete("/users/me/subscriptions", { subscriptions: [name], principals: [id(o.who)] });
          if (r.status !== 200 && !/deactivated|No such user/.test(r.json.msg)) throw new Error(r.text);
          break;
        }
        case "dm": {
          const r = await s.users[o.from as CastName].client.post("/messages", { type: "direct", to: [id(o.to)], content: "hello" });
          // a guest may only write to people they can see; deactivated people cannot be written to
          if (r.status !== 200 && !/deactivated|not authorized|Invalid user|You do not have permission|Account is deactivated|no longer using Zulip/i.test(r.json.msg)) throw new Error(r.text);
          break;
        }
        case "rename":
          if ((await owner.patch(`/users/${id(o.who)}`, { full_name: `Person ${o.n}` })).status !== 200) throw new Error("rename refused");
          break;
        case "deactivate": {
          const r = o.back ? await owner.post(`/users/${id(o.who)}/reactivate`) : await owner.delete(`/users/${id(o.who)}`);
          if (r.status !== 200 && !/deactivated|already active/.test(r.json.msg)) throw new Error(r.text);
          break;
        }
        case "create": {
          created++;
          const r = o.bot
            ? await owner.post("/bots", { full_name: `Robot ${created}`, short_name: `robot${created}`, bot_type: 1 })
            : await owner.post("/users", { email: `newcomer${created}@zulip.com`, password: "s3cret-pass", full_name: `Newcomer ${created}` });
          r.success();
          break;
        }
        case "restrict": {
          const r = await restrict(o.on);
          if (r.status !== 200 && !/Nothing to change|already/i.test(r.json.msg)) throw new Error(r.text);
          break;
        }
      }
    }
    await clients.check(log);
  } finally {
    await s.close();
  }
};

describe("who a guest can see: register once and follow the events, or register again", () => {
  test("agree after random subscriptions, direct messages, renames, deactivations, new users and access changes", () => checkSequences(op, run(true)), 120_000);
  test("agree for a client without user_list_incomplete, which keeps the others as Unknown user", () => checkSequences(op, run(false)), 120_000);
});
