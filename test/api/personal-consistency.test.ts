/**
 * The personal state every client keeps (whom they muted, everyone's status, their alert words and
 * their settings) kept by muted_users, user_status, alert_words and user_settings events equals a
 * fresh /register's (see helpers/consistency.ts), after random mutes and unmutes, status changes and
 * clears, alert words added and removed, and setting changes.
 */
import { describe, test } from "bun:test";
import fc from "fast-check";
import { startServer, type CastName } from "../helpers/server";
import { checkSequences, follow, type Slice } from "../helpers/consistency";

const PEOPLE = ["hamlet", "othello", "polonius", "iago"] as const;
type Person = (typeof PEOPLE)[number];

type Op =
  | { kind: "mute"; who: Person; whom: Person; on: boolean }
  | { kind: "status"; who: Person; text: string | null; emoji: string | null; away: boolean | null }
  | { kind: "words"; who: Person; add: boolean; words: string[] }
  | { kind: "setting"; who: Person; name: "twenty_four_hour_time" | "enter_sends" | "emojiset" | "left_side_userlist"; n: number };

const person = fc.constantFrom(...PEOPLE);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("mute" as const), who: person, whom: person, on: fc.boolean() }),
  fc.record({
    kind: fc.constant("status" as const),
    who: person,
    text: fc.option(fc.constantFrom("", "out to lunch", "in a meeting"), { nil: null }),
    emoji: fc.option(fc.constantFrom("", "car", "smile"), { nil: null }),
    away: fc.option(fc.boolean(), { nil: null }),
  }),
  fc.record({ kind: fc.constant("words" as const), who: person, add: fc.boolean(), words: fc.uniqueArray(fc.constantFrom("ghost", "crown", "poison"), { minLength: 1, maxLength: 2 }) }),
  fc.record({ kind: fc.constant("setting" as const), who: person, name: fc.constantFrom("twenty_four_hour_time", "enter_sends", "emojiset", "left_side_userlist") as fc.Arbitrary<any>, n: fc.nat({ max: 3 }) }),
);

interface Personal {
  muted: Set<number>;
  statuses: Map<number, Record<string, unknown>>;
  words: Set<string>;
  settings: Record<string, unknown>;
}
const SETTINGS = ["twenty_four_hour_time", "enter_sends", "emojiset", "left_side_userlist"];
const SETTING_VALUES: Record<string, unknown[]> = { twenty_four_hour_time: [true, false], enter_sends: [true, false], emojiset: ["google", "text", "twitter"], left_side_userlist: [false, true] };

/** A status as /register shows it: only the parts that are set. */
function cleanStatus(st: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (st.away) out.away = true;
  if (st.status_text) out.status_text = st.status_text;
  if (st.emoji_name) Object.assign(out, { emoji_name: st.emoji_name, emoji_code: st.emoji_code, reaction_type: st.reaction_type });
  return out;
}

const PERSONAL: Slice<Personal> = {
  register: { event_types: ["muted_users", "user_status", "alert_words", "user_settings"], user_settings_object: true },
  fromRegister: (r) => ({
    muted: new Set(r.muted_users.map((m: any) => m.id)),
    statuses: new Map(Object.entries(r.user_status).map(([id, st]) => [Number(id), cleanStatus(st as any)])),
    words: new Set(r.alert_words),
    settings: Object.fromEntries(SETTINGS.map((k) => [k, r.user_settings[k]])),
  }),
  apply(state, e) {
    switch (e.type) {
      case "muted_users":
        state.muted = new Set(e.muted_users.map((m: any) => m.id));
        return;
      case "alert_words":
        state.words = new Set(e.alert_words);
        return;
      case "user_settings":
        if (e.op === "update" && SETTINGS.includes(e.property)) state.settings[e.property] = e.value;
        return;
      case "user_status": {
        const cur = { ...(state.statuses.get(e.user_id) ?? {}) };
        if ("away" in e) cur.away = e.away;
        if ("status_text" in e) cur.status_text = e.status_text;
        if ("emoji_name" in e) Object.assign(cur, { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type });
        const clean = cleanStatus(cur);
        if (Object.keys(clean).length) state.statuses.set(e.user_id, clean);
        else state.statuses.delete(e.user_id);
        return;
      }
    }
  },
  summary: (st) => [
    `muted ${[...st.muted].sort((a, b) => a - b).join(",")}`,
    `words ${[...st.words].sort().join(",")}`,
    ...SETTINGS.map((k) => `${k} = ${JSON.stringify(st.settings[k])}`),
    ...[...st.statuses].filter(([, v]) => Object.keys(v).length).sort((a, b) => a[0] - b[0]).map(([id, v]) => `status ${id} ${JSON.stringify(Object.fromEntries(Object.entries(v).sort()))}`),
  ],
};

async function run(ops: Op[]) {
  const s = await startServer();
  try {
    const client = (p: Person) => s.users[p as CastName].client;
    const id = (p: Person) => s.users[p as CastName].id;
    const clients = await follow(s, PEOPLE, PERSONAL);
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      switch (o.kind) {
        case "mute": {
          const path = `/users/me/muted_users/${id(o.whom)}`;
          const r = o.on ? await client(o.who).post(path) : await client(o.who).delete(path);
          if (r.status !== 200 && !/^Cannot mute self|^User already muted|^User is not muted/.test(r.json.msg)) throw new Error(r.text);
          break;
        }
        case "status": {
          const params: Record<string, unknown> = {};
          if (o.text !== null) params.status_text = o.text;
          if (o.emoji !== null) params.emoji_name = o.emoji;
          if (o.away !== null) params.away = o.away;
          const r = await client(o.who).post("/users/me/status", params as any);
          if (r.status !== 200 && !/^Client did not pass any new values/.test(r.json.msg)) throw new Error(r.text);
          break;
        }
        case "words":
          (await client(o.who)[o.add ? "post" : "delete"]("/users/me/alert_words", { alert_words: o.words })).success();
          break;
        case "setting": {
          const values = SETTING_VALUES[o.name]!;
          (await client(o.who).patch("/settings", { [o.name]: values[o.n % values.length] } as any)).success();
          break;
        }
      }
    }
    await clients.check(log);
  } finally {
    await s.close();
  }
}

describe("personal state: register once and follow the events, or register again", () => {
  test("agree after random mutes, statuses, alert words and settings", () => checkSequences(op, run), 120_000);
});
