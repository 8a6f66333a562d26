import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { queueEvents, registerQueue } from "../helpers/messages";

// Clients without the empty_topic_name capability see the organization's empty_topic_display_name
// wherever a topic appears, in /register and in events alike (Zulip FL 334).
let s: TestServer;
let verona: number;
beforeAll(async () => {
  s = await startServer();
  verona = await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello"] });
  (await s.users.iago.client.patch("/realm", { empty_topic_display_name: "lobby" })).success();
});
afterAll(() => s.close());

const register = async (withCapability: boolean, event_types: string[]) =>
  (
    await s.users.othello.client.post("/register", {
      event_types,
      client_capabilities: { empty_topic_name: withCapability, user_settings_object: true },
    } as any)
  ).success();

describe("the empty topic for clients without empty_topic_name", () => {
  test("user_topics, muted_topics and unread topics in /register use the organization's name", async () => {
    (await s.users.othello.client.post("/user_topics", { stream_id: verona, topic: "", visibility_policy: 1 })).success();
    (await s.users.hamlet.client.post("/messages", { type: "stream", to: verona, topic: "", content: "hi" })).success();
    // muted_topics is sent only to clients that do not ask for user_topic as well
    const old = await register(false, ["user_topic", "message", "update_message_flags"]);
    expect(old.user_topics).toEqual([expect.objectContaining({ stream_id: verona, topic_name: "lobby", visibility_policy: 1 })]);
    const unreadTopics = (state: any) => state.unread_msgs.streams.filter((x: any) => x.stream_id === verona).map((x: any) => x.topic);
    expect(unreadTopics(old)).toEqual(["channel events", "lobby"]);
    expect((await register(false, ["muted_topics"])).muted_topics).toEqual([["Verona", "lobby", expect.any(Number)]]);
    const current = await register(true, ["user_topic", "message", "update_message_flags"]);
    expect(current.user_topics).toEqual([expect.objectContaining({ stream_id: verona, topic_name: "", visibility_policy: 1 })]);
    expect(unreadTopics(current)).toEqual(["channel events", ""]);
    expect((await register(true, ["muted_topics"])).muted_topics).toEqual([["Verona", "", expect.any(Number)]]);
    (await s.users.othello.client.post("/user_topics", { stream_id: verona, topic: "", visibility_policy: 0 })).success();
  });

  test("message, user_topic, muted_topics and unread events use the organization's current name", async () => {
    const old = await registerQueue(s, "othello", { client_capabilities: { empty_topic_name: false }, event_types: ["message", "user_topic", "muted_topics", "update_message_flags"] });
    const current = await registerQueue(s, "othello", { client_capabilities: { empty_topic_name: true }, event_types: ["message", "user_topic", "muted_topics", "update_message_flags"] });
    const { id } = (await s.users.hamlet.client.post("/messages", { type: "stream", to: verona, topic: "", content: "again" })).success();
    (await s.users.othello.client.post("/messages/flags", { messages: [id], op: "add", flag: "read" })).success();
    (await s.users.othello.client.post("/messages/flags", { messages: [id], op: "remove", flag: "read" })).success();
    (await s.users.othello.client.post("/user_topics", { stream_id: verona, topic: "", visibility_policy: 1 })).success();

    const summary = (events: any[]) =>
      events.map((e) => {
        if (e.type === "message") return ["message", e.message.subject];
        if (e.type === "user_topic") return ["user_topic", e.topic_name];
        if (e.type === "muted_topics") return ["muted_topics", e.muted_topics.map((m: any[]) => m[1])];
        return [`flags ${e.op}`, e.message_details ? Object.values(e.message_details).map((d: any) => d.topic) : null];
      });
    // muted_topics events go only to queues that did not ask for user_topic as well
    expect(summary(await queueEvents(s, "othello", old))).toEqual([
      ["message", "lobby"],
      ["flags add", null],
      ["flags remove", ["lobby"]],
      ["user_topic", "lobby"],
    ]);
    expect(summary(await queueEvents(s, "othello", current))).toEqual([
      ["message", ""],
      ["flags add", null],
      ["flags remove", [""]],
      ["user_topic", ""],
    ]);
    const legacy = await registerQueue(s, "othello", { client_capabilities: { empty_topic_name: false }, event_types: ["muted_topics"] });
    (await s.users.othello.client.post("/user_topics", { stream_id: verona, topic: "", visibility_policy: 0 })).success();
    (await s.users.othello.client.post("/user_topics", { stream_id: verona, topic: "", visibility_policy: 1 })).success();
    expect(summary(await queueEvents(s, "othello", legacy))).toEqual([
      ["muted_topics", []],
      ["muted_topics", ["lobby"]],
    ]);
  });

  test("renaming the empty topic changes what new events say", async () => {
    const old = await registerQueue(s, "othello", { client_capabilities: { empty_topic_name: false }, event_types: ["message"] });
    (await s.users.iago.client.patch("/realm", { empty_topic_display_name: "hallway" })).success();
    (await s.users.hamlet.client.post("/messages", { type: "stream", to: verona, topic: "", content: "renamed" })).success();
    expect((await queueEvents(s, "othello", old)).map((e) => e.message.subject)).toEqual(["hallway"]);
    (await s.users.iago.client.patch("/realm", { empty_topic_display_name: "lobby" })).success();
  });
});
