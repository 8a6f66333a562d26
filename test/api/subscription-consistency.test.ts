/**
 * The channel list every client keeps (the user's subscriptions with their own settings, the
 * channels they left, the visible channels they never joined, and each one's name, description,
 * privacy and subscribers) kept by subscription and stream events equals a fresh /register's (see
 * helpers/consistency.ts), after random joins, leaves, administrators adding and removing people,
 * personal settings, renames, descriptions, privacy changes and new channels, for members, a guest
 * and an administrator.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { startServer, type CastName } from "../helpers/server";
import { checkSequences, follow, type Slice } from "../helpers/consistency";
import { createChannel } from "../helpers/channels";

const PEOPLE = ["hamlet", "othello", "polonius", "iago"] as const;
type Person = (typeof PEOPLE)[number];

type Op =
  | { kind: "join"; who: Person; channel: number }
  | { kind: "leave"; who: Person; channel: number }
  | { kind: "add"; who: Person; channel: number }
  | { kind: "remove"; who: Person; channel: number }
  | { kind: "setting"; who: Person; channel: number; property: "is_muted" | "pin_to_top" | "color"; flip: boolean }
  | { kind: "rename"; channel: number; name: number }
  | { kind: "describe"; channel: number; text: number }
  | { kind: "privacy"; channel: number; private: boolean }
  | { kind: "create"; private: boolean; members: Person[] }
  | { kind: "sendGroup"; channel: number; members: Person[]; role: boolean }
  | { kind: "deactivate"; who: "othello" | "cordelia"; back: boolean }
  | { kind: "role"; who: "othello" | "polonius"; role: number }
  | { kind: "archive"; channel: number; back: boolean };

const person = fc.constantFrom(...PEOPLE);
const ch = fc.nat({ max: 5 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("join" as const), who: person, channel: ch }),
  fc.record({ kind: fc.constant("leave" as const), who: person, channel: ch }),
  fc.record({ kind: fc.constant("add" as const), who: person, channel: ch }),
  fc.record({ kind: fc.constant("remove" as const), who: person, channel: ch }),
  fc.record({ kind: fc.constant("setting" as const), who: person, channel: ch, property: fc.constantFrom<"is_muted" | "pin_to_top" | "color">("is_muted", "pin_to_top", "color"), flip: fc.boolean() }),
  fc.record({ kind: fc.constant("rename" as const), channel: ch, name: fc.nat({ max: 99 }) }),
  fc.record({ kind: fc.constant("describe" as const), channel: ch, text: fc.nat({ max: 99 }) }),
  fc.record({ kind: fc.constant("privacy" as const), channel: ch, private: fc.boolean() }),
  fc.record({ kind: fc.constant("create" as const), private: fc.boolean(), members: fc.uniqueArray(person, { maxLength: 3 }) }),
  fc.record({ kind: fc.constant("sendGroup" as const), channel: ch, members: fc.uniqueArray(fc.constantFrom<Person>("hamlet", "polonius", "iago"), { minLength: 1, maxLength: 2 }), role: fc.boolean() }),
  fc.record({ kind: fc.constant("deactivate" as const), who: fc.constantFrom<"othello" | "cordelia">("othello", "cordelia"), back: fc.boolean() }),
  // 200 administrator, 300 moderator, 400 member, 600 guest: what a role may see changes with it
  fc.record({ kind: fc.constant("role" as const), who: fc.constantFrom<"othello" | "polonius">("othello", "polonius"), role: fc.constantFrom(200, 300, 400, 600) }),
  fc.record({ kind: fc.constant("archive" as const), channel: ch, back: fc.boolean() }),
);

type List = "subscribed" | "unsubscribed" | "never subscribed";
interface Known {
  list: List;
  name: string;
  description: string;
  invite_only: boolean;
  is_muted?: boolean;
  pin_to_top?: boolean;
  color?: string;
  subscribers: Set<number>;
  /** who may post: a group id, or an anonymous group */
  can_send_message_group: unknown;
  is_archived: boolean;
}
type Channels = Map<number, Known>;

function fromRegister(r: any): Channels {
  const out: Channels = new Map();
  const add = (list: List, s: any) =>
    out.set(s.stream_id, {
      list,
      name: s.name,
      description: s.description,
      invite_only: s.invite_only,
      ...(list === "never subscribed" ? {} : { is_muted: s.is_muted, pin_to_top: s.pin_to_top, color: s.color }),
      subscribers: new Set(s.subscribers ?? []),
      can_send_message_group: s.can_send_message_group,
      is_archived: Boolean(s.is_archived),
    });
  for (const s of r.subscriptions) add("subscribed", s);
  for (const s of r.unsubscribed) add("unsubscribed", s);
  for (const s of r.never_subscribed) add("never subscribed", s);
  return out;
}

/** A client's reducer for the subscription and stream events. */
function apply(me: number, state: Channels, e: any): void {
  if (e.type === "subscription") {
    switch (e.op) {
      case "add":
        for (const s of e.subscriptions) {
          state.set(s.stream_id, {
            list: "subscribed",
            name: s.name,
            description: s.description,
            invite_only: s.invite_only,
            is_muted: s.is_muted,
            pin_to_top: s.pin_to_top,
            color: s.color,
            subscribers: new Set(s.subscribers),
            can_send_message_group: s.can_send_message_group,
            is_archived: Boolean(s.is_archived),
          });
        }
        return;
      case "remove":
        for (const s of e.subscriptions) {
          const cur = state.get(s.stream_id);
          if (!cur) continue;
          cur.list = "unsubscribed";
          cur.subscribers.delete(me);
        }
        return;
      case "update": {
        const cur = state.get(e.stream_id);
        if (cur && ["is_muted", "pin_to_top", "color"].includes(e.property)) (cur as any)[e.property] = e.value;
        return;
      }
      case "peer_add":
      case "peer_remove":
        for (const sid of e.stream_ids) {
          const cur = state.get(sid);
          if (!cur) continue;
          for (const u of e.user_ids) (e.op === "peer_add" ? cur.subscribers.add(u) : cur.subscribers.delete(u));
        }
        return;
    }
  }
  if (e.type === "stream") {
    switch (e.op) {
      case "create":
        for (const s of e.streams) {
          const cur = state.get(s.stream_id);
          // an unarchived channel comes back as stream create (for_unarchiving) to those who have it
          if (cur) cur.is_archived = Boolean(s.is_archived);
          else {
            state.set(s.stream_id, {
              list: "never subscribed",
              name: s.name,
              description: s.description,
              invite_only: s.invite_only,
              subscribers: new Set(),
              can_send_message_group: s.can_send_message_group,
              is_archived: Boolean(s.is_archived),
            });
          }
        }
        return;
      case "delete":
        for (const id of e.stream_ids ?? e.streams.map((s: any) => s.stream_id)) state.delete(id);
        return;
      case "update": {
        const cur = state.get(e.stream_id);
        if (!cur) return;
        if (["name", "description", "invite_only", "can_send_message_group", "is_archived"].includes(e.property)) (cur as any)[e.property] = e.value;
        return;
      }
    }
  }
  // Zulip: a deactivated user is in no group; a client told of it drops them from anonymous values
  // (and from subscriber lists, which peer_remove also says)
  if (e.type === "realm_user" && e.op === "update" && e.person.is_active === false) {
    for (const k of state.values()) {
      const v = k.can_send_message_group as any;
      if (v && typeof v === "object") k.can_send_message_group = { ...v, direct_members: v.direct_members.filter((u: number) => u !== e.person.user_id) };
    }
  }
}

/**
 * What a client shows. A channel that comes into sight again (stream create) cannot say whether the
 * user was once subscribed, so "unsubscribed" and "never subscribed" are one list here, as in
 * Zulip's web app; the user's own settings matter only where they are subscribed.
 */
const CHANNEL_LIST: Slice<Channels> = {
  register: { event_types: ["subscription", "stream", "realm_user"], include_subscribers: true },
  fromRegister: (r) => fromRegister(r),
  apply: (state, e, me) => apply(me, state, e),
  summary: (state) => summary(state),
};

function summary(state: Channels): string[] {
  return [...state]
    .sort((a, b) => a[0] - b[0])
    .map(([id, k]) => {
      const own = k.list === "subscribed" ? ` muted=${k.is_muted} pinned=${k.pin_to_top} color=${k.color}` : "";
      const list = k.list === "subscribed" ? "subscribed" : "not subscribed";
      const v = k.can_send_message_group as any;
      const send = v && typeof v === "object" ? `{${[...v.direct_members].sort((a: number, b: number) => a - b)} / ${[...v.direct_subgroups].sort((a: number, b: number) => a - b)}}` : String(v);
      return `${id} ${list} "${k.name}" "${k.description}" ${k.invite_only ? "private" : "public"}${k.is_archived ? " archived" : ""}${own} subscribers=${[...k.subscribers].sort((a, b) => a - b).join(",")} send=${send}`;
    });
}

async function run(ops: Op[]) {
  const s = await startServer();
  try {
    const id = (p: Person) => s.users[p as CastName].id;
    const client = (p: Person) => s.users[p as CastName].client;
    const channels = [
      await createChannel(s, "iago", "Hall", { subscribers: ["hamlet", "othello", "polonius"] }),
      await createChannel(s, "iago", "Tower", { subscribers: ["hamlet"] }),
      await createChannel(s, "iago", "Crypt", { subscribers: ["othello"], invite_only: true }),
    ];
    // an observer deactivated meanwhile has no session left to compare
    const clients = await follow(s, PEOPLE, CHANNEL_LIST, { sessionsMayEnd: true });
    const log: string[] = [];
    // Refusals are part of the game (a guest joining, a private channel): only these answers are fine.
    const allowed = (r: any, ...msgs: RegExp[]) => {
      if (r.status !== 200) expect(msgs.some((m) => m.test(r.json.msg)) ? "allowed refusal" : `${r.method} ${r.path}: ${r.json.msg}`).toBe("allowed refusal");
    };
    const REFUSED = [/^No such user/, /^Account is deactivated/, /^Channel content access is required/, /^Invalid channel/, /^Not allowed/, /^Insufficient permission/, /^You do not have permission/, /^Channel\(s\) \(.*\) do not exist/, /^Unable to access channel/];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      const cid = channels[(o as { channel?: number }).channel! % channels.length]!;
      const name = async () => (await s.app.db.get<{ name: string }>("SELECT name FROM streams WHERE id = ?", [cid]))!.name;
      switch (o.kind) {
        case "join":
          allowed(await client(o.who).post("/users/me/subscriptions", { subscriptions: [{ name: await name() }] }), ...REFUSED);
          break;
        case "leave":
          allowed(await client(o.who).delete("/users/me/subscriptions", { subscriptions: [await name()] }), ...REFUSED);
          break;
        case "add":
          allowed(await client("iago").post("/users/me/subscriptions", { subscriptions: [{ name: await name() }], principals: [id(o.who)] }), ...REFUSED);
          break;
        case "remove":
          allowed(await client("iago").delete("/users/me/subscriptions", { subscriptions: [await name()], principals: [id(o.who)] }), ...REFUSED);
          break;
        case "setting": {
          const value = o.property === "color" ? (o.flip ? "#c2c2c2" : "#76ce90") : o.flip;
          allowed(await client(o.who).post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: cid, property: o.property, value }] }), /^Not subscribed/, ...REFUSED);
          break;
        }
        case "rename":
          allowed(await client("iago").patch(`/streams/${cid}`, { new_name: `Room ${o.name}` }), /already exists/, /^Channel already has that name/);
          break;
        case "describe":
          allowed(await client("iago").patch(`/streams/${cid}`, { description: `about ${o.text}` }), /^Channel already has that description/);
          break;
        case "privacy":
          allowed(await client("iago").patch(`/streams/${cid}`, { is_private: o.private }), /^Channel already has/, ...REFUSED);
          break;
        case "sendGroup": {
          const value = o.role ? s.app.systemGroups.get("role:members")! : { direct_members: o.members.map(id), direct_subgroups: [] };
          allowed(await client("iago").patch(`/streams/${cid}`, { can_send_message_group: { new: value } } as any), /^Invalid user ID/, ...REFUSED);
          break;
        }
        case "deactivate": {
          const r = o.back ? await s.users.desdemona.client.post(`/users/${s.users[o.who].id}/reactivate`) : await s.users.desdemona.client.delete(`/users/${s.users[o.who].id}`);
          allowed(r, /deactivated|already active/);
          break;
        }
        case "archive": {
          const r = o.back ? await client("iago").patch(`/streams/${cid}`, { is_archived: false }) : await client("iago").delete(`/streams/${cid}`);
          allowed(r, /already|not currently deactivated/i, ...REFUSED);
          break;
        }
        case "role":
          allowed(await s.users.desdemona.client.patch(`/users/${s.users[o.who].id}`, { role: o.role }), /deactivated|No such user/);
          break;
        case "create": {
          const r = await client("iago").post("/users/me/subscriptions", {
            subscriptions: [{ name: `New ${channels.length}` }],
            principals: [id("iago"), ...o.members.map(id)],
            invite_only: o.private,
          });
          allowed(r, ...REFUSED); // a member deactivated meanwhile
          if (r.status === 200) channels.push((await s.app.db.get<{ id: number }>("SELECT id FROM streams WHERE name = ?", [`New ${channels.length}`]))!.id);
          break;
        }
      }
    }
    await clients.check(log);
  } finally {
    await s.close();
  }
}

describe("channels and subscriptions: register once and follow the events, or register again", () => {
  test("agree after random joins, leaves, additions, removals, settings, renames, privacy changes and new channels", () => checkSequences(op, run), 120_000);
});
