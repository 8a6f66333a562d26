import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { queueEvents, registerQueue } from "../helpers/messages";

let s: TestServer;
let verona: number;
beforeAll(async () => {
  s = await startServer();
  verona = await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello"] });
});
afterAll(() => s.close());

describe("POST /typing", () => {
  test("direct: the participants (sender included) get typing start and stop", async () => {
    const ev = await s.captureEvents(async () => {
      (await s.users.hamlet.client.post("/typing", { op: "start", to: [s.users.othello.id] })).success();
      (await s.users.hamlet.client.post("/typing", { type: "direct", op: "stop", to: [s.users.othello.id] })).success();
    });
    const sender = { user_id: s.users.hamlet.id, email: "hamlet@zulip.com" };
    const recipients = [
      { user_id: s.users.othello.id, email: "othello@zulip.com" },
      { user_id: s.users.hamlet.id, email: "hamlet@zulip.com" },
    ];
    expect(ev.of("othello")).toEqual([
      { type: "typing", op: "start", message_type: "direct", sender, recipients },
      { type: "typing", op: "stop", message_type: "direct", sender, recipients },
    ]);
    expect(ev.of("hamlet")).toHaveLength(2);
    expect(ev.of("cordelia")).toEqual([]);
  });

  test("channel topics notify subscribers whose clients asked for channel typing notifications", async () => {
    const legacy = await registerQueue(s, "othello", { event_types: ["typing"] });
    const modern = await registerQueue(s, "othello", { event_types: ["typing"], client_capabilities: { stream_typing_notifications: true } });
    (await s.users.hamlet.client.post("/typing", { type: "stream", op: "start", stream_id: verona, topic: "plans" })).success();
    expect(await queueEvents(s, "othello", legacy)).toEqual([]);
    expect(await queueEvents(s, "othello", modern)).toEqual([
      { id: 0, type: "typing", op: "start", message_type: "stream", sender: { user_id: s.users.hamlet.id, email: "hamlet@zulip.com" }, stream_id: verona, topic: "plans" },
    ]);
  });

  test("bad requests are refused", async () => {
    (await s.users.hamlet.client.post("/typing", { op: "start" })).error("Missing 'to' argument");
    (await s.users.hamlet.client.post("/typing", { op: "start", to: [] })).error("Empty 'to' list");
    (await s.users.hamlet.client.post("/typing", { op: "start", to: [99999] })).error("Invalid user ID 99999");
    (await s.users.hamlet.client.post("/typing", { op: "pause", to: [s.users.othello.id] })).error("Invalid op");
    (await s.users.hamlet.client.post("/typing", { type: "stream", op: "start", topic: "x" })).error("Missing 'stream_id' argument");
    (await s.users.hamlet.client.post("/typing", { type: "stream", op: "start", stream_id: verona })).error("Missing topic");
    const secret = await createChannel(s, "iago", "Secret", { invite_only: true });
    (await s.users.hamlet.client.post("/typing", { type: "stream", op: "start", stream_id: secret, topic: "x" })).error("Invalid channel ID");
  });
});

describe("typing settings", () => {
  test("users who turned typing notifications off neither send nor receive them", async () => {
    const setPref = async (who: "hamlet" | "othello", prefs: Record<string, boolean>) => {
      const row = await s.app.db.get<{ settings: string }>("SELECT settings FROM users WHERE id = ?", [s.users[who].id]);
      await s.app.db.run("UPDATE users SET settings = ? WHERE id = ?", [JSON.stringify({ ...JSON.parse(row!.settings || "{}"), ...prefs }), s.users[who].id]);
    };
    await setPref("othello", { receives_typing_notifications: false });
    const ev = await s.captureEvents(async () => {
      (await s.users.hamlet.client.post("/typing", { op: "start", to: [s.users.othello.id] })).success();
    });
    expect(ev.of("othello")).toEqual([]);
    expect(ev.of("hamlet")).toHaveLength(1);
    await setPref("othello", { receives_typing_notifications: true });
    await setPref("hamlet", { send_private_typing_notifications: false, send_stream_typing_notifications: false });
    (await s.users.hamlet.client.post("/typing", { op: "start", to: [s.users.othello.id] })).error("User has disabled typing notifications for direct messages");
    (await s.users.hamlet.client.post("/typing", { type: "stream", op: "start", stream_id: verona, topic: "x" })).error("User has disabled typing notifications for channel messages");
  });
});
