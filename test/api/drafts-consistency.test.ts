/**
 * A user's own lists (drafts, saved snippets and scheduled messages) kept by their events equal a
 * fresh /register's (see helpers/consistency.ts), after random creations, edits, deletions, and time
 * passing so that scheduled messages are sent (or fail, when their channel is gone).
 */
import { describe, test } from "bun:test";
import fc from "fast-check";
import { startServer, type CastName } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { checkSequences, follow, type Slice } from "../helpers/consistency";
import { deliverDueScheduledMessages } from "../../src/actions/scheduled-delivery";

const PEOPLE = ["hamlet", "othello"] as const;
type Person = (typeof PEOPLE)[number];

type Op =
  | { kind: "draft"; who: Person; n: number }
  | { kind: "editDraft"; who: Person; pick: number; n: number }
  | { kind: "deleteDraft"; who: Person; pick: number }
  | { kind: "snippet"; who: Person; n: number }
  | { kind: "editSnippet"; who: Person; pick: number; n: number }
  | { kind: "deleteSnippet"; who: Person; pick: number }
  | { kind: "schedule"; who: Person; inSeconds: number }
  | { kind: "editScheduled"; who: Person; pick: number; inSeconds: number }
  | { kind: "deleteScheduled"; who: Person; pick: number }
  | { kind: "time"; seconds: number }
  | { kind: "archive" };

const who = fc.constantFrom(...PEOPLE);
const n = fc.nat({ max: 5 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("draft" as const), who, n }),
  fc.record({ kind: fc.constant("editDraft" as const), who, pick: fc.nat(), n }),
  fc.record({ kind: fc.constant("deleteDraft" as const), who, pick: fc.nat() }),
  fc.record({ kind: fc.constant("snippet" as const), who, n }),
  fc.record({ kind: fc.constant("editSnippet" as const), who, pick: fc.nat(), n }),
  fc.record({ kind: fc.constant("deleteSnippet" as const), who, pick: fc.nat() }),
  fc.record({ kind: fc.constant("schedule" as const), who, inSeconds: fc.constantFrom(60, 120, 600) }),
  fc.record({ kind: fc.constant("editScheduled" as const), who, pick: fc.nat(), inSeconds: fc.constantFrom(60, 300) }),
  fc.record({ kind: fc.constant("deleteScheduled" as const), who, pick: fc.nat() }),
  fc.record({ kind: fc.constant("time" as const), seconds: fc.constantFrom(30, 90, 700) }),
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("archive" as const) }) },
);

interface Lists {
  drafts: Map<number, string>;
  snippets: Map<number, string>;
  scheduled: Map<number, string>;
}
const draftText = (d: any) => `${d.type} ${JSON.stringify(d.to)} ${d.topic} ${d.content}`;
const snippetText = (x: any) => `${x.title}: ${x.content}`;
const scheduledText = (m: any) => `${m.type} ${JSON.stringify(m.to)} ${m.topic ?? ""} ${m.content} at ${m.scheduled_delivery_timestamp}${m.failed ? " failed" : ""}`;

const OWN_LISTS: Slice<Lists> = {
  register: { event_types: ["drafts", "saved_snippets", "scheduled_messages"] },
  fromRegister: (r) => ({
    drafts: new Map(r.drafts.map((d: any) => [d.id, draftText(d)])),
    snippets: new Map(r.saved_snippets.map((x: any) => [x.id, snippetText(x)])),
    scheduled: new Map(r.scheduled_messages.map((m: any) => [m.scheduled_message_id, scheduledText(m)])),
  }),
  apply(st, e) {
    if (e.type === "drafts") {
      if (e.op === "add") for (const d of e.drafts) st.drafts.set(d.id, draftText(d));
      if (e.op === "update") st.drafts.set(e.draft.id, draftText(e.draft));
      if (e.op === "remove") st.drafts.delete(e.draft_id);
    }
    if (e.type === "saved_snippets") {
      if (e.op === "add") st.snippets.set(e.saved_snippet.id, snippetText(e.saved_snippet));
      if (e.op === "update") st.snippets.set(e.saved_snippet.id, snippetText(e.saved_snippet));
      if (e.op === "remove") st.snippets.delete(e.saved_snippet_id);
    }
    if (e.type === "scheduled_messages") {
      if (e.op === "add") for (const m of e.scheduled_messages) st.scheduled.set(m.scheduled_message_id, scheduledText(m));
      if (e.op === "update") st.scheduled.set(e.scheduled_message.scheduled_message_id, scheduledText(e.scheduled_message));
      if (e.op === "remove") st.scheduled.delete(e.scheduled_message_id);
    }
  },
  summary: (st) => [
    ...[...st.drafts].sort((a, b) => a[0] - b[0]).map(([id, t]) => `draft ${id} ${t}`),
    ...[...st.snippets].sort((a, b) => a[0] - b[0]).map(([id, t]) => `snippet ${id} ${t}`),
    ...[...st.scheduled].sort((a, b) => a[0] - b[0]).map(([id, t]) => `scheduled ${id} ${t}`),
  ],
};

async function run(ops: Op[]) {
  const s = await startServer();
  try {
    const stage = await createChannel(s, "iago", "Stage", { subscribers: ["hamlet", "othello"] });
    const client = (p: Person) => s.users[p as CastName].client;
    const clients = await follow(s, PEOPLE, OWN_LISTS);
    const nowSecs = () => Math.floor(s.clock.now() / 1000);
    const idsOf = async (p: Person, table: string) =>
      (await s.app.db.all<{ id: number }>(`SELECT id FROM ${table} WHERE ${table === "scheduled_messages" ? "sender_id" : "user_id"} = ? ${table === "scheduled_messages" ? "AND delivered = 0" : ""} ORDER BY id`, [s.users[p as CastName].id])).map((r) => r.id);
    const pick = (ids: number[], k: number) => (ids.length ? ids[k % ids.length] : undefined);
    // after the channel is archived, drafts to it are refused like any unknown channel
    const gone = (r: any) => {
      if (r.status !== 200 && r.json.msg !== "Invalid channel ID") throw new Error(r.text);
    };
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      switch (o.kind) {
        case "draft":
          gone(await client(o.who).post("/drafts", { drafts: [{ type: "stream", to: [stage], topic: `t${o.n}`, content: `draft ${o.n}`, timestamp: nowSecs() }] }));
          break;
        case "editDraft": {
          const id = pick(await idsOf(o.who, "drafts"), o.pick);
          if (id !== undefined) gone(await client(o.who).patch(`/drafts/${id}`, { draft: { type: "stream", to: [stage], topic: `e${o.n}`, content: `edited ${o.n}`, timestamp: nowSecs() } }));
          break;
        }
        case "deleteDraft": {
          const id = pick(await idsOf(o.who, "drafts"), o.pick);
          if (id !== undefined) (await client(o.who).delete(`/drafts/${id}`)).success();
          break;
        }
        case "snippet":
          (await client(o.who).post("/saved_snippets", { title: `title ${o.n}`, content: `snippet ${o.n}` })).success();
          break;
        case "editSnippet": {
          const id = pick(await idsOf(o.who, "saved_snippets"), o.pick);
          if (id !== undefined) (await client(o.who).patch(`/saved_snippets/${id}`, { content: `changed ${o.n}` })).success();
          break;
        }
        case "deleteSnippet": {
          const id = pick(await idsOf(o.who, "saved_snippets"), o.pick);
          if (id !== undefined) (await client(o.who).delete(`/saved_snippets/${id}`)).success();
          break;
        }
        case "schedule": {
          const r = await client(o.who).post("/scheduled_messages", { type: "stream", to: stage, topic: "later", content: "on time", scheduled_delivery_timestamp: nowSecs() + o.inSeconds });
          // the channel may have been archived meanwhile
          if (r.status !== 200 && !/archived|Invalid channel|not have permission|Not authorized/i.test(r.json.msg)) throw new Error(r.text);
          break;
        }
        case "editScheduled": {
          const id = pick(await idsOf(o.who, "scheduled_messages"), o.pick);
          if (id === undefined) break;
          const r = await client(o.who).patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: nowSecs() + o.inSeconds, content: "rescheduled" });
          if (r.status !== 200 && !/archived|Invalid channel|not have permission|Not authorized|already been sent|not exist/i.test(r.json.msg)) throw new Error(r.text);
          break;
        }
        case "deleteScheduled": {
          const id = pick(await idsOf(o.who, "scheduled_messages"), o.pick);
          if (id !== undefined) (await client(o.who).delete(`/scheduled_messages/${id}`)).success();
          break;
        }
        case "time":
          s.clock.advance(o.seconds * 1000);
          await deliverDueScheduledMessages(s.app);
          break;
        case "archive": {
          const r = await s.users.iago.client.delete(`/streams/${stage}`);
          if (r.status !== 200 && !/archived|already deactivated/i.test(r.json.msg)) throw new Error(r.text);
          break;
        }
      }
    }
    await clients.check(log);
  } finally {
    await s.close();
  }
}

describe("drafts, saved snippets and scheduled messages: register once and follow the events, or register again", () => {
  test("agree after random creations, edits, deletions, deliveries and failures", () => checkSequences(op, run), 120_000);
});
