import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { holdersOf, messageRow } from "../helpers/messages";
import { writeMessage } from "../../src/actions/messages/writer";
import type { Sql } from "../../src/store/db";

let s: TestServer;
let elsinore: number;
beforeAll(async () => {
  s = await startServer();
  elsinore = await createChannel(s, "iago", "Elsinore", { subscribers: ["hamlet", "othello", "cordelia"] });
});
afterAll(() => s.close());

/** Counts the write transactions started while fn runs. */
async function countingTransactions<T>(fn: () => Promise<T>): Promise<{ out: T; transactions: number }> {
  const db = s.app.db;
  const tx = db.tx;
  let transactions = 0;
  db.tx = (f) => (transactions++, tx(f));
  try {
    return { out: await fn(), transactions };
  } finally {
    db.tx = tx;
  }
}

const post = (content: string) => s.users.hamlet.client.post("/messages", { type: "stream", to: "Elsinore", topic: "batch", content } as any);

describe("concurrent sends (the group-commit writer)", () => {
  test("share write transactions, each getting its own id and rows", async () => {
    const { out, transactions } = await countingTransactions(() => Promise.all(Array.from({ length: 12 }, (_, i) => post(`wave ${i}`))));
    const ids = out.map((r) => r.success().id as number);
    expect(new Set(ids).size).toBe(12);
    expect(transactions).toBeLessThan(12);
    const subscribers = [s.users.iago.id, s.users.hamlet.id, s.users.othello.id, s.users.cordelia.id].sort((a, b) => a - b);
    for (const [i, id] of ids.entries()) {
      expect(await messageRow(s, id)).toMatchObject({ content: `wave ${i}`, stream_id: elsinore, topic: "batch" });
      expect(await holdersOf(s, id)).toEqual(subscribers);
    }
  });

  test("a send that fails inside a shared batch fails alone; the others are stored", async () => {
    const template = (await messageRow(s, (await post("template")).success().id))!;
    const { id: _id, ...row } = template;
    const failing = writeMessage(s.app, {
      row: { ...row, content: "doomed" } as any,
      recipients: [{ userId: s.users.hamlet.id, flags: 0 }],
      after: async () => {
        throw new Error("after-hook failure");
      },
    });
    const fine = Array.from({ length: 4 }, (_, i) =>
      writeMessage(s.app, {
        row: { ...row, content: `survivor ${i}` } as any,
        recipients: [{ userId: s.users.othello.id, flags: 0 }],
        after: async (sql: Sql, id: number) => (await sql.get<{ content: string }>("SELECT content FROM messages WHERE id = ?", [id]))!.content,
      }),
    );
    await expect(failing).rejects.toThrow("after-hook failure");
    const done = await Promise.all(fine);
    expect(done.map((d) => d.extra)).toEqual(["survivor 0", "survivor 1", "survivor 2", "survivor 3"]);
    for (const d of done) expect(await holdersOf(s, d.id)).toEqual([s.users.othello.id]);
    expect(await s.app.db.get("SELECT id FROM messages WHERE content = 'doomed'")).toBeUndefined();
    expect(await s.app.db.get("SELECT 1 AS x FROM user_messages WHERE message_id > ? AND user_id = ?", [Math.max(...done.map((d) => d.id)), s.users.hamlet.id])).toBeUndefined();
  });

  test("after a burst, a lone send commits in a transaction of its own", async () => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => post(`burst ${i}`)));
    const { out, transactions } = await countingTransactions(() => post("alone"));
    expect(transactions).toBe(1);
    expect(await messageRow(s, out.success().id)).toMatchObject({ content: "alone" });
  });
});

describe("concurrent first sends to a new topic", () => {
  test("only the sender of the topic's first message follows it (automatically, on initiation)", async () => {
    const senders = ["hamlet", "othello", "cordelia", "iago"] as const;
    const answers = await Promise.all(
      senders.map((name) => s.users[name].client.post("/messages", { type: "stream", to: "Elsinore", topic: "a fresh topic", content: `first from ${name}` } as any)),
    );
    const sent = answers.map((r, i) => ({ name: senders[i]!, body: r.success() }));
    const first = sent.reduce((a, b) => (b.body.id < a.body.id ? b : a));
    for (const x of sent) {
      if (x === first) expect(x.body.automatic_new_visibility_policy).toBe(3);
      else expect(x.body.automatic_new_visibility_policy).toBeUndefined();
    }
    const rows = await s.app.db.all<{ user_id: number; visibility_policy: number }>("SELECT user_id, visibility_policy FROM user_topics WHERE stream_id = ? AND topic = ?", [elsinore, "a fresh topic"]);
    expect(rows).toEqual([{ user_id: s.users[first.name].id, visibility_policy: 3 }]);
  });
});
