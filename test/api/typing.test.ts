import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, CAST, type CastName, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { queueEvents, registerQueue } from "../helpers/messages";
import { makeUser } from "../helpers/people";
import { systemGroup } from "../helpers/invite-fixtures";
import { emptyTopicName } from "../../src/actions/messages/render";
import { MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS } from "../../src/actions/messages/typing";

let s: TestServer;
let verona: number;
beforeAll(async () => {
  s = await startServer();
  verona = await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello", "polonius"] });
});
afterAll(() => s.close());

const typing = (who: CastName, params: Record<string, unknown>) => s.users[who].client.post("/typing", params as any);
const person = (who: CastName) => ({ user_id: s.users[who].id, email: s.users[who].email });
const ALL = Object.keys(CAST) as CastName[];
const recipients = (ev: Awaited<ReturnType<TestServer["captureEvents"]>>) => ALL.filter((n) => ev.of(n).length > 0).sort();

async function setPrefs(who: CastName, prefs: Record<string, boolean>) {
  (await s.users[who].client.patch("/settings", prefs)).success();
}

describe("POST /typing: direct messages", () => {
  test("start and stop reach the participants, the sender included, with every recipient listed", async () => {
    let r: any;
    const ev = await s.captureEvents(async () => {
      r = (await typing("hamlet", { op: "start", to: [s.users.othello.id] })).success();
      (await typing("hamlet", { type: "direct", op: "stop", to: [s.users.othello.id] })).success();
    });
    expect(r).toEqual({ result: "success", msg: "" });
    const recipientsList = [person("othello"), person("hamlet")];
    const expected = [
      { type: "typing", op: "start", message_type: "direct", sender: person("hamlet"), recipients: recipientsList },
      { type: "typing", op: "stop", message_type: "direct", sender: person("hamlet"), recipients: recipientsList },
    ];
    expect(ev.of("othello")).toEqual(expected);
    expect(ev.of("hamlet")).toEqual(expected);
    expect(recipients(ev)).toEqual(["hamlet", "othello"]);
  });

  test("a group conversation lists everyone once; typing to oneself reaches only oneself", async () => {
    const ev = await s.captureEvents(async () => {
      (await typing("hamlet", { op: "start", to: [s.users.othello.id, s.users.cordelia.id, s.users.hamlet.id, s.users.othello.id] })).success();
    });
    expect(ev.of("cordelia")).toEqual([
      { type: "typing", op: "start", message_type: "direct", sender: person("hamlet"), recipients: [person("othello"), person("cordelia"), person("hamlet")] },
    ]);
    expect(recipients(ev)).toEqual(["cordelia", "hamlet", "othello"]);
    const self = await s.captureEvents(async () => {
      (await typing("hamlet", { op: "start", to: [s.users.hamlet.id] })).success();
    });
    expect(recipients(self)).toEqual(["hamlet"]);
    expect(self.of("hamlet")[0]).toMatchObject({ recipients: [person("hamlet")] });
  });

  test("deactivated users are listed but get no event", async () => {
    const gone = await makeUser(s, "Yorick");
    (await s.users.iago.client.delete(`/users/${gone.id}`)).success();
    const ev = await s.captureEvents(async () => {
      (await typing("hamlet", { op: "start", to: [s.users.othello.id, gone.id] })).success();
    });
    expect(ev.of("othello")[0]).toMatchObject({ recipients: [person("othello"), { user_id: gone.id, email: gone.email }, person("hamlet")] });
    expect(ev.ofUser(gone.id)).toEqual([]);
  });

  test("bad requests are refused without events", async () => {
    const ev = await s.captureEvents(async () => {
      (await typing("hamlet", { op: "start" })).error("Missing 'to' argument", "BAD_REQUEST", 400);
      (await typing("hamlet", { op: "start", to: [] })).error("Empty 'to' list", "BAD_REQUEST", 400);
      (await typing("hamlet", { op: "start", to: [99999] })).error("Invalid user ID 99999", "BAD_REQUEST", 400);
      (await typing("hamlet", { op: "start", to: [s.users.othello.id, 99999] })).error("Invalid user ID 99999", "BAD_REQUEST", 400);
      (await typing("hamlet", { op: "start", to: "othello" })).error("to is not valid JSON", "BAD_REQUEST", 400);
      (await typing("hamlet", { op: "pause", to: [s.users.othello.id] })).error("Invalid op", "BAD_REQUEST", 400);
      (await typing("hamlet", { to: [s.users.othello.id] })).error("Missing 'op' argument", "REQUEST_VARIABLE_MISSING", 400);
      // "private" was retired in Zulip 8.0 (feature level 215).
      (await typing("hamlet", { type: "private", op: "start", to: [s.users.othello.id] })).error("Invalid type", "BAD_REQUEST", 400);
    });
    expect(ev.types()).toEqual([]);
  });
});

describe("POST /typing: channels", () => {
  test("a topic's typing reaches the channel's subscribers (sender included), by type stream or channel", async () => {
    const ev = await s.captureEvents(async () => {
      (await typing("hamlet", { type: "stream", op: "start", stream_id: verona, topic: "plans" })).success();
      (await typing("hamlet", { type: "channel", op: "stop", stream_id: verona, topic: "  plans  " })).success();
    });
    const expected = [
      { type: "typing", op: "start", message_type: "stream", sender: person("hamlet"), stream_id: verona, topic: "plans" },
      { type: "typing", op: "stop", message_type: "stream", sender: person("hamlet"), stream_id: verona, topic: "plans" },
    ];
    for (const who of ["hamlet", "othello", "iago", "polonius"] as const) expect(ev.of(who)).toEqual(expected);
    expect(recipients(ev)).toEqual(["hamlet", "iago", "othello", "polonius"]);
  });

  test("anyone who may post may type in a public channel they are not subscribed to; the event goes to its subscribers", async () => {
    const ev = await s.captureEvents(async () => {
      (await typing("cordelia", { type: "channel", op: "start", stream_id: verona, topic: "visitor" })).success();
    });
    expect(recipients(ev)).toEqual(["hamlet", "iago", "othello", "polonius"]);
    expect(ev.of("hamlet")[0]).toMatchObject({ sender: person("cordelia") });
  });

  test("only clients that declared stream_typing_notifications get channel typing; the empty topic is '' for those that support it", async () => {
    const legacy = await registerQueue(s, "othello", { event_types: ["typing"] });
    const modern = await registerQueue(s, "othello", { event_types: ["typing"], client_capabilities: { stream_typing_notifications: true, empty_topic_name: true } });
    const older = await registerQueue(s, "othello", { event_types: ["typing"], client_capabilities: { stream_typing_notifications: true } });
    (await typing("hamlet", { type: "stream", op: "start", stream_id: verona, topic: "(no topic)" })).success();
    (await typing("hamlet", { type: "stream", op: "stop", stream_id: verona, topic: emptyTopicName(s.app) })).success();
    expect(await queueEvents(s, "othello", legacy)).toEqual([]);
    const sender = person("hamlet");
    expect(await queueEvents(s, "othello", modern)).toEqual([
      { id: 0, type: "typing", op: "start", message_type: "stream", sender, stream_id: verona, topic: "" },
      { id: 1, type: "typing", op: "stop", message_type: "stream", sender, stream_id: verona, topic: "" },
    ]);
    expect((await queueEvents(s, "othello", older)).map((e) => e.topic)).toEqual([emptyTopicName(s.app), emptyTopicName(s.app)]);
  });

  test("channels one may not read or post in are refused", async () => {
    const secret = await createChannel(s, "iago", "Secret", { invite_only: true });
    const quiet = await createChannel(s, "iago", "Announcements", { subscribers: ["hamlet"], extra: { can_send_message_group: systemGroup(s, "role:administrators") } });
    const guestless = await createChannel(s, "iago", "Members only", { subscribers: ["hamlet"] });
    const attic = await createChannel(s, "iago", "Attic", { subscribers: ["hamlet"] });
    (await s.users.iago.client.delete(`/streams/${attic}`)).success();
    const ev = await s.captureEvents(async () => {
      (await typing("hamlet", { type: "stream", op: "start", stream_id: secret, topic: "x" })).error("Invalid channel ID", "BAD_REQUEST", 400);
      (await typing("hamlet", { type: "stream", op: "start", stream_id: 99999, topic: "x" })).error("Invalid channel ID", "BAD_REQUEST", 400);
      (await typing("polonius", { type: "stream", op: "start", stream_id: guestless, topic: "x" })).error("Invalid channel ID", "BAD_REQUEST", 400);
      (await typing("hamlet", { type: "stream", op: "start", stream_id: attic, topic: "x" })).error("Invalid channel ID", "BAD_REQUEST", 400);
      (await typing("hamlet", { type: "stream", op: "start", stream_id: quiet, topic: "x" })).error("You do not have permission to post in this channel.", "BAD_REQUEST", 400);
    });
    expect(ev.types()).toEqual([]);
    (await typing("iago", { type: "stream", op: "start", stream_id: quiet, topic: "x" })).success();
  });

  test("missing stream_id or topic are refused", async () => {
    (await typing("hamlet", { type: "stream", op: "start", topic: "x" })).error("Missing 'stream_id' argument", "BAD_REQUEST", 400);
    (await typing("hamlet", { type: "channel", op: "start", stream_id: verona })).error("Missing topic", "BAD_REQUEST", 400);
    (await typing("hamlet", { type: "channel", op: "start", stream_id: "Verona", topic: "x" })).error("stream_id is not valid JSON", "BAD_REQUEST", 400);
  });

  test(`channels with more than ${MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS} subscribers get no typing notifications`, async () => {
    // Iago and Hamlet, then filled up to the limit.
    const crowd = await createChannel(s, "iago", "Crowd", { subscribers: ["hamlet"] });
    const realm = s.app.realm!.id;
    for (let i = 0; i < MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS - 2; i++) {
      const { lastId } = await s.app.db.run(
        "INSERT INTO users (realm_id, email, delivery_email, full_name, role, api_key, date_joined, recipient_id) VALUES (?, ?, ?, ?, 400, ?, 0, NULL)",
        [realm, `crowd${i}@zulip.com`, `crowd${i}@zulip.com`, `Crowd ${i}`, `key${String(i).padStart(29, "0")}`],
      );
      await s.app.db.run("INSERT INTO subscriptions (user_id, stream_id, color) VALUES (?, ?, '#76ce90')", [lastId, crowd]);
    }
    const atLimit = await s.captureEvents(async () => {
      (await typing("hamlet", { type: "stream", op: "start", stream_id: crowd, topic: "x" })).success();
    });
    expect(atLimit.of("hamlet")).toHaveLength(1);
    await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Crowd" }], principals: [s.users.othello.id] });
    const over = await s.captureEvents(async () => {
      (await typing("hamlet", { type: "stream", op: "start", stream_id: crowd, topic: "x" })).success();
    });
    expect(over.types()).toEqual([]);
  });
});

describe("typing settings", () => {
  test("users who turned typing notifications off neither send nor receive them", async () => {
    await setPrefs("othello", { receives_typing_notifications: false });
    try {
      const ev = await s.captureEvents(async () => {
        (await typing("hamlet", { op: "start", to: [s.users.othello.id] })).success();
        (await typing("hamlet", { type: "stream", op: "start", stream_id: verona, topic: "x" })).success();
      });
      expect(ev.of("othello")).toEqual([]);
      expect(ev.of("hamlet")).toHaveLength(2);
      expect(ev.of("iago")).toHaveLength(1);
    } finally {
      await setPrefs("othello", { receives_typing_notifications: true });
    }
    await setPrefs("hamlet", { send_private_typing_notifications: false, send_stream_typing_notifications: false });
    try {
      const ev = await s.captureEvents(async () => {
        (await typing("hamlet", { op: "start", to: [s.users.othello.id] })).error("User has disabled typing notifications for direct messages", "BAD_REQUEST", 400);
        (await typing("hamlet", { type: "stream", op: "start", stream_id: verona, topic: "x" })).error("User has disabled typing notifications for channel messages", "BAD_REQUEST", 400);
      });
      expect(ev.types()).toEqual([]);
    } finally {
      await setPrefs("hamlet", { send_private_typing_notifications: true, send_stream_typing_notifications: true });
    }
  });
});
