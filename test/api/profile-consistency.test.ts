/**
 * Custom profile fields and everyone's values, kept by custom_profile_fields and realm_user update
 * events, equal a fresh /register's (see helpers/consistency.ts), after random fields created,
 * renamed and deleted, and values set and cleared by users and by administrators.
 */
import { describe, test } from "bun:test";
import fc from "fast-check";
import { startServer, type CastName } from "../helpers/server";
import { checkSequences, follow, type Slice } from "../helpers/consistency";

const PEOPLE = ["hamlet", "othello", "polonius", "iago"] as const;
type Person = (typeof PEOPLE)[number];

type Op =
  | { kind: "field"; n: number; long: boolean }
  | { kind: "rename"; pick: number; n: number }
  | { kind: "drop"; pick: number }
  | { kind: "value"; who: Person; pick: number; n: number }
  | { kind: "clear"; who: Person; pick: number }
  | { kind: "adminValue"; whom: Person; pick: number; n: number };

const person = fc.constantFrom(...PEOPLE);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("field" as const), n: fc.nat({ max: 9 }), long: fc.boolean() }),
  fc.record({ kind: fc.constant("rename" as const), pick: fc.nat(), n: fc.nat({ max: 9 }) }),
  fc.record({ kind: fc.constant("drop" as const), pick: fc.nat() }),
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("value" as const), who: person, pick: fc.nat(), n: fc.nat({ max: 9 }) }) },
  fc.record({ kind: fc.constant("clear" as const), who: person, pick: fc.nat() }),
  fc.record({ kind: fc.constant("adminValue" as const), whom: person, pick: fc.nat(), n: fc.nat({ max: 9 }) }),
);

interface Profiles {
  fields: Map<number, string>;
  /** user id → field id → value */
  values: Map<number, Map<number, string>>;
}

const PROFILES: Slice<Profiles> = {
  register: { event_types: ["custom_profile_fields", "realm_user"] },
  fromRegister: (r) => ({
    fields: new Map(r.custom_profile_fields.map((f: any) => [f.id, f.name])),
    values: new Map(r.realm_users.map((u: any) => [u.user_id, new Map(Object.entries(u.profile_data ?? {}).map(([k, v]: [string, any]) => [Number(k), v.value]))])),
  }),
  apply(st, e) {
    if (e.type === "custom_profile_fields") {
      st.fields = new Map(e.fields.map((f: any) => [f.id, f.name]));
      // values of a deleted field go with it
      for (const vals of st.values.values()) for (const id of [...vals.keys()]) if (!st.fields.has(id)) vals.delete(id);
    }
    if (e.type === "realm_user" && e.op === "update" && e.person.custom_profile_field) {
      const { id, value } = e.person.custom_profile_field;
      const vals = st.values.get(e.person.user_id) ?? new Map<number, string>();
      if (value === null || value === "") vals.delete(id);
      else vals.set(id, value);
      st.values.set(e.person.user_id, vals);
    }
  },
  summary: (st) => [
    ...[...st.fields].sort((a, b) => a[0] - b[0]).map(([id, name]) => `field ${id} ${name}`),
    ...[...st.values]
      .sort((a, b) => a[0] - b[0])
      .filter(([, v]) => v.size)
      .map(([uid, v]) => `user ${uid}: ${[...v].sort((a, b) => a[0] - b[0]).map(([f, x]) => `${f}=${x}`).join(" ")}`),
  ],
};

async function run(ops: Op[]) {
  const s = await startServer();
  try {
    const owner = s.users.desdemona.client;
    const id = (p: Person) => s.users[p as CastName].id;
    const clients = await follow(s, PEOPLE, PROFILES);
    const fields = async () => (await s.app.db.all<{ id: number }>("SELECT id FROM custom_profile_fields ORDER BY id")).map((r) => r.id);
    const pick = async (k: number) => {
      const all = await fields();
      return all.length ? all[k % all.length] : undefined;
    };
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      switch (o.kind) {
        case "field": {
          const r = await owner.post("/realm/profile_fields", { name: `Field ${o.n}${o.long ? " long" : ""}`, hint: "", field_type: o.long ? 2 : 1 });
          if (r.status !== 200 && !/already exists/.test(r.json.msg)) throw new Error(r.text);
          break;
        }
        case "rename": {
          const f = await pick(o.pick);
          if (f === undefined) break;
          const r = await owner.patch(`/realm/profile_fields/${f}`, { name: `Renamed ${o.n}` });
          if (r.status !== 200 && !/already exists|Nothing to change/i.test(r.json.msg)) throw new Error(r.text);
          break;
        }
        case "drop": {
          const f = await pick(o.pick);
          if (f !== undefined) (await owner.delete(`/realm/profile_fields/${f}`)).success();
          break;
        }
        case "value": {
          const f = await pick(o.pick);
          if (f !== undefined) (await s.users[o.who as CastName].client.patch("/users/me/profile_data", { data: [{ id: f, value: `value ${o.n}` }] })).success();
          break;
        }
        case "clear": {
          const f = await pick(o.pick);
          if (f !== undefined) (await s.users[o.who as CastName].client.delete("/users/me/profile_data", { data: [f] })).success();
          break;
        }
        case "adminValue": {
          const f = await pick(o.pick);
          if (f !== undefined) (await owner.patch(`/users/${id(o.whom)}`, { profile_data: [{ id: f, value: `set ${o.n}` }] })).success();
          break;
        }
      }
    }
    await clients.check(log);
  } finally {
    await s.close();
  }
}

describe("custom profile fields and values: register once and follow the events, or register again", () => {
  test("agree after random fields and values", () => checkSequences(op, run), 120_000);
});
