import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { messageRow, sendStream } from "../helpers/messages";

let s: TestServer;
let denmark: number;
const TRACKER = { pattern: "#(?P<id>[0-9]+)", url_template: "https://tracker.example/{id}" };
const bug42 = [{ text: "#42", url: "https://tracker.example/42" }];

beforeAll(async () => {
  s = await startServer();
  denmark = await createChannel(s, "iago", "Denmark", { subscribers: ["hamlet", "othello", "cordelia"] });
  (await s.users.iago.client.post("/realm/filters", TRACKER)).success();
});
afterAll(() => s.close());

describe("linkifiers in message content", () => {
  test("a sent message renders the organization's linkifiers as Zulip's anchors", async () => {
    const id = await sendStream(s, "hamlet", "Denmark", "tracker", "see #42, not `#43`");
    const row = await messageRow(s, id);
    expect(row!.rendered_content).toBe('<p>see <a href="https://tracker.example/42">#42</a>, not <code>#43</code></p>');
    expect(row!.has_link).toBe(1);
  });

  test("POST /messages/render and content edits use them too", async () => {
    const r = (await s.users.hamlet.client.post("/messages/render", { content: "see #7" })).success();
    expect(r.rendered).toBe('<p>see <a href="https://tracker.example/7">#7</a></p>');
    const id = await sendStream(s, "hamlet", "Denmark", "tracker", "plain");
    (await s.users.hamlet.client.patch(`/messages/${id}`, { content: "now #8" })).success();
    expect((await messageRow(s, id))!.rendered_content).toBe('<p>now <a href="https://tracker.example/8">#8</a></p>');
  });

  test("a linkifier added later applies to messages sent after it", async () => {
    (await s.users.iago.client.post("/realm/filters", { pattern: "PR(?P<n>[0-9]+)", url_template: "https://pr.example/{n}" })).success();
    const id = await sendStream(s, "hamlet", "Denmark", "tracker", "PR5");
    expect((await messageRow(s, id))!.rendered_content).toBe('<p><a href="https://pr.example/5">PR5</a></p>');
  });
});

describe("topic_links", () => {
  test("message events carry the topic's links with the organization's linkifiers", async () => {
    let id = 0;
    const ev = await s.captureEvents(async () => {
      id = await sendStream(s, "hamlet", "Denmark", "bug #42", "broken");
    });
    for (const who of ["hamlet", "othello", "cordelia"] as const) {
      const m = ev.of(who).find((e) => e.type === "message")! as any;
      expect(m.message.id).toBe(id);
      expect(m.message.topic_links).toEqual(bug42);
    }
  });

  test("GET /messages and GET /messages/{id} carry them", async () => {
    const id = await sendStream(s, "hamlet", "Denmark", "bug #42", "still broken");
    const got = (
      await s.users.othello.client.get("/messages", { anchor: id, num_before: 0, num_after: 0, narrow: [{ operator: "channel", operand: denmark }] })
    ).success();
    expect(got.messages).toHaveLength(1);
    expect(got.messages[0].topic_links).toEqual(bug42);
    expect((await s.users.othello.client.get(`/messages/${id}`)).success().message.topic_links).toEqual(bug42);
    // Direct messages have none.
    const dm = (await s.users.hamlet.client.post("/messages", { type: "direct", to: JSON.stringify([s.users.othello.id]), content: "#42" })).success().id;
    expect((await s.users.othello.client.get(`/messages/${dm}`)).success().message.topic_links).toEqual([]);
  });

  test("a topic move's update_message event carries the new topic's links", async () => {
    const id = await sendStream(s, "hamlet", "Denmark", "some bug", "it is broken");
    const ev = await s.captureEvents(async () => {
      (await s.users.hamlet.client.patch(`/messages/${id}`, { topic: "bug #42 at https://example.com/x", propagate_mode: "change_one" })).success();
    });
    for (const who of ["hamlet", "othello", "cordelia"] as const) {
      const u = ev.of(who).find((e) => e.type === "update_message")!;
      expect(u.subject).toBe("bug #42 at https://example.com/x");
      expect(u.topic_links).toEqual([...bug42, { text: "https://example.com/x", url: "https://example.com/x" }]);
    }
  });

  test("a removed linkifier no longer links topics", async () => {
    const list = (await s.users.iago.client.get("/realm/linkifiers")).success().linkifiers as { id: number; pattern: string }[];
    const tracker = list.find((l) => l.pattern === TRACKER.pattern)!;
    (await s.users.iago.client.delete(`/realm/filters/${tracker.id}`)).success();
    try {
      const id = await sendStream(s, "hamlet", "Denmark", "bug #42", "again");
      expect((await s.users.othello.client.get(`/messages/${id}`)).success().message.topic_links).toEqual([]);
      expect((await messageRow(s, id))!.rendered_content).toBe("<p>again</p>");
    } finally {
      (await s.users.iago.client.post("/realm/filters", TRACKER)).success();
    }
  });
});
