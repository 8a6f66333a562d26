import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type CastName, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";

let s: TestServer;
let channel: number;
beforeAll(async () => {
  s = await startServer({ heartbeatMs: 200 });
  channel = await createChannel(s, "hamlet", "fan-out", { subscribers: ["othello", "cordelia"] });
});
afterAll(() => s.close());

let n = 0;
const register = async (who: CastName, params: Record<string, unknown> = {}) =>
  (await s.users[who].client.post("/register", { event_types: ["message"], fetch_event_types: [], ...params } as any)).success().queue_id as string;
/** (unchecked against the OpenAPI: the sender's echo carries local_message_id, which Zulip sends but does not document) */
const poll = (who: CastName, queue_id: string) => s.users[who].client.request("GET", "/api/v1/events", { queue_id, last_event_id: -1, dont_block: true }, { raw: true });
const drop = async (who: CastName, queue_id: string) => (await s.users[who].client.delete("/events", { queue_id })).success();

describe("one message to many queues", () => {
  test("queues of the same form get the same event bytes; Markdown and HTML, each user's flags and the sender's local_message_id differ", async () => {
    const senderEcho = await register("hamlet", { apply_markdown: true });
    const senderOther = await register("hamlet", { apply_markdown: true });
    const othelloHtml = [await register("othello", { apply_markdown: true }), await register("othello", { apply_markdown: true })];
    const othelloMarkdown = await register("othello", { apply_markdown: false });
    const content = `**fan-out** ${++n}`;
    (await s.users.hamlet.client.post("/messages", { type: "stream", to: channel, topic: "t", content, queue_id: senderEcho, local_id: "echo-1", read_by_sender: true })).success();

    const event = async (who: CastName, q: string) => {
      const r = await poll(who, q);
      const body = r.success();
      expect(body.events).toHaveLength(1);
      // the event's own bytes, as written in the answer
      return { raw: r.text.slice(r.text.indexOf('"events":[') + 10, r.text.lastIndexOf('],"queue_id"')), e: body.events[0] };
    };
    const echo = await event("hamlet", senderEcho);
    const other = await event("hamlet", senderOther);
    const [html1, html2] = [await event("othello", othelloHtml[0]!), await event("othello", othelloHtml[1]!)];
    const markdown = await event("othello", othelloMarkdown);

    expect(echo.e.local_message_id).toBe("echo-1");
    expect("local_message_id" in other.e).toBe(false);
    expect(other.e.flags).toEqual(["read"]);
    expect(html1.e.flags).toEqual([]);
    expect(html1.raw).toBe(html2.raw);
    expect(html1.e.message).toEqual(other.e.message);
    expect(html1.e.message.content).toBe(`<p><strong>fan-out</strong> ${n}</p>`);
    expect(html1.e.message.content_type).toBe("text/html");
    expect(markdown.e.message.content).toBe(content);
    expect(markdown.e.message.content_type).toBe("text/x-markdown");
    expect({ ...markdown.e.message, content: null, content_type: null }).toEqual({ ...html1.e.message, content: null, content_type: null });
    // an answer is the envelope Elysia would have written: JSON, ids in order
    expect((await poll("othello", othelloHtml[0]!)).header("content-type")).toBe("application/json");
    for (const q of [senderEcho, senderOther]) await drop("hamlet", q);
    for (const q of [...othelloHtml, othelloMarkdown]) await drop("othello", q);
  });

  test("the message is serialized once per form, not once per queue or per answer", async () => {
    const queues = await Promise.all(
      (["hamlet", "othello", "cordelia"] as const).flatMap((who) => Array.from({ length: 10 }, async () => [who, await register(who, { apply_markdown: true })] as const)),
    );
    const content = `counted ${++n}`;
    const real = JSON.stringify;
    let serialized = 0;
    JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => {
      const out = real(...args);
      if (typeof out === "string" && out.includes(content)) serialized++;
      return out;
    }) as typeof JSON.stringify;
    try {
      (await s.users.hamlet.client.post("/messages", { type: "stream", to: channel, topic: "t", content })).success();
      for (const [who, q] of queues) {
        const events = (await s.users[who].client.get("/events", { queue_id: q, last_event_id: -1, dont_block: true })).success().events;
        expect(events.map((e: any) => e.message.content)).toEqual([`<p>${content}</p>`]);
      }
    } finally {
      JSON.stringify = real;
    }
    // one formatted message dict for the 30 queues (the test client's OpenAPI check parses, never serializes)
    expect(serialized).toBe(1);
    for (const [who, q] of queues) await drop(who, q);
  });

  test("a queue's narrow still picks its messages, and an answer keeps ignored_parameters_unsupported", async () => {
    const narrowed = await register("othello", { narrow: [["topic", "wanted"]] });
    (await s.users.hamlet.client.post("/messages", { type: "stream", to: channel, topic: "other", content: "not this" })).success();
    (await s.users.hamlet.client.post("/messages", { type: "stream", to: channel, topic: "wanted", content: "this" })).success();
    const r = await s.users.othello.client.get("/events", { queue_id: narrowed, last_event_id: -1, dont_block: true, bogus: 1 });
    const body = r.success();
    expect(body.events.map((e: any) => [e.id, e.message.content])).toEqual([[0, "this"]]);
    expect(body.ignored_parameters_unsupported).toEqual(["bogus"]);
    expect(body.queue_id).toBe(narrowed);
  });

  test("queued events read back as objects (acknowledged ones gone), and the queue ids run on", async () => {
    const q = s.app.events.register({ userId: s.users.cordelia.id, eventTypes: ["message"], applyMarkdown: false, clientGravatar: true, allPublicStreams: false, narrow: [], capabilities: {}, lifespanSecs: 0, clientName: "test" });
    try {
      for (const c of ["one", "two", "three"]) (await s.users.hamlet.client.post("/messages", { type: "stream", to: channel, topic: "t", content: c })).success();
      expect(q.events.map((e) => [e.id, (e.message as any).content])).toEqual([[0, "one"], [1, "two"], [2, "three"]]);
      q.acknowledge(1);
      expect(q.events.map((e) => e.id)).toEqual([2]);
      expect(q.newestPrunedId).toBe(1);
      expect(q.lastEventId).toBe(2);
    } finally {
      s.app.events.delete(q.id, s.users.cordelia.id);
    }
  });
});
