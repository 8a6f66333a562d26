/**
 * Avatars and the organization's icon and logos, kept by realm_user update and realm update_dict
 * events, equal a fresh /register's (see helpers/consistency.ts) after random uploads and removals.
 */
import { describe, test } from "bun:test";
import fc from "fast-check";
import { startServer, type CastName } from "../helpers/server";
import { checkSequences, follow, type Slice } from "../helpers/consistency";
import { makePng } from "../helpers/uploads";

const OBSERVERS = ["hamlet", "polonius", "iago"] as const;
const PEOPLE = ["hamlet", "othello", "iago"] as const;
type Op = { kind: "avatar"; who: (typeof PEOPLE)[number]; upload: boolean } | { kind: "icon"; upload: boolean } | { kind: "logo"; night: boolean; upload: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("avatar" as const), who: fc.constantFrom(...PEOPLE), upload: fc.boolean() }),
  fc.record({ kind: fc.constant("icon" as const), upload: fc.boolean() }),
  fc.record({ kind: fc.constant("logo" as const), night: fc.boolean(), upload: fc.boolean() }),
);

const IMAGE_FIELDS = ["realm_icon_url", "realm_icon_source", "realm_logo_url", "realm_logo_source", "realm_night_logo_url", "realm_night_logo_source"];
type State = { realm: Map<string, unknown>; avatars: Map<number, string>; own: string };

const slice: Slice<State> = {
  register: { fetch_event_types: ["realm", "realm_user"], client_gravatar: false },
  fromRegister: (r) => ({
    realm: new Map(IMAGE_FIELDS.map((k) => [k, r[k]])),
    avatars: new Map(r.realm_users.map((u: any) => [u.user_id, `${u.avatar_url} v${u.avatar_version}`])),
    own: `${r.avatar_source} ${r.avatar_url} ${r.avatar_url_medium}`,
  }),
  apply(state, e, userId) {
    if (e.type === "realm" && e.op === "update_dict") for (const [k, v] of Object.entries(e.data)) if (IMAGE_FIELDS.includes(`realm_${k}`)) state.realm.set(`realm_${k}`, v);
    if (e.type === "realm_user" && e.op === "update" && "avatar_url" in e.person) {
      state.avatars.set(e.person.user_id, `${e.person.avatar_url} v${e.person.avatar_version}`);
      if (e.person.user_id === userId) state.own = `${e.person.avatar_source} ${e.person.avatar_url} ${e.person.avatar_url_medium}`;
    }
  },
  summary: (st) => [...[...st.realm].map(([k, v]) => `${k} = ${v}`), ...[...st.avatars].map(([id, a]) => `${id}: ${a}`), `me: ${st.own}`].sort(),
};

async function run(ops: Op[]) {
  const s = await startServer();
  try {
    const png = new File([(await makePng(20, 20)) as BlobPart], "a.png");
    const clients = await follow(s, OBSERVERS, slice);
    const admin = s.users.iago.client;
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      const r =
        o.kind === "avatar"
          ? o.upload
            ? await s.users[o.who as CastName].client.post("/users/me/avatar", { file: png })
            : await s.users[o.who as CastName].client.delete("/users/me/avatar")
          : o.kind === "icon"
            ? o.upload
              ? await admin.post("/realm/icon", { file: png })
              : await admin.delete("/realm/icon")
            : o.upload
              ? await admin.post("/realm/logo", { file: png, night: o.night })
              : await admin.delete("/realm/logo", { night: o.night });
      r.success();
    }
    await clients.check(log);
  } finally {
    await s.close();
  }
}

describe("avatars, icon and logos: register once and follow the events, or register again", () => {
  test("agree after random uploads and removals", () => checkSequences(op, run, { min: 2, max: 10 }), 120_000);
});
