/**
 * Every realm_* setting of /register, kept by realm update and update_dict events, equals a fresh
 * /register's (see helpers/consistency.ts), after random changes of plain settings and of group
 * settings (a role group, or an anonymous group of people and groups), and deactivations and
 * reactivations of people named in those anonymous groups (a deactivated user is in no group).
 */
import { describe, test } from "bun:test";
import fc from "fast-check";
import { startServer, type CastName } from "../helpers/server";
import { checkSequences, follow, type Slice } from "../helpers/consistency";
import { legacyRealmPolicies } from "../../src/domain/realm-settings";
import type { SystemGroupName } from "../../src/domain/roles";

const OBSERVERS = ["hamlet", "polonius", "iago", "desdemona"] as const;
const NAMED = ["hamlet", "othello", "cordelia", "shiva"] as const;
type Named = (typeof NAMED)[number];
const GROUP_SETTINGS = ["can_invite_users_group", "can_add_custom_emoji_group", "can_mention_many_users_group", "direct_message_permission_group"] as const;
const ROLE_GROUPS = ["role:members", "role:moderators", "role:administrators", "role:everyone", "role:nobody"] as const;

type Op =
  | { kind: "plain"; key: "name" | "description" | "allow_message_editing" | "message_content_edit_limit_seconds" | "waiting_period_threshold" | "default_language"; n: number }
  | { kind: "roleGroup"; key: (typeof GROUP_SETTINGS)[number]; group: (typeof ROLE_GROUPS)[number] }
  | { kind: "anonymous"; key: (typeof GROUP_SETTINGS)[number]; members: Named[]; subgroup: (typeof ROLE_GROUPS)[number] | null }
  | { kind: "deactivate"; who: Named }
  | { kind: "reactivate"; who: Named };

const key = fc.constantFrom(...GROUP_SETTINGS);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("plain" as const),
    key: fc.constantFrom("name", "description", "allow_message_editing", "message_content_edit_limit_seconds", "waiting_period_threshold", "default_language") as fc.Arbitrary<any>,
    n: fc.nat({ max: 5 }),
  }),
  fc.record({ kind: fc.constant("roleGroup" as const), key, group: fc.constantFrom(...ROLE_GROUPS) }),
  fc.record({ kind: fc.constant("anonymous" as const), key, members: fc.uniqueArray(fc.constantFrom(...NAMED), { minLength: 1, maxLength: 3 }), subgroup: fc.option(fc.constantFrom(...ROLE_GROUPS), { nil: null }) }),
  fc.record({ kind: fc.constant("deactivate" as const), who: fc.constantFrom(...NAMED) }),
  fc.record({ kind: fc.constant("reactivate" as const), who: fc.constantFrom(...NAMED) }),
);

type Settings = Map<string, unknown>;
/** Values that are the same whichever way they are written: anonymous groups with sorted ids. */
const canonical = (v: unknown) =>
  v && typeof v === "object" && "direct_members" in (v as object)
    ? JSON.stringify({ m: [...(v as any).direct_members].sort((a: number, b: number) => a - b), s: [...(v as any).direct_subgroups].sort((a: number, b: number) => a - b) })
    : JSON.stringify(v);

/** Settings whose deprecated *_policy twin /register derives (Zulip's apply_event recomputes them on update_dict). */
const POLICY_TWINS = ["can_create_public_channel_group", "can_create_private_channel_group", "can_create_web_public_channel_group", "can_mention_many_users_group"] as const;

/** `systemGroupName`: a system group's name by id, to recompute the *_policy twins as a client must. */
const realmSlice = (systemGroupName: (id: number) => SystemGroupName | undefined): Slice<Settings> => ({
  register: { event_types: ["realm", "realm_user"] },
  fromRegister: (r) => new Map(Object.entries(r).filter(([k]) => k.startsWith("realm_") && k !== "realm_users" && k !== "realm_non_active_users")),
  apply(state, e) {
    // Zulip: a deactivated user is in no group, settings' anonymous groups included; clients told of
    // the deactivation drop them themselves (a reactivation comes with update_dict events)
    if (e.type === "realm_user" && e.op === "update" && e.person.is_active === false) {
      for (const [k, v] of state) {
        if (v && typeof v === "object" && "direct_members" in (v as object)) {
          state.set(k, { ...(v as any), direct_members: (v as any).direct_members.filter((id: number) => id !== e.person.user_id) });
        }
      }
    }
    if (e.type !== "realm") return;
    if (e.op === "update") state.set(`realm_${e.property}`, e.value);
    if (e.op === "update_dict") for (const [k, v] of Object.entries(e.data)) state.set(`realm_${k}`, v);
    if (e.op === "update_dict" && POLICY_TWINS.some((k) => k in e.data)) {
      const policies = legacyRealmPolicies((k) => {
        const v = state.get(`realm_${k}`);
        return typeof v === "number" ? systemGroupName(v) : undefined;
      });
      for (const [k, v] of Object.entries(policies)) state.set(k, v);
    }
  },
  summary: (st) => [...st].map(([k, v]) => `${k} = ${canonical(v)}`).sort(),
});

const PLAIN_VALUES: Record<string, unknown[]> = {
  name: ["Zulip Dev", "Elsinore", "Verona"],
  description: ["", "A team", "Another **team**"],
  allow_message_editing: [true, false],
  message_content_edit_limit_seconds: [600, 3600, "unlimited"],
  waiting_period_threshold: [0, 3, 10],
  default_language: ["en", "de", "fr"],
};

async function run(ops: Op[]) {
  const s = await startServer();
  try {
    const owner = s.users.desdemona.client;
    const group = (name: string) => s.app.systemGroups.get(name as never)!;
    const names = new Map([...s.app.systemGroups].map(([name, id]) => [id, name]));
    const clients = await follow(s, OBSERVERS, realmSlice((id) => names.get(id)), { sessionsMayEnd: true });
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      switch (o.kind) {
        case "plain": {
          const values = PLAIN_VALUES[o.key]!;
          const r = await owner.patch("/realm", { [o.key]: values[o.n % values.length] } as any);
          // setting a value it already has is refused as nothing to change by some settings
          if (r.status !== 200) throw new Error(`PATCH /realm ${o.key}: ${r.text}`);
          break;
        }
        case "roleGroup": {
          const r = await owner.patch("/realm", { [o.key]: { new: group(o.group) } } as any);
          if (r.status !== 200 && !/not allowed|cannot be|must be|Invalid setting value|Nothing to change/i.test(r.json.msg)) throw new Error(r.text);
          break;
        }
        case "anonymous": {
          const value = { direct_members: o.members.map((p) => s.users[p as CastName].id), direct_subgroups: o.subgroup ? [group(o.subgroup)] : [] };
          const r = await owner.patch("/realm", { [o.key]: { new: value } } as any);
          if (r.status !== 200 && !/not allowed|cannot be|must be|Invalid setting value|deactivated|Invalid user ID/i.test(r.json.msg)) throw new Error(r.text);
          break;
        }
        case "deactivate": {
          const r = await owner.delete(`/users/${s.users[o.who as CastName].id}`);
          if (r.status !== 200 && !/deactivated/.test(r.json.msg)) throw new Error(r.text);
          break;
        }
        case "reactivate": {
          const r = await owner.post(`/users/${s.users[o.who as CastName].id}/reactivate`);
          if (r.status !== 200 && !/already active/.test(r.json.msg)) throw new Error(r.text);
          break;
        }
      }
    }
    await clients.check(log);
  } finally {
    await s.close();
  }
}

describe("organization settings: register once and follow the events, or register again", () => {
  test("agree after random setting changes, group settings and deactivations of their members", () => checkSequences(op, run), 120_000);
});
