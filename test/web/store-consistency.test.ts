/**
 * The web app's store against a live server: each person's client registers with the app's own
 * parameters, opens the "all messages" view, then applies its events with the app's reducer
 * (assets/app/state). After random actions by several people through the API, its state equals the
 * state of a client that registers now and fetches that view afresh: people, channels and
 * subscriptions, unread messages and mentions, starred messages, direct-message conversations, topic
 * settings, presence, statuses, muted people, groups, settings, the organization, and every fetched
 * message (content, topic, channel, flags, edited and moved times) in the view's list.
 *
 * Deletions are of channel messages only: a direct-message conversation's newest id after its newest
 * message is deleted is not something events tell (Zulip's web app has the same limit).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { CAST, startServer, type CastName, type TestServer } from "../helpers/server";
import { checkSequences } from "../helpers/consistency";
import { createChannel } from "../helpers/channels";
import { REGISTER_PARAMS } from "../../assets/app/state/register-params";
import { fromRegister } from "../../assets/app/state/from-register";
import { applyEvent } from "../../assets/app/state/apply-event";
import { messagesFetched } from "../../assets/app/state/fetched";
import { apiNarrow, type Narrow } from "../../assets/app/state/narrow";
import type { State } from "../../assets/app/state/types";

const PEOPLE = ["hamlet", "othello", "cordelia", "iago", "polonius"] as const;
type Person = (typeof PEOPLE)[number];
const CHANNELS = { Castle: ["hamlet", "othello", "cordelia", "iago"], Garden: ["hamlet", "othello", "iago", "polonius"] } as const;
type ChannelName = keyof typeof CHANNELS | "Tower";
const TOPICS = ["ghost", "play", "Ghost"] as const;
const ALL: Narrow = { kind: "all" };

type Op =
  | { kind: "stream"; sender: Person; channel: ChannelName; topic: string; mention: Person | "group" | "all" | null }
  | { kind: "dm"; sender: Person; to: Person[] }
  | { kind: "flag"; who: Person; op: "add" | "remove"; pick: number; flag: "read" | "starred" }
  | { kind: "topicRead"; who: Person; channel: ChannelName; topic: string }
  | { kind: "channelRead"; who: Person; channel: ChannelName }
  | { kind: "allRead"; who: Person }
  | { kind: "edit"; pick: number; mention: Person | null }
  | { kind: "moveTopic"; pick: number; topic: string; mode: "change_all" | "change_one" }
  | { kind: "moveChannel"; pick: number; channel: ChannelName }
  | { kind: "delete"; pick: number }
  | { kind: "subscribe"; who: Person; channel: ChannelName; on: boolean }
  | { kind: "subSetting"; who: Person; channel: ChannelName; property: "is_muted" | "pin_to_top" | "color"; flip: boolean }
  | { kind: "renameChannel"; channel: ChannelName; n: number }
  | { kind: "userTopic"; who: Person; channel: ChannelName; topic: string; policy: number }
  | { kind: "presence"; who: Person; status: "active" | "idle" }
  | { kind: "status"; who: Person; text: string; emoji: boolean }
  | { kind: "setting"; who: Person; name: "twenty_four_hour_time" | "enter_sends" | "color_scheme"; n: number }
  | { kind: "muteUser"; who: Person; whom: Person; on: boolean }
  | { kind: "rename"; who: Person; n: number }
  | { kind: "group"; who: Person; on: boolean }
  | { kind: "realmName"; n: number };

const person = fc.constantFrom(...PEOPLE);
const channel = fc.constantFrom<ChannelName>("Castle", "Garden", "Tower");
const topic = fc.constantFrom(...TOPICS);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("stream" as const), sender: person, channel, topic, mention: fc.option(fc.oneof(person, fc.constantFrom<"group" | "all">("group", "all")), { nil: null }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("dm" as const), sender: person, to: fc.uniqueArray(person, { minLength: 1, maxLength: 3 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("flag" as const), who: person, op: fc.constantFrom<"add" | "remove">("add", "remove"), pick: fc.nat(), flag: fc.constantFrom<"read" | "starred">("read", "read", "starred") }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("topicRead" as const), who: person, channel, topic }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("channelRead" as const), who: person, channel }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("allRead" as const), who: person }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("edit" as const), pick: fc.nat(), mention: fc.option(person, { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("moveTopic" as const), pick: fc.nat(), topic: fc.constantFrom("ghost", "moved", "Play"), mode: fc.constantFrom<"change_all" | "change_one">("change_all", "change_one") }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("moveChannel" as const), pick: fc.nat(), channel }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("subscribe" as const), who: person, channel, on: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("subSetting" as const), who: person, channel, property: fc.constantFrom<"is_muted" | "pin_to_top" | "color">("is_muted", "pin_to_top", "color"), flip: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("renameChannel" as const), channel, n: fc.nat({ max: 9 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("userTopic" as const), who: person, channel, topic, policy: fc.nat({ max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("presence" as const), who: person, status: fc.constantFrom<"active" | "idle">("active", "idle") }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("status" as const), who: person, text: fc.constantFrom("", "at lunch", "away"), emoji: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("setting" as const), who: person, name: fc.constantFrom<"twenty_four_hour_time" | "enter_sends" | "color_scheme">("twenty_four_hour_time", "enter_sends", "color_scheme"), n: fc.nat({ max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("muteUser" as const), who: person, whom: person, on: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("rename" as const), who: person, n: fc.nat({ max: 9 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("group" as const), who: person, on: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("realmName" as const), n: fc.nat({ max: 9 }) }) },
);

/** The state as comparable lines: every part the app keeps, messages of the "all" view included. */
function summary(st: State): unknown {
  const list = st.lists.all!;
  return {
    me: st.me,
    realm: st.realm,
    users: st.users,
    channels: st.channels,
    subscriptions: st.subscriptions,
    unread: Object.entries(st.unread.messages).sort((a, b) => Number(a[0]) - Number(b[0])),
    mentions: st.unread.mentions,
    starred: st.starred,
    recent_dms: Object.entries(st.recent_dms).sort(),
    // topics compare without case; the server keeps the first spelling while an event may carry another
    user_topics: Object.entries(st.user_topics).map(([k, t]) => [k, t.policy]).sort(),
    presence: st.presence,
    user_status: st.user_status,
    muted_users: st.muted_users,
    groups: st.groups,
    settings: st.settings,
    list: { ids: list.ids, found_oldest: list.found_oldest, found_newest: list.found_newest },
    messages: list.ids.map((id) => {
      const m = st.messages[id]!;
      // the app names senders, channels and people from the state, by id: names inside messages are not read
      const recipients = Array.isArray(m.display_recipient) ? m.display_recipient.map((r) => r.id) : null;
      return [id, m.sender_id, m.content, m.subject, m.stream_id, recipients, [...m.flags].sort(), m.last_edit_timestamp, m.last_moved_timestamp];
    }),
  };
}

async function run(ops: Op[]) {
  const s: TestServer = await startServer();
  try {
    const streamIds: Record<ChannelName, number> = {
      Castle: await createChannel(s, "iago", "Castle", { subscribers: [...CHANNELS.Castle] }),
      Garden: await createChannel(s, "iago", "Garden", { subscribers: [...CHANNELS.Garden] }),
      Tower: await createChannel(s, "iago", "Tower", { invite_only: true }),
    };
    const groupId = (await s.users.iago.client.post("/user_groups/create", { name: "players", description: "The players", members: [s.users.hamlet.id] })).success().group_id;
    const id = (p: Person) => s.users[p as CastName].id;
    const client = (p: Person) => s.users[p as CastName].client;
    const fetchAll = async (p: Person) =>
      (await client(p).get("/messages", { anchor: "newest", num_before: 1000, num_after: 0, narrow: apiNarrow(ALL), apply_markdown: true, client_gravatar: false })).success();
    const fresh = async (p: Person) => {
      const r = (await client(p).post("/register", REGISTER_PARAMS)).success();
      return { queue: r.queue_id as string, state: messagesFetched(fromRegister(r), ALL, await fetchAll(p), "replace") };
    };
    const models = new Map<Person, { queue: string; state: State }>();
    for (const p of PEOPLE) models.set(p, await fresh(p));

    const log: string[] = [];
    const messageIds = async () => (await s.app.db.all<{ id: number; stream_id: number | null; sender_id: number }>("SELECT id, stream_id, sender_id FROM messages ORDER BY id"));
    for (const o of ops) {
      log.push(JSON.stringify(o));
      switch (o.kind) {
        case "stream": {
          const mention = o.mention === "group" ? " @*players*" : o.mention === "all" ? " @**all**" : o.mention ? ` @**${CAST[o.mention].fullName}**` : "";
          const r = await client(o.sender).post("/messages", { type: "stream", to: streamIds[o.channel], topic: o.topic, content: `hi${mention}` });
          // a sender outside a private channel, or a guest where they may not post, is refused
          if (r.status !== 200) expect(r.json.code).toMatch(/BAD_REQUEST|STREAM_DOES_NOT_EXIST/);
          break;
        }
        case "dm":
          (await client(o.sender).post("/messages", { type: "direct", to: o.to.map(id), content: "psst" })).success();
          break;
        case "flag": {
          const mine = (await s.app.db.all<{ message_id: number }>("SELECT message_id FROM user_messages WHERE user_id = ? ORDER BY message_id", [id(o.who)])).map((r) => r.message_id);
          const chosen = mine.filter((_, i) => (i + o.pick) % 3 === 0);
          if (chosen.length) (await client(o.who).post("/messages/flags", { messages: chosen, op: o.op, flag: o.flag })).success();
          break;
        }
        case "topicRead": {
          const r = await client(o.who).post("/mark_topic_as_read", { stream_id: streamIds[o.channel], topic_name: o.topic });
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
          const mine = (await messageIds()).filter((m) => m.stream_id !== null && PEOPLE.some((p) => id(p) === m.sender_id));
          const target = mine.length ? mine[o.pick % mine.length]! : undefined;
          if (!target) break;
          const editor = PEOPLE.find((p) => id(p) === target.sender_id)!;
          const mention = o.mention ? ` @**${CAST[o.mention].fullName}**` : "";
          const r = await client(editor).patch(`/messages/${target.id}`, { content: `edited ${o.pick}${mention}` });
          if (r.status !== 200) expect(r.json.msg).toMatch(/^Invalid message|^Nothing to change|^You don't have permission/);
          break;
        }
        case "moveTopic": {
          const inChannels = (await messageIds()).filter((m) => m.stream_id !== null);
          const target = inChannels.length ? inChannels[o.pick % inChannels.length]! : undefined;
          if (!target) break;
          const r = await client("iago").patch(`/messages/${target.id}`, { topic: o.topic, propagate_mode: o.mode });
          if (r.status !== 200) expect(r.json.msg).toBe("Nothing to change");
          break;
        }
        case "moveChannel": {
          const inChannels = (await messageIds()).filter((m) => m.stream_id !== null);
          const target = inChannels.length ? inChannels[o.pick % inChannels.length]! : undefined;
          if (!target || target.stream_id === streamIds[o.channel]) break;
          const r = await client("iago").patch(`/messages/${target.id}`, { stream_id: streamIds[o.channel], propagate_mode: "change_all" });
          // iago is not in the private Tower unless he joined it
          if (r.status !== 200) expect(r.json.msg).toMatch(/^Invalid channel ID|^You don't have permission/);
          break;
        }
        case "delete": {
          const inChannels = (await messageIds()).filter((m) => m.stream_id !== null);
          const target = inChannels.length ? inChannels[o.pick % inChannels.length]! : undefined;
          if (!target) break;
          const r = await client("iago").delete(`/messages/${target.id}`);
          if (r.status !== 200) expect(r.json.msg).toBe("Invalid message(s)");
          break;
        }
        case "subscribe": {
          const r = o.on
            ? await client(o.who).post("/users/me/subscriptions", { subscriptions: [{ name: o.channel }] })
            : await client(o.who).delete("/users/me/subscriptions", { subscriptions: [o.channel] });
          // a private channel cannot be joined uninvited; guests may not join public channels by themselves
          if (r.status !== 200) expect(r.json.code).toMatch(/BAD_REQUEST|STREAM_DOES_NOT_EXIST/);
          break;
        }
        case "subSetting": {
          const value = o.property === "color" ? (o.flip ? "#c2726a" : "#76ce90") : o.flip;
          const r = await client(o.who).post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: streamIds[o.channel], property: o.property, value }] });
          if (r.status !== 200) expect(r.json.msg).toMatch(/^Not subscribed|^Invalid channel ID/);
          break;
        }
        case "renameChannel": {
          const r = await client("iago").patch(`/streams/${streamIds[o.channel]}`, { new_name: `${o.channel} ${o.n}` });
          if (r.status !== 200) expect(r.json.msg).toMatch(/^Channel already has that name|^Invalid channel ID|already exists/);
          break;
        }
        case "userTopic": {
          const r = await client(o.who).post("/user_topics", { stream_id: streamIds[o.channel], topic: o.topic, visibility_policy: o.policy });
          if (r.status !== 200) expect(r.json.msg).toMatch(/^Invalid channel ID|^Nothing to do/);
          break;
        }
        case "presence":
          (await client(o.who).post("/users/me/presence", { status: o.status, new_user_input: true, slim_presence: true })).success();
          break;
        case "status":
          (await client(o.who).post("/users/me/status", o.emoji ? { status_text: o.text, emoji_name: "car" } : { status_text: o.text, emoji_name: "" })).success();
          break;
        case "setting": {
          const values = { twenty_four_hour_time: [true, false, true], enter_sends: [false, true, true], color_scheme: [1, 2, 3] }[o.name];
          (await client(o.who).patch("/settings", { [o.name]: values[o.n] } as Record<string, unknown> as never)).success();
          break;
        }
        case "muteUser": {
          const path = `/users/me/muted_users/${id(o.whom)}`;
          const r = o.on ? await client(o.who).post(path) : await client(o.who).delete(path);
          if (r.status !== 200) expect(r.json.msg).toMatch(/^Cannot mute self|^User already muted|^User is not muted/);
          break;
        }
        case "rename": {
          const r = await client(o.who).patch("/settings", { full_name: `${CAST[o.who].fullName} ${o.n}` });
          if (r.status !== 200) expect(r.json.msg).toMatch(/Name changes are disabled/);
          break;
        }
        case "group": {
          const path = `/user_groups/${groupId}/members`;
          const r = await client("iago").post(path, o.on ? { add: [id(o.who)] } : { delete: [id(o.who)] });
          if (r.status !== 200) expect(r.json.msg).toMatch(/already a member|no member/);
          break;
        }
        case "realmName":
          (await s.users.desdemona.client.patch("/realm", { name: `Elsinore ${o.n}` })).success();
          break;
      }
    }

    for (const p of PEOPLE) {
      const m = models.get(p)!;
      const r = await client(p).request("GET", "/api/v1/events", { queue_id: m.queue, last_event_id: -1, dont_block: true }, { raw: true });
      let state = m.state;
      for (const e of r.success().events) {
        if (process.env.DEBUG_EVENTS === p) console.log(JSON.stringify(e).slice(0, 600));
        state = applyEvent(state, e);
        if (process.env.DEBUG_EVENTS === p) console.log("  unread:", JSON.stringify(state.unread));
      }
      const now = (await fresh(p)).state;
      expect({ who: p, state: summary(state), log }).toEqual({ who: p, state: summary(now), log });
    }
  } finally {
    await s.close();
  }
}

describe("the web app's store: register once and apply the events, or register again", () => {
  if (process.env.DEBUG_OPS) test("debug", () => run(JSON.parse(process.env.DEBUG_OPS!)), 60_000);
  test("agree after random messages, reads, edits, moves, deletions, subscriptions, settings and statuses by several people", () => checkSequences(op, run, { min: 5, max: 30 }), 180_000);
});
