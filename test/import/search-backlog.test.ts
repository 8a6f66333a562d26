import { afterEach, describe, expect, test } from "bun:test";
import { closeApp, openApp, type App } from "../../src/app";
import { createServer } from "../../src/server";
import { openDb } from "../../src/store/db";
import { startScheduler } from "../../src/scheduler";
import { pendingScanPatterns, searchIndexCaughtUp } from "../../src/actions/messages/search-index";
import { Client, startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { sendStream } from "../helpers/messages";

const BACKLOG = 12_000;
let r: TestServer | null = null;
let app: App | null = null;

afterEach(async () => {
  if (app) await closeApp(app);
  app = null;
  await r?.close();
  r = null;
});

const watermark = async (a: App) =>
  (await a.db.get<{ newest: number; indexed: number }>("SELECT (SELECT max(id) FROM messages) AS newest, (SELECT last_id FROM messages_fts_indexed) AS indexed"))!;

/** A data dir whose newest BACKLOG messages were written straight to the store, unindexed; returns the ids of the words' messages. */
async function withBacklog(): Promise<{ needles: number[]; needless: number }> {
  r = await startServer();
  await createChannel(r, "iago", "Elsinore", { subscribers: ["hamlet"] });
  await sendStream(r, "hamlet", "Elsinore", "ghost", "the undiscovered country");
  await closeApp(r.app);
  const db = await openDb(r.app.config.storage.database);
  const base = (await db.get<Record<string, unknown>>("SELECT realm_id, sender_id, recipient_id, stream_id, date_sent FROM messages WHERE content = 'the undiscovered country'"))!;
  const needles: number[] = [];
  let needless = 0;
  await db.tx(async (sql) => {
    for (let i = 0; i < BACKLOG; i++) {
      const content = i === 5 ? "a needle in the hay" : i === BACKLOG - 3 ? "Needle, found again" : i === 100 ? "needless to say" : `hay bale ${i}`;
      const { lastId } = await sql.run(
        "INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, date_sent) VALUES (?,?,?,?,?,?,?,?)",
        [base.realm_id, base.sender_id, base.recipient_id, base.stream_id, "ghost", content, `<p>${content}</p>`, base.date_sent],
      );
      await sql.run("INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, 0)", [base.sender_id, lastId]);
      if (content.toLowerCase().includes("needle,") || content.includes("needle in")) needles.push(lastId);
      if (i === 100) needless = lastId;
    }
  });
  db.close();
  return { needles, needless };
}

describe("a backlog of unindexed messages", () => {
  test("a search answers correctly before the backlog is indexed, without waiting for it", async () => {
    const { needles, needless } = await withBacklog();
    app = await openApp(r!.app.config, { quiet: true, clock: r!.clock });
    const hamlet = new Client(createServer(app), { email: r!.users.hamlet.email, apiKey: r!.users.hamlet.apiKey });
    const before = await watermark(app);
    expect(before.newest - before.indexed).toBe(BACKLOG);
    const found = (await hamlet.get("/messages", { anchor: "newest", num_before: 20, num_after: 0, narrow: [{ operator: "search", operand: "needle" }] })).success();
    // answered while most of the backlog is still unindexed: the search did not wait for it
    const during = await watermark(app);
    expect(during.newest - during.indexed).toBeGreaterThan(BACKLOG / 2);
    expect(found.messages.map((m: { id: number }) => m.id)).toEqual(needles);
    expect(found.messages.map((m: { id: number }) => m.id)).not.toContain(needless);
    // a negated search sees pending rows too
    const neg = (await hamlet.get("/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "search", operand: "hay", negated: true }] })).success();
    expect(neg.messages.map((m: { content: string }) => m.content)).toContain("<p>Needle, found again</p>");
    expect(neg.messages.map((m: { content: string }) => m.content)).not.toContain("<p>hay bale 11998</p>");

    // the search asked for a background pass: it completes, and the index then answers the same
    await searchIndexCaughtUp(app);
    const after = await watermark(app);
    expect(after.indexed).toBe(after.newest);
    await app.db.run("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')");
    const again = (await hamlet.get("/messages", { anchor: "newest", num_before: 20, num_after: 0, narrow: [{ operator: "search", operand: "needle" }] })).success();
    expect(again.messages.map((m: { id: number }) => m.id)).toEqual(needles);
  }, 60_000);

  test("a start that finds a backlog indexes it in the background, in batches, with no request", async () => {
    await withBacklog();
    app = await openApp(r!.app.config, { quiet: true, clock: r!.clock });
    const started = Date.now();
    startScheduler(app);
    const seen = new Set<number>();
    let state = await watermark(app);
    while (state.indexed < state.newest && Date.now() - started < 30_000) {
      seen.add(state.indexed);
      await Bun.sleep(5);
      state = await watermark(app);
    }
    expect(state.indexed).toBe(state.newest);
    // more than one watermark was seen on the way: it went in batches, not one long transaction
    expect(seen.size).toBeGreaterThan(1);
  }, 60_000);
});

describe("the scan of pending rows", () => {
  test("matches each word of the search as a whole word, case-insensitively", () => {
    expect(pendingScanPatterns('"Needle" "hay stack"')).toEqual(["needle", "hay", "stack"].map((w) => `*[^a-z0-9\u0080-\u{10FFFF}]${w}[^a-z0-9\u0080-\u{10FFFF}]*`));
  });
});
