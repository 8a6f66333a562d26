/**
 * Unread messages, the state every client shows first: each user's unread_msgs from /register,
 * updated with their message, update_message_flags, delete_message and update_message events,
 * equals what a fresh /register reports (see helpers/consistency.ts), message by message, with its
 * channel and topic or conversation and whether it mentions them, after random sends with mentions,
 * reads and unreads, topic, channel and mark-all reads, edits, deletions and moves; and so does the
 * list of starred messages. CONCURRENT=N runs N operations at a time (by hand; 8 found nothing).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { CAST, startServer, type CastName, type TestServer } from "../helpers/server";
import { checkSequences, follow, type Slice } from "../helpers/consistency";
import { createChannel } from "../helpers/channels";
import type { InValue } from "@libsql/client";
import { raiseUnreadFloorsNow } from "../../src/actions/messages/unread-floors";
import { unreadIdsSql } from "../../src/store/unread-floors";

const PEOPLE = ["hamlet", "othello", "cordelia", "iago"] as const;
type Person = (typeof PEOPLE)[number];
const CHANNELS = { Castle: ["hamlet", "othello", "cordelia", "iago"], Garden: ["hamlet", "othello", "iago"] } as const;
type Channel = keyof typeof CHANNELS;
const TOPICS = ["ghost", "play", "Ghost"] as const;

type Op =
  | { kind: "stream"; sender: Person; channel: Channel; topic: string; mention: Person | null; wildcard: boolean }
  | { kind: "dm"; sender: Person; to: Person[] }
  | { kind: "flag"; who: Person; op: "add" | "remove"; pick: number; flag: "read" | "starred" }
  | { kind: "topicRead"; who: Person; channel: Channel; topic: string }
  | { kind: "channelRead"; who: Person; channel: Channel }
  | { kind: "allRead"; who: Person }
  | { kind: "edit"; pick: number; mention: Person | null }
  | { kind: "mute"; who: Person; whom: Person; on: boolean }
  | { kind: "delete"; pick: number }
  | { kind: "moveTopic"; pick: number; topic: string }
  | { kind: "moveChannel"; pick: number; channel: Channel }
  | { kind: "raiseFloors"; who: Person[] };

const person = fc.constantFrom(...PEOPLE);
const channel = fc.constantFrom<Channel>("Castle", "Garden");
const topic = fc.constantFrom(...TOPICS);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("stream" as const), sender: person, channel, topic, mention: fc.option(person, { nil: null }), wildcard: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("dm" as const), sender: person, to: fc.uniqueArray(person, { minLength: 1, maxLength: 3 }) }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("flag" as const), who: person, op: fc.constantFrom<"add" | "remove">("add", "remove"), pick: fc.nat(), flag: fc.constantFrom<"read" | "starred">("read", "read", "starred") }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("topicRead" as const), who: person, channel, topic }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("channelRead" as const), who: person, channel }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("allRead" as const), who: person }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("edit" as const), pick: fc.nat(), mention: fc.option(person, { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
  // muting someone marks what they sent read, and what they send later is born read
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("mute" as const), who: person, whom: person, on: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("moveTopic" as const), pick: fc.nat(), topic: fc.constantFrom("ghost", "moved", "Play") }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("moveChannel" as const), pick: fc.nat(), channel }) },
  // the background step that moves users' unread floors past their newest rows, at any point
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("raiseFloors" as const), who: fc.uniqueArray(person, { minLength: 1, maxLength: 4 }) }) },
);

/** Where an unread message sits, as unread_msgs groups it, and whether it mentions the user. */
type Place = string;
type Unread = Map<number, { place: Place; mentioned: boolean }>;

const streamPlace = (streamId: number, topic: string) => `channel ${streamId} / ${topic}`;
/** A conversation as unread_msgs names it: the other person of a one-to-one, else everyone's ids. */
function dmPlace(me: number, userIds: number[]): Place {
  const all = [...new Set([...userIds, me])].sort((a, b) => a - b);
  if (all.length <= 2) return `dm ${all.find((id) => id !== me) ?? me}`;
  return `group ${all.join(",")}`;
}

function fromRegister(me: number, u: any): Unread {
  const out: Unread = new Map();
  const mentions = new Set<number>(u.mentions);
  for (const s of u.streams) for (const id of s.unread_message_ids) out.set(id, { place: streamPlace(s.stream_id, s.topic), mentioned: mentions.has(id) });
  for (const p of u.pms) for (const id of p.unread_message_ids) out.set(id, { place: dmPlace(me, [p.other_user_id]), mentioned: mentions.has(id) });
  for (const h of u.huddles) for (const id of h.unread_message_ids) out.set(id, { place: dmPlace(me, h.user_ids_string.split(",").map(Number)), mentioned: mentions.has(id) });
  return out;
}

const MENTION_FLAGS = ["mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned"];

/**
 * A client's reducer for the events that change unread_msgs. `subscribed`: the client's own
 * subscriptions. A message moved into a channel the user is not subscribed to loses their row on
 * the server (Zulip's rule); the event tells only the edited message's flags, so the client drops
 * such messages itself.
 */
function apply(me: number, state: Unread, e: any, subscribed: (streamId: number) => boolean): void {
  switch (e.type) {
    case "message": {
      if (e.flags.includes("read")) return;
      const m = e.message;
      const place = m.type === "stream" ? streamPlace(m.stream_id, m.subject) : dmPlace(me, m.display_recipient.map((r: any) => r.id));
      state.set(m.id, { place, mentioned: e.flags.some((f: string) => MENTION_FLAGS.includes(f)) });
      return;
    }
    case "update_message_flags": {
      if (e.flag !== "read") return;
      // all: every message was marked read (and `messages` is empty)
      if (e.op === "add" && e.all) state.clear();
      else if (e.op === "add") for (const id of e.messages) state.delete(id);
      else {
        for (const id of e.messages) {
          const d = e.message_details[id];
          const place = d.type === "stream" ? streamPlace(d.stream_id, d.topic) : dmPlace(me, d.user_ids);
          state.set(id, { place, mentioned: d.mentioned === true });
        }
      }
      return;
    }
    case "delete_message":
      for (const id of e.message_ids ?? [e.message_id]) state.delete(id);
      return;
    case "update_message": {
      // `flags` are the user's flags for the edited message (message_id) after the edit
      if (e.flags?.includes("read")) state.delete(e.message_id);
      else if (e.flags && state.has(e.message_id)) state.get(e.message_id)!.mentioned = e.flags.some((f: string) => MENTION_FLAGS.includes(f));
      if (e.new_stream_id === undefined && e.subject === undefined) return;
      for (const id of e.message_ids) {
        const cur = state.get(id);
        if (!cur) continue;
        const streamId = e.new_stream_id ?? e.stream_id;
        if (!subscribed(streamId)) {
          state.delete(id);
          continue;
        }
        const topicName = e.subject ?? e.orig_subject;
        state.set(id, { ...cur, place: streamPlace(streamId, topicName) });
      }
      return;
    }
  }
}

async function run(ops: Op[]) {
  const s: TestServer = await startServer();
  try {
    const streamIds: Record<Channel, number> = {
      Castle: await createChannel(s, "iago", "Castle", { subscribers: [...CHANNELS.Castle] }),
      Garden: await createChannel(s, "iago", "Garden", { subscribers: [...CHANNELS.Garden] }),
    };
    const id = (p: Person) => s.users[p as CastName].id;
    const client = (p: Person) => s.users[p as CastName].client;
    const subscribedBy = (userId: number) => (streamId: number) =>
      (Object.keys(CHANNELS) as Channel[]).some((c) => streamIds[c] === streamId && (CHANNELS[c] as readonly string[]).some((p) => id(p as Person) === userId));
    const unread: Slice<Unread> = {
      register: { event_types: ["message", "update_message_flags", "delete_message", "update_message"], apply_markdown: true },
      fromRegister: (r, me) => fromRegister(me, r.unread_msgs),
      apply: (state, e, me) => apply(me, state, e, subscribedBy(me)),
      summary: (u) => [...u].sort((a, b) => a[0] - b[0]).map(([mid, v]) => `${mid} ${v.place}${v.mentioned ? " (mentioned)" : ""}`),
    };
    // starred messages: update_message_flags and delete_message; a move into a channel the user is
    // not in takes their row, star included, as it does the unread state
    const starred: Slice<Map<number, number>> = {
      register: { event_types: ["starred_messages", "message", "update_message_flags", "delete_message", "update_message"] },
      fromRegister: (r) => new Map(r.starred_messages.map((mid: number) => [mid, 0])),
      apply(state, e, me) {
        if (e.type === "update_message_flags" && e.flag === "starred") for (const mid of e.messages) e.op === "add" ? state.set(mid, 0) : state.delete(mid);
        if (e.type === "delete_message") for (const mid of e.message_ids) state.delete(mid);
        if (e.type === "update_message" && e.new_stream_id !== undefined && !subscribedBy(me)(e.new_stream_id)) for (const mid of e.message_ids) state.delete(mid);
      },
      summary: (st) => [...st.keys()].sort((a, b) => a - b).map(String),
    };
    const clients = await follow(s, PEOPLE, unread);
    const starClients = await follow(s, PEOPLE, starred);
    const sent: number[] = [];
    const stillThere = async () => (await s.app.db.all<{ id: number }>("SELECT id FROM messages ORDER BY id")).map((r) => r.id);
    const pickFrom = (ids: number[], n: number) => (ids.length ? ids[n % ids.length] : undefined);
    const log: string[] = [];
    const step = async (o: Op) => {
      log.push(JSON.stringify(o));
      switch (o.kind) {
        case "stream": {
          if (!(CHANNELS[o.channel] as readonly string[]).includes(o.sender)) break;
          const mention = o.mention ? ` @**${fullName(o.mention)}**` : "";
          const r = await client(o.sender).post("/messages", { type: "stream", to: o.channel, topic: o.topic, content: `hi${mention}${o.wildcard ? " @**topic**" : ""}` });
          sent.push(r.success().id);
          break;
        }
        case "dm": {
          const r = await client(o.sender).post("/messages", { type: "direct", to: o.to.map(id), content: "psst" });
          sent.push(r.success().id);
          break;
        }
        case "flag": {
          const mine = (await s.app.db.all<{ message_id: number }>("SELECT message_id FROM user_messages WHERE user_id = ? ORDER BY message_id", [id(o.who)])).map((r) => r.message_id);
          const chosen = mine.filter((_, i) => (i + o.pick) % 3 === 0);
          if (chosen.length) (await client(o.who).post("/messages/flags", { messages: chosen, op: o.op, flag: o.flag })).success();
          break;
        }
        case "topicRead": {
          const r = await client(o.who).post("/mark_topic_as_read", { stream_id: streamIds[o.channel], topic_name: o.topic });
          // Zulip refuses a topic with no messages, and a channel the user cannot read
          if (r.status !== 200) expect(r.json.msg).toMatch(/^No such topic|^Invalid channel ID/);
          break;
        }
        case "channelRead": {
          const r = await client(o.who).post("/mark_stream_as_read", { stream_id: streamIds[o.channel] });
          if (r.status !== 200) expect(r.json.msg).toMatch(/^Invalid channel ID/);
          break;
        }
        case "allRead":
          (await client(o.who).post("/mark_all_as_read", {})).success();
          break;
        case "edit": {
          // the sender edits their own channel message (the Notification Bot's notices are left alone)
          const mine = await s.app.db.all<{ id: number; sender_id: number }>(
            "SELECT id, sender_id FROM messages WHERE stream_id IS NOT NULL AND sender_id IN (?, ?, ?, ?) ORDER BY id",
            PEOPLE.map(id),
          );
          const target = mine.length ? mine[o.pick % mine.length] : undefined;
          if (!target) break;
          const editor = PEOPLE.find((p) => id(p) === target.sender_id)!;
          const mention = o.mention ? ` @**${fullName(o.mention)}**` : "";
          const r = await client(editor).patch(`/messages/${target.id}`, { content: `edited ${o.pick}${mention}` });
          // a sender who has lost access to the channel the message was moved to cannot edit it
          if (r.status !== 200) expect(r.json.msg).toMatch(/^Invalid message|^Nothing to change/);
          break;
        }
        case "mute": {
          const path = `/users/me/muted_users/${id(o.whom)}`;
          const r = o.on ? await client(o.who).post(path) : await client(o.who).delete(path);
          if (r.status !== 200) expect(r.json.msg).toMatch(/^Cannot mute self|^User already muted|^User is not muted/);
          break;
        }
        case "delete": {
          const target = pickFrom(await stillThere(), o.pick);
          if (target === undefined) break;
          const r = await client("iago").delete(`/messages/${target}`);
          // an administrator cannot see (or delete) other people's direct messages
          if (r.status !== 200) expect(r.json.msg).toBe("Invalid message(s)");
          break;
        }
        case "moveTopic": {
          const streamMsgs = (await s.app.db.all<{ id: number }>("SELECT id FROM messages WHERE stream_id IS NOT NULL ORDER BY id")).map((r) => r.id);
          const target = pickFrom(streamMsgs, o.pick);
          if (target === undefined) break;
          const r = await client("iago").patch(`/messages/${target}`, { topic: o.topic, propagate_mode: "change_all" });
          if (r.status !== 200) expect(r.json.msg).toBe("Nothing to change"); // already in that topic
          break;
        }
        case "raiseFloors":
          await raiseUnreadFloorsNow(s.app, o.who.map(id));
          break;
        case "moveChannel": {
          const streamMsgs = (await s.app.db.all<{ id: number; stream_id: number }>("SELECT id, stream_id FROM messages WHERE stream_id IS NOT NULL ORDER BY id"));
          const target = streamMsgs.length ? streamMsgs[o.pick % streamMsgs.length] : undefined;
          if (target && target.stream_id !== streamIds[o.channel]) {
            (await client("iago").patch(`/messages/${target.id}`, { stream_id: streamIds[o.channel], propagate_mode: "change_all" })).success();
          }
          break;
        }
      }
        };
    const width = Number(process.env.CONCURRENT ?? 1);
    for (let i = 0; i < ops.length; i += width) await Promise.all(ops.slice(i, i + width).map(step));
    await clients.check(log);
    await starClients.check(log);
    // the store's two-part unread set (the tail and the list below the floor) is exactly the unread rows
    for (const p of PEOPLE) {
      const args: InValue[] = [];
      const viaFloor = (await s.app.db.all<{ message_id: number }>(`SELECT message_id FROM (${unreadIdsSql(id(p), args)}) ORDER BY message_id`, args)).map((r) => r.message_id);
      const flagged = (await s.app.db.all<{ message_id: number }>("SELECT message_id FROM user_messages WHERE user_id = ? AND (flags & 1) = 0 ORDER BY message_id", [id(p)])).map((r) => r.message_id);
      expect({ who: p, unread: viaFloor, log }).toEqual({ who: p, unread: flagged, log });
    }
  } finally {
    await s.close();
  }
}

const fullName = (p: Person) => CAST[p].fullName;

describe("unread messages: register once and follow the events, or register again", () => {
  test("agree after random sends, reads, unreads, topic reads, deletions and moves", () => checkSequences(op, run, { min: 5, max: 30 }), 120_000);
});
