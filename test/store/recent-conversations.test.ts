// A user's recent direct-message conversations (register's recent_private_conversations): the newest
// message of each conversation that has one among the user's latest `scan` direct messages, found by
// conversation rather than by walking the user's rows (which read every channel message of theirs).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type CastName, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { listRecentConversations } from "../../src/store/user-messages";

let s: TestServer;
const id = (who: CastName) => s.users[who].id;
const key = (...who: CastName[]) => who.map(id).sort((a, b) => a - b).join(",");
const dm = async (from: CastName, ...to: CastName[]) =>
  (await s.users[from].client.post("/messages", { type: "direct", to: JSON.stringify(to.map(id)), content: "psst" })).success().id as number;

let sent: Record<string, number>;

beforeAll(async () => {
  s = await startServer();
  const general = await createChannel(s, "iago", "general", { subscribers: ["hamlet", "othello"] });
  sent = {
    othello: await dm("hamlet", "othello"),
    self: await dm("hamlet", "hamlet"),
    elsewhere: await dm("othello", "iago"),
    cordelia1: await dm("cordelia", "hamlet"),
    cordelia2: await dm("hamlet", "cordelia"),
  };
  // channel messages between them change nothing
  for (let i = 0; i < 5; i++) (await s.users.hamlet.client.post("/messages", { type: "stream", to: general, topic: "t", content: "hi" })).success();
  sent.group = await dm("othello", "hamlet", "iago");
});
afterAll(() => s?.close());

describe("recent direct-message conversations", () => {
  test("each conversation of the user once, with its newest message, newest first; others' conversations left out", async () => {
    expect(await listRecentConversations(s.app.db, id("hamlet"), 1000)).toEqual([
      { dm_key: key("hamlet", "othello", "iago"), max_id: sent.group! },
      { dm_key: key("hamlet", "cordelia"), max_id: sent.cordelia2! },
      { dm_key: key("hamlet"), max_id: sent.self! },
      { dm_key: key("hamlet", "othello"), max_id: sent.othello! },
    ]);
    expect(await listRecentConversations(s.app.db, id("iago"), 1000)).toEqual([
      { dm_key: key("hamlet", "othello", "iago"), max_id: sent.group! },
      { dm_key: key("othello", "iago"), max_id: sent.elsewhere! },
    ]);
    expect(await listRecentConversations(s.app.db, id("polonius"), 1000)).toEqual([]);
  });

  test("only conversations with a message among the user's latest `scan` direct messages count, as Zulip's limit of 1,000", async () => {
    // hamlet's latest three: the group's, and cordelia's two
    expect((await listRecentConversations(s.app.db, id("hamlet"), 3)).map((c) => c.dm_key)).toEqual([key("hamlet", "othello", "iago"), key("hamlet", "cordelia")]);
    expect((await listRecentConversations(s.app.db, id("hamlet"), 4)).map((c) => c.dm_key)).toEqual([key("hamlet", "othello", "iago"), key("hamlet", "cordelia"), key("hamlet")]);
    expect((await listRecentConversations(s.app.db, id("hamlet"), 1)).map((c) => c.dm_key)).toEqual([key("hamlet", "othello", "iago")]);
  });

  test("register gives the same conversations, without the user's own id", async () => {
    const r = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["recent_private_conversations"] })).success();
    expect(r.recent_private_conversations).toEqual([
      { max_message_id: sent.group, user_ids: [id("othello"), id("iago")].sort((a, b) => a - b) },
      { max_message_id: sent.cordelia2, user_ids: [id("cordelia")] },
      { max_message_id: sent.self, user_ids: [] },
      { max_message_id: sent.othello, user_ids: [id("othello")] },
    ]);
  });
});
