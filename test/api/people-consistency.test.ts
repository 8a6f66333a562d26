/**
 * The people and groups every client keeps (the organization's users: name, role, active or not;
 * its user groups: name, description, members, subgroups, deactivated) kept by realm_user and
 * user_group events equal a fresh /register's (see helpers/consistency.ts), after random renames,
 * role changes (which move people between the role groups), deactivations and reactivations, new
 * groups, members and subgroups added and removed, group renames and deactivations.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { startServer, type CastName } from "../helpers/server";
import { checkSequences, follow, type Slice } from "../helpers/consistency";
import { ROLE } from "../../src/domain/roles";

const OBSERVERS = ["hamlet", "polonius", "iago", "desdemona"] as const;
const TARGETS = ["hamlet", "othello", "cordelia", "polonius", "shiva"] as const;
type Target = (typeof TARGETS)[number];

type Op =
  | { kind: "rename"; who: Target; n: number }
  | { kind: "role"; who: Target; role: number }
  | { kind: "deactivate"; who: Target }
  | { kind: "reactivate"; who: Target }
  | { kind: "groupCreate"; members: Target[] }
  | { kind: "members"; group: number; who: Target; add: boolean }
  | { kind: "subgroups"; group: number; sub: number; add: boolean }
  | { kind: "groupRename"; group: number; n: number }
  | { kind: "groupDeactivate"; group: number }
  | { kind: "groupSetting"; group: number; setting: "can_manage_group" | "can_mention_group"; members: Target[]; role: boolean };

const target = fc.constantFrom(...TARGETS);
const g = fc.nat({ max: 7 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("rename" as const), who: target, n: fc.nat({ max: 9 }) }),
  fc.record({ kind: fc.constant("role" as const), who: target, role: fc.constantFrom(ROLE.administrator, ROLE.moderator, ROLE.member, ROLE.guest) }),
  fc.record({ kind: fc.constant("deactivate" as const), who: target }),
  fc.record({ kind: fc.constant("reactivate" as const), who: target }),
  fc.record({ kind: fc.constant("groupCreate" as const), members: fc.uniqueArray(target, { maxLength: 3 }) }),
  fc.record({ kind: fc.constant("members" as const), group: g, who: target, add: fc.boolean() }),
  fc.record({ kind: fc.constant("subgroups" as const), group: g, sub: g, add: fc.boolean() }),
  fc.record({ kind: fc.constant("groupRename" as const), group: g, n: fc.nat({ max: 9 }) }),
  fc.record({ kind: fc.constant("groupDeactivate" as const), group: g }),
  fc.record({
    kind: fc.constant("groupSetting" as const),
    group: g,
    setting: fc.constantFrom<"can_manage_group" | "can_mention_group">("can_manage_group", "can_mention_group"),
    members: fc.uniqueArray(target, { minLength: 1, maxLength: 2 }),
    role: fc.boolean(),
  }),
);
const SETTINGS = ["can_manage_group", "can_mention_group"] as const;

interface Person {
  full_name: string;
  role: number;
  is_active: boolean;
}
interface Group {
  name: string;
  description: string;
  members: Set<number>;
  subgroups: Set<number>;
  deactivated: boolean;
  /** group settings: a group id, or an anonymous group */
  settings: Record<string, unknown>;
}
interface State {
  people: Map<number, Person>;
  groups: Map<number, Group>;
}

const pickSettings = (x: any) => Object.fromEntries(SETTINGS.filter((k) => k in x).map((k) => [k, x[k]]));
/** An anonymous group's ids, sorted, so that equal values print alike. */
const settingText = (v: unknown) =>
  v && typeof v === "object" ? `{${[...(v as any).direct_members].sort((a: number, b: number) => a - b)} / ${[...(v as any).direct_subgroups].sort((a: number, b: number) => a - b)}}` : String(v);

function fromRegister(r: any): State {
  const people = new Map<number, Person>();
  for (const u of r.realm_users) people.set(u.user_id, { full_name: u.full_name, role: u.role, is_active: true });
  for (const u of r.realm_non_active_users ?? []) people.set(u.user_id, { full_name: u.full_name, role: u.role, is_active: false });
  const groups = new Map<number, Group>();
  for (const x of r.realm_user_groups) {
    groups.set(x.id, { name: x.name, description: x.description, members: new Set(x.members), subgroups: new Set(x.direct_subgroup_ids), deactivated: x.deactivated, settings: pickSettings(x) });
  }
  return { people, groups };
}

/** A client's reducer for realm_user and user_group events. */
function apply(state: State, e: any): void {
  if (e.type === "realm_user") {
    if (e.op === "add") state.people.set(e.person.user_id, { full_name: e.person.full_name, role: e.person.role, is_active: e.person.is_active ?? true });
    if (e.op === "remove") {
      const p = state.people.get(e.person.user_id);
      if (p) p.is_active = false;
    }
    if (e.op === "update") {
      const p = state.people.get(e.person.user_id);
      if (!p) return;
      for (const k of ["full_name", "role", "is_active"] as const) if (k in e.person) (p as any)[k] = e.person[k];
      // Zulip: a deactivated user is in no group; clients told of the deactivation drop them from
      // groups themselves (only those who cannot see the user get remove_members), and a
      // reactivation's add_members brings them back
      if (e.person.is_active === false) {
        for (const grp of state.groups.values()) {
          grp.members.delete(e.person.user_id);
          for (const [k, v] of Object.entries(grp.settings)) {
            if (v && typeof v === "object") grp.settings[k] = { ...(v as any), direct_members: (v as any).direct_members.filter((u: number) => u !== e.person.user_id) };
          }
        }
      }
    }
    return;
  }
  if (e.type !== "user_group") return;
  const grp = state.groups.get(e.group_id);
  switch (e.op) {
    case "add":
      state.groups.set(e.group.id, {
        name: e.group.name,
        description: e.group.description,
        members: new Set(e.group.members),
        subgroups: new Set(e.group.direct_subgroup_ids),
        deactivated: e.group.deactivated ?? false,
        settings: pickSettings(e.group),
      });
      return;
    case "update":
      if (grp) for (const k of ["name", "description", "deactivated"] as const) if (k in e.data) (grp as any)[k] = e.data[k];
      if (grp) for (const k of SETTINGS) if (k in e.data) grp.settings[k] = e.data[k];
      return;
    case "add_members":
      for (const u of e.user_ids) grp?.members.add(u);
      return;
    case "remove_members":
      for (const u of e.user_ids) grp?.members.delete(u);
      return;
    case "add_subgroups":
      for (const s of e.direct_subgroup_ids) grp?.subgroups.add(s);
      return;
    case "remove_subgroups":
      for (const s of e.direct_subgroup_ids) grp?.subgroups.delete(s);
      return;
    case "remove":
      state.groups.delete(e.group_id);
      return;
  }
}

const PEOPLE_AND_GROUPS: Slice<State> = {
  register: { event_types: ["realm_user", "user_group", "realm_user_groups"] },
  fromRegister: (r) => fromRegister(r),
  apply: (state, e) => apply(state, e),
  summary: (state) => summary(state),
};

function summary(st: State): string[] {
  const ids = (s: Set<number>) => [...s].sort((a, b) => a - b).join(",");
  return [
    ...[...st.people].sort((a, b) => a[0] - b[0]).map(([id, p]) => `user ${id} "${p.full_name}" role ${p.role}${p.is_active ? "" : " deactivated"}`),
    ...[...st.groups]
      .sort((a, b) => a[0] - b[0])
      .map(([id, x]) => `group ${id} "${x.name}" "${x.description}" members ${ids(x.members)} subgroups ${ids(x.subgroups)}${x.deactivated ? " deactivated" : ""} ${SETTINGS.map((k) => `${k}=${settingText(x.settings[k])}`).join(" ")}`),
  ];
}

/** An older client (no include_deactivated_groups): a deactivated group simply disappears. */
const WITHOUT_DEACTIVATED_GROUPS: Slice<State> = { ...PEOPLE_AND_GROUPS, register: { ...PEOPLE_AND_GROUPS.register, client_capabilities: {} } };

async function run(ops: Op[], slice: Slice<State> = PEOPLE_AND_GROUPS) {
  const s = await startServer();
  try {
    const id = (p: CastName) => s.users[p].id;
    // an observer deactivated meanwhile has no session left to compare
    const clients = await follow(s, OBSERVERS, slice, { sessionsMayEnd: true });
    const groups: number[] = [];
    const log: string[] = [];
    // Refusals that random operations run into (a deactivated user or group, nothing to change, a
    // group used by a setting, a subgroup cycle); anything else fails the test.
    const REFUSALS = [/deactivated/i, /already/i, /^No such user/, /not a member|not a subgroup|^There is no/i, /cycle|itself/i, /in use/i, /^Invalid user ID/];
    const allowed = (r: any, ...msgs: RegExp[]) => {
      if (r.status !== 200) expect([...msgs, ...REFUSALS].some((m) => m.test(r.json.msg)) ? "allowed refusal" : `${r.method} ${r.path}: ${r.json.msg}`).toBe("allowed refusal");
    };
    const groupAt = (n: number) => (groups.length ? groups[n % groups.length] : undefined);
    for (const o of ops) {
      log.push(JSON.stringify(o));
      const owner = s.users.desdemona.client;
      switch (o.kind) {
        case "rename":
          allowed(await owner.patch(`/users/${id(o.who)}`, { full_name: `Person ${o.n}` }), /^No such user/);
          break;
        case "role":
          allowed(await owner.patch(`/users/${id(o.who)}`, { role: o.role }), /^No such user/, /already has that role|^Nothing to change/);
          break;
        case "deactivate":
          allowed(await owner.delete(`/users/${id(o.who)}`), /^No such user/);
          break;
        case "reactivate":
          allowed(await owner.post(`/users/${id(o.who)}/reactivate`), /^User is already active/, /^No such user/);
          break;
        case "groupCreate": {
          const r = await owner.post("/user_groups/create", { name: `Team ${groups.length}`, description: "", members: o.members.map(id) });
          allowed(r, /^User\(s\) .* (is|are) deactivated|^Invalid user ID/);
          if (r.status === 200) groups.push(r.json.group_id);
          break;
        }
        case "members": {
          const gid = groupAt(o.group);
          if (gid === undefined) break;
          const r = await owner.post(`/user_groups/${gid}/members`, o.add ? { add: [id(o.who)] } : { delete: [id(o.who)] });
          allowed(r, /already a member|is not a member|^User .* is already|^There is no member/, /deactivated/, /^Invalid user ID/);
          break;
        }
        case "subgroups": {
          const gid = groupAt(o.group);
          // another team, or a role group (whose members change with roles)
          const candidates = [...groups, s.app.systemGroups.get("role:moderators")!, s.app.systemGroups.get("role:members")!].filter((x) => x !== gid);
          const sub = candidates[o.sub % candidates.length];
          if (gid === undefined || sub === undefined) break;
          const r = await owner.post(`/user_groups/${gid}/subgroups`, o.add ? { add: [sub] } : { delete: [sub] });
          allowed(r, /already a subgroup|is not a subgroup|cycle|itself|^There is no subgroup/i, /deactivated/);
          break;
        }
        case "groupRename": {
          const gid = groupAt(o.group);
          if (gid === undefined) break;
          allowed(await owner.patch(`/user_groups/${gid}`, { name: `Crew ${o.n}` }), /already exists/, /deactivated/);
          break;
        }
        case "groupSetting": {
          const gid = groupAt(o.group);
          if (gid === undefined) break;
          const value = o.role ? s.app.systemGroups.get("role:moderators")! : { direct_members: o.members.map(id), direct_subgroups: [] };
          allowed(await owner.patch(`/user_groups/${gid}`, { [o.setting]: { new: value } } as any), /^Invalid user ID/);
          break;
        }
        case "groupDeactivate": {
          const gid = groupAt(o.group);
          if (gid === undefined) break;
          allowed(await owner.post(`/user_groups/${gid}/deactivate`), /already deactivated|in use|cannot be deactivated|is used/i);
          break;
        }
      }
    }
    await clients.check(log);
  } finally {
    await s.close();
  }
}

describe("people and groups: register once and follow the events, or register again", () => {
  test("agree after random renames, role changes, deactivations, and group changes", () => checkSequences(op, (ops) => run(ops)), 120_000);
  test("agree for a client without include_deactivated_groups too", () => checkSequences(op, (ops) => run(ops, WITHOUT_DEACTIVATED_GROUPS)), 120_000);
});
