/**
 * The organization's linkifiers, code playgrounds and default settings for new users, kept by
 * realm_linkifiers, realm_playgrounds and realm_user_settings_defaults events, equal a fresh
 * /register's (see helpers/consistency.ts), after random changes by an administrator and refused
 * attempts by a member.
 */
import { describe, test } from "bun:test";
import fc from "fast-check";
import { startServer } from "../helpers/server";
import { checkSequences, follow, type Slice } from "../helpers/consistency";

type Actor = "iago" | "hamlet";
type Op =
  | { kind: "add-linkifier"; who: Actor; n: number }
  | { kind: "edit-linkifier"; who: Actor; pick: number; n: number }
  | { kind: "remove-linkifier"; who: Actor; pick: number }
  | { kind: "reorder"; who: Actor; seed: number }
  | { kind: "add-playground"; who: Actor; n: number }
  | { kind: "remove-playground"; who: Actor; pick: number }
  | { kind: "default"; who: Actor; setting: number; value: number };

const who = fc.constantFrom<Actor>("iago", "iago", "iago", "hamlet");
const n = fc.nat({ max: 4 });
const pick = fc.nat({ max: 5 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("add-linkifier" as const), who, n }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("edit-linkifier" as const), who, pick, n }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("remove-linkifier" as const), who, pick }) },
  fc.record({ kind: fc.constant("reorder" as const), who, seed: fc.nat() }),
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("add-playground" as const), who, n }) },
  fc.record({ kind: fc.constant("remove-playground" as const), who, pick }),
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("default" as const), who, setting: fc.nat({ max: 4 }), value: fc.nat({ max: 2 }) }) },
);

/** Settings for new users, each with the values an operation may set (all valid). */
const DEFAULTS: [string, unknown[]][] = [
  ["twenty_four_hour_time", [true, false, true]],
  ["enter_sends", [false, true, false]],
  ["emojiset", ["google", "twitter", "text"]],
  ["web_home_view", ["inbox", "recent_topics", "all_messages"]],
  ["email_notifications_batching_period_seconds", [120, 600, 3600]],
];

interface Extras {
  linkifiers: string[];
  playgrounds: string[];
  defaults: Record<string, unknown>;
}

const EXTRAS: Slice<Extras> = {
  register: { event_types: ["realm_linkifiers", "realm_playgrounds", "realm_user_settings_defaults"] },
  fromRegister: (r) => ({
    linkifiers: r.realm_linkifiers.map((l: any) => `${l.id} ${l.pattern} -> ${l.url_template}`),
    playgrounds: r.realm_playgrounds.map((p: any) => `${p.id} ${p.name} (${p.pygments_language}) ${p.url_template}`),
    defaults: Object.fromEntries(DEFAULTS.map(([k]) => [k, r.realm_user_settings_defaults[k]])),
  }),
  apply(st, e) {
    if (e.type === "realm_linkifiers") st.linkifiers = e.realm_linkifiers.map((l: any) => `${l.id} ${l.pattern} -> ${l.url_template}`);
    if (e.type === "realm_playgrounds") st.playgrounds = e.realm_playgrounds.map((p: any) => `${p.id} ${p.name} (${p.pygments_language}) ${p.url_template}`);
    if (e.type === "realm_user_settings_defaults" && e.op === "update" && e.property in st.defaults) st.defaults[e.property] = e.value;
  },
  // linkifier order matters (the first match wins); playgrounds are compared as a set
  summary: (st) => [...st.linkifiers.map((l) => `linkifier ${l}`), ...[...st.playgrounds].sort().map((p) => `playground ${p}`), `defaults ${JSON.stringify(st.defaults)}`],
};

async function run(ops: Op[]) {
  const s = await startServer();
  try {
    const clients = await follow(s, ["hamlet", "iago", "polonius"], EXTRAS);
    const ids = async (path: string, key: string) => ((await s.users.iago.client.get(path)).success()[key] as { id: number }[]).map((x) => x.id);
    const allowed = (o: Op, r: any) => {
      if (r.status === 200) {
        if (o.who !== "iago") throw new Error(`a member was allowed: ${JSON.stringify(o)}`);
        return;
      }
      if (!/administrator|Must be an organization|already exists|does not exist|Invalid|not found|Insufficient permission/i.test(r.json?.msg ?? "")) throw new Error(`${JSON.stringify(o)}: ${r.text}`);
    };
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      const c = s.users[o.who].client;
      const linkifiers = await ids("/realm/linkifiers", "linkifiers");
      // playgrounds have no GET endpoint (as in Zulip): their ids come from /register
      const playgrounds = ((await s.users.iago.client.post("/register", { fetch_event_types: ["realm_playgrounds"] } as any)).success().realm_playgrounds as { id: number }[]).map((p) => p.id);
      switch (o.kind) {
        case "add-linkifier":
          allowed(o, await c.post("/realm/filters", { pattern: `#T${o.n}(?P<id>[0-9]+)`, url_template: `https://tracker${o.n}.example/{id}` }));
          break;
        case "edit-linkifier": {
          const id = linkifiers[o.pick % Math.max(linkifiers.length, 1)] ?? 999_999;
          allowed(o, await c.patch(`/realm/filters/${id}`, { pattern: `#E${o.n}(?P<id>[0-9]+)`, url_template: `https://edited${o.n}.example/{id}` }));
          break;
        }
        case "remove-linkifier":
          allowed(o, await c.delete(`/realm/filters/${linkifiers[o.pick % Math.max(linkifiers.length, 1)] ?? 999_999}`));
          break;
        case "reorder": {
          const order = [...linkifiers].sort((a, b) => ((a * 7919 + o.seed) % 101) - ((b * 7919 + o.seed) % 101));
          allowed(o, await c.patch("/realm/linkifiers", { ordered_linkifier_ids: order }));
          break;
        }
        case "add-playground":
          allowed(o, await c.post("/realm/playgrounds", { name: `Play ${o.n}`, pygments_language: ["Python", "Rust", "Go"][o.n % 3], url_template: `https://play${o.n}.example/?code={code}` }));
          break;
        case "remove-playground":
          allowed(o, await c.delete(`/realm/playgrounds/${playgrounds[o.pick % Math.max(playgrounds.length, 1)] ?? 999_999}`));
          break;
        case "default": {
          const [name, values] = DEFAULTS[o.setting]!;
          allowed(o, await c.patch("/realm/user_settings_defaults", { [name]: values[o.value] } as any));
          break;
        }
      }
    }
    await clients.check(log);
  } finally {
    await s.close();
  }
}

describe("linkifiers, playgrounds and new users' default settings: register once and follow the events, or register again", () => {
  test("agree after random changes by an administrator and refused ones by a member", () => checkSequences(op, run), 120_000);
});
