import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { repollFastPath } from "../../src/routes/events-poll";
import { EventHub } from "../../src/events/hub";
import type { Batch, EventQueue } from "../../src/events/queue";
import { parseFragment } from "../../src/events/wire";

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ heartbeatMs: 200 });
  // the first message and poll compile their code: outside the tests' time limits
  const q = (await s.users.cordelia.client.post("/register", { event_types: ["message"] })).success().queue_id;
  (await s.users.othello.client.post("/messages", { type: "direct", to: [s.users.cordelia.id], content: "warm-up" })).success();
  (await s.users.cordelia.client.get("/events", { queue_id: q, last_event_id: -1, dont_block: true })).success();
}, 30_000);
afterAll(() => s.close());

const register = async () => (await s.users.hamlet.client.post("/register", { event_types: ["message"], fetch_event_types: [] })).success().queue_id as string;
const basic = (email: string, key: string) => "Basic " + btoa(`${email}:${key}`);
/** A GET with exactly this query string, as a client writes it. */
const get = (query: string, path = "/api/v1/events", headers: Record<string, string> = { authorization: basic(s.users.hamlet.email, s.users.hamlet.apiKey) }) =>
  s.server.handle(new Request(`http://parley.test${path}?${query}`, { headers }));

describe("re-polls in their usual form (answered before the framework's routing)", () => {
  test("the usual form and the same re-poll with escaped values get the same events, headers and ids", async () => {
    const q = await register();
    (await s.users.othello.client.post("/messages", { type: "direct", to: [s.users.hamlet.id], content: "one" })).success();
    (await s.users.othello.client.post("/messages", { type: "direct", to: [s.users.hamlet.id], content: "two" })).success();
    const fast = await get(`queue_id=${q}&last_event_id=-1&dont_block=true`);
    // %2D is "-": the same queue id, read by the general parameter reader
    const general = await get(`queue_id=${q.replaceAll("-", "%2D")}&last_event_id=-1&dont_block=true`);
    const [a, b] = [await fast.text(), await general.text()];
    expect(a).toBe(b);
    const body = JSON.parse(a);
    expect(body.events.map((e: any) => [e.id, e.type, e.message.content])).toEqual([
      [0, "message", "one"],
      [1, "message", "two"],
    ]);
    const headerList = (r: Response) => [...(r.headers as unknown as Iterable<[string, string]>)].sort();
    expect(headerList(fast)).toEqual(headerList(general));
    for (const r of [fast, general]) {
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("application/json");
      expect(r.headers.get("cache-control")).toBe("no-store, no-cache, must-revalidate, max-age=0");
    }
    // acknowledged by the usual form: pruned for both
    (await get(`last_event_id=1&queue_id=${q}&dont_block=true`)).ok;
    expect(JSON.parse(await (await get(`queue_id=${q}&last_event_id=1&dont_block=true`)).text()).events).toEqual([]);
    expect(s.app.events.get(q, s.users.hamlet.id).newestPrunedId).toBe(1);
  });

  test("only the usual form is taken: other parameters, escapes, repeated keys, a body, other methods and paths go the general way", () => {
    const fast = repollFastPath(s.app, () => undefined);
    const q = "0b7a4f8e-2c1d-4e5f-9a6b-7c8d9e0f1a2b";
    const req = (query: string, init: RequestInit = {}, path = "/api/v1/events") => new Request(`http://parley.test${path}${query}`, init);
    const taken = (r: Request) => {
      const p = fast(r);
      p?.catch(() => {}); // (an unknown queue: answered with an error, not looked at here)
      return p !== null;
    };
    expect(taken(req(`?queue_id=${q}&last_event_id=3`))).toBe(true);
    expect(taken(req(`?queue_id=${q}&last_event_id=3&dont_block=false&client=website`))).toBe(true);
    expect(taken(req(`?queue_id=${q}&last_event_id=3`, {}, "/json/events"))).toBe(true);
    for (const query of [
      "",
      `?queue_id=${q}`,
      `?queue_id=${q}&last_event_id=3&apply_markdown=true`,
      `?queue_id=${q}&last_event_id=03`,
      `?queue_id=${q}&last_event_id=3&dont_block=1`,
      `?queue_id=${q}&last_event_id=3&last_event_id=4`,
      `?queue_id=${q.replace("-", "%2D")}&last_event_id=3`,
      `?queue_id=${q}&last_event_id=3&client=Zulip%20Terminal`,
      `?queue_id=${q}&last_event_id=3#x`,
      `?queue_id=${q}&last_event_id`,
    ]) {
      expect(taken(req(query))).toBe(false);
    }
    expect(taken(req(`?queue_id=${q}&last_event_id=3`, { method: "POST" }))).toBe(false);
    expect(taken(req(`?queue_id=${q}&last_event_id=3`, { method: "POST", body: "dont_block=true" }))).toBe(false);
    expect(taken(req(`?queue_id=${q}&last_event_id=3`, {}, "/api/v1/events/x"))).toBe(false);
    expect(taken(req(`?queue_id=${q}&last_event_id=3`, {}, "/api/v1/register"))).toBe(false);
  });

  test("its failures are Zulip's errors: another user's or an unknown queue, a pruned id, a wrong key (Basic challenge), no session under /json (Session challenge)", async () => {
    const q = await register();
    const othello = { authorization: basic(s.users.othello.email, s.users.othello.apiKey) };
    const asJson = async (r: Response) => [r.status, await r.json()] as const;
    expect(await asJson(await get(`queue_id=${q}&last_event_id=-1&dont_block=true`, "/api/v1/events", othello))).toEqual([
      400,
      { result: "error", msg: "Bad event queue ID: " + q, code: "BAD_EVENT_QUEUE_ID", queue_id: q },
    ]);
    const unknown = "0b7a4f8e-2c1d-4e5f-9a6b-7c8d9e0f1a2b";
    expect((await asJson(await get(`queue_id=${unknown}&last_event_id=-1`)))[1].code).toBe("BAD_EVENT_QUEUE_ID");
    expect(await asJson(await get(`queue_id=${q}&last_event_id=5&dont_block=true`))).toEqual([400, { result: "error", msg: "Event 5 was not in this queue", code: "BAD_REQUEST" }]);

    const wrong = await get(`queue_id=${q}&last_event_id=-1`, "/api/v1/events", { authorization: basic(s.users.hamlet.email, "x".repeat(32)) });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).code).toBe("UNAUTHORIZED");
    expect(wrong.headers.get("www-authenticate")).toBe('Basic realm="zulip"');
    const noSession = await get(`queue_id=${q}&last_event_id=-1`, "/json/events", {});
    expect(noSession.status).toBe(401);
    expect(noSession.headers.get("www-authenticate")).toBe('Session realm="zulip"');
    // none of it touched the queue
    expect(s.app.events.get(q, s.users.hamlet.id).connected).toBe(false);
  });

  test("a parked re-poll is answered by the next event, after the send that caused it has its own answer", async () => {
    const q = await register();
    const order: string[] = [];
    const parked = get(`queue_id=${q}&last_event_id=-1`).then(async (r) => {
      order.push("poll");
      return r.json();
    });
    await Bun.sleep(5);
    expect(s.app.events.get(q, s.users.hamlet.id).connected).toBe(true);
    const sent = await s.users.othello.client.post("/messages", { type: "direct", to: [s.users.hamlet.id], content: "wake up" });
    order.push("send");
    const body = await parked;
    expect(order).toEqual(["send", "poll"]);
    expect(body.events.map((e: any) => [e.type, e.message.id, e.message.content])).toEqual([["message", sent.success().id, "wake up"]]);
  });
});

describe("parked polls in the event hub", () => {
  let heartbeatMs = 300;
  const hub = () => new EventHub(() => Date.now(), { idleSecs: 600, heartbeatMs: () => heartbeatMs, emptyTopicName: () => "general chat" });
  const open = (h: EventHub, userId: number) =>
    h.register({ userId, eventTypes: null, applyMarkdown: false, clientGravatar: true, allPublicStreams: false, narrow: [], capabilities: {}, lifespanSecs: 0, clientName: "test" });
  const events = (b: Batch) => b.fragments.map((f, i) => parseFragment(f, b.firstId + i));

  test("the events published in one turn reach a parked poll in one answer, and every woken poll is answered after that turn", async () => {
    const h = hub();
    const [a, b] = [open(h, 1), open(h, 2)];
    const polls = [h.poll(a, -1, false), h.poll(b, -1, false)];
    h.publish({ type: "alert_words", alert_words: ["a"] }, [1, 2]);
    h.publish({ type: "attachment", op: "add" }, [1]);
    // not yet: answered after this turn
    expect(a.connected && b.connected).toBe(true);
    const [ba, bb] = await Promise.all(polls);
    expect(events(ba)).toEqual([
      { type: "alert_words", alert_words: ["a"], id: 0 },
      { type: "attachment", op: "add", id: 1 },
    ]);
    expect(events(bb)).toEqual([{ type: "alert_words", alert_words: ["a"], id: 0 }]);
    expect(a.connected || b.connected).toBe(false);
  });

  test("a poll that replaced a woken one before its answer keeps waiting for its own event", async () => {
    const h = hub();
    const q = open(h, 1);
    const first = h.poll(q, -1, false);
    h.publish({ type: "alert_words", alert_words: ["a"] }, [1]);
    // the same queue polled again at once, acknowledging the event: the older poll is answered now
    const second = h.poll(q, 0, false);
    expect(events(await first)).toEqual([]);
    await new Promise((r) => setImmediate(r));
    await Bun.sleep(5);
    expect(q.connected).toBe(true);
    h.publish({ type: "attachment", op: "remove" }, [1]);
    expect(events(await second)).toEqual([{ type: "attachment", op: "remove", id: 1 }]);
  });

  test("one timer serves every parked poll's heartbeat, in order even when a shorter interval comes after a longer one", async () => {
    const h = hub();
    const queues: EventQueue[] = [open(h, 1), open(h, 2), open(h, 3)];
    const answered: [number, number][] = [];
    const t0 = performance.now();
    const park = (q: EventQueue, i: number) => h.poll(q, q.lastEventId, false).then((b) => {
        answered.push([i, performance.now() - t0]);
        return b;
      });
    heartbeatMs = 300;
    const slow = park(queues[0]!, 0);
    heartbeatMs = 60;
    const fast = park(queues[1]!, 1);
    // answered by an event well before its heartbeat: no heartbeat comes for it later
    heartbeatMs = 100;
    const woken = park(queues[2]!, 2);
    h.publish({ type: "alert_words", alert_words: ["a"] }, [3]);
    expect(events(await woken)).toEqual([{ type: "alert_words", alert_words: ["a"], id: 0 }]);
    expect(events(await fast)).toEqual([{ type: "heartbeat", id: 0 }]);
    expect(events(await slow)).toEqual([{ type: "heartbeat", id: 0 }]);
    expect(answered.map(([i]) => i)).toEqual([2, 1, 0]);
    expect(answered[1]![1]).toBeGreaterThanOrEqual(58);
    expect(answered[2]![1]).toBeGreaterThanOrEqual(298);
    expect(queues[2]!.size).toBe(1); // only its event: no heartbeat was queued after it
    heartbeatMs = 300;
  });
});
