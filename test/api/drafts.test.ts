import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel } from "../helpers/channels";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let denmark = 0;
let secret = 0;
beforeAll(async () => {
  s = await startServer();
  denmark = await createChannel(s, "iago", "Denmark");
  secret = await createChannel(s, "iago", "Secret", { invite_only: true });
});
afterAll(() => s.close());

const count = async (userId: number) => (await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM drafts WHERE user_id = ?", [userId]))!.n;

describe("POST /drafts", () => {
  test("creates several drafts at once; one add event with them goes to the author only", async () => {
    const { hamlet, othello, cordelia } = s.users;
    let ids: number[] = [];
    const events = await s.captureEvents(async () => {
      ids = (
        await hamlet.client.post("/drafts", {
          drafts: [
            { type: "stream", to: [denmark], topic: "sync drafts", content: "Let's sync.\n\n", timestamp: 1595479019 },
            { type: "private", to: [othello.id, hamlet.id], topic: "ignored", content: "hi othello", timestamp: 1595479020 },
            { type: "private", to: [cordelia.id, othello.id], topic: "", content: "group chat", timestamp: 1595479021.5 },
            { type: "", to: [], topic: "", content: "nothing yet" },
          ],
        })
      ).success().ids;
    });
    expect(ids).toHaveLength(4);
    const now = Math.floor(s.clock.now() / 1000);
    const drafts = [
      { id: ids[0], type: "stream", to: [denmark], topic: "sync drafts", content: "Let's sync.", timestamp: 1595479019 },
      { id: ids[1], type: "private", to: [othello.id], topic: "", content: "hi othello", timestamp: 1595479020 },
      { id: ids[2], type: "private", to: [othello.id, cordelia.id].sort((a, b) => a - b), topic: "", content: "group chat", timestamp: 1595479021 },
      { id: ids[3], type: "", to: [], topic: "", content: "nothing yet", timestamp: now },
    ];
    expect(events.of("hamlet")).toEqual([{ type: "drafts", op: "add", drafts }]);
    expect(events.of("othello")).toEqual([]);
    const r = (await hamlet.client.get("/drafts")).success();
    expect(r.count).toBe(4);
    expect(r.drafts).toEqual([drafts[3], drafts[2], drafts[1], drafts[0]]);
    expect((await hamlet.client.post("/register", { fetch_event_types: ["drafts"] })).success().drafts).toEqual(r.drafts);
  });

  test("a direct message draft without recipients is unaddressed", async () => {
    const [id] = (await s.users.hamlet.client.post("/drafts", { drafts: [{ type: "private", to: [], topic: "x", content: "to whom?" }] })).success().ids;
    expect((await s.users.hamlet.client.get("/drafts")).success().drafts.find((d: any) => d.id === id)).toMatchObject({ type: "", to: [], topic: "" });
  });

  test("a direct message draft to oneself names oneself", async () => {
    const { hamlet } = s.users;
    const [id] = (await hamlet.client.post("/drafts", { drafts: [{ type: "private", to: [hamlet.id], topic: "", content: "note to self" }] })).success().ids;
    expect((await hamlet.client.get("/drafts")).success().drafts.find((d: any) => d.id === id).to).toEqual([hamlet.id]);
  });

  test("invalid drafts are refused and none of the batch is stored", async () => {
    const c = s.users.othello.client;
    const post = (draft: Record<string, unknown>) => c.post("/drafts", { drafts: [{ type: "", to: [], topic: "", content: "ok" }, draft] });
    (await post({ type: "stream", to: [], topic: "t", content: "x" })).error("Must specify exactly 1 channel ID for channel messages");
    (await post({ type: "stream", to: [denmark, denmark], topic: "t", content: "x" })).error("Must specify exactly 1 channel ID for channel messages");
    (await post({ type: "stream", to: [secret], topic: "t", content: "x" })).error("Invalid channel ID");
    (await post({ type: "stream", to: [9999], topic: "t", content: "x" })).error("Invalid channel ID");
    (await post({ type: "private", to: [9999], topic: "", content: "x" })).error("Invalid user ID 9999");
    (await post({ type: "private", to: [], topic: "", content: "   " })).error('drafts[1]["content"] cannot be blank');
    (await post({ type: "private", to: [], topic: "", content: "" })).error('drafts[1]["content"] cannot be blank');
    (await post({ type: "", to: [], topic: "", content: "x", timestamp: -5 })).error("Timestamp must not be negative.");
    (await post({ type: "huddle", to: [], topic: "", content: "x" })).error('Invalid drafts[1]["type"]');
    (await post({ type: "", to: [], topic: "", content: "x", id: 3 })).error('Argument "id" at drafts[1] is unexpected');
    (await post({ type: "", to: [], content: "x" })).error('drafts[1]["topic"] field is missing');
    (await c.post("/drafts", {})).error("Missing 'drafts' argument", "REQUEST_VARIABLE_MISSING");
    expect(await count(s.users.othello.id)).toBe(0);
  });

  test("deactivated recipients are refused", async () => {
    (await s.users.iago.client.delete(`/users/${s.users.cordelia.id}`)).success();
    try {
      (await s.users.othello.client.post("/drafts", { drafts: [{ type: "private", to: [s.users.cordelia.id], topic: "", content: "x" }] })).error(
        "'cordelia@zulip.com' is no longer using Zulip.",
      );
    } finally {
      (await s.users.iago.client.post(`/users/${s.users.cordelia.id}/reactivate`)).success();
    }
  });
});

describe("PATCH /drafts/{draft_id}", () => {
  test("replaces the draft and sends an update event", async () => {
    const { hamlet, othello } = s.users;
    const [id] = (await hamlet.client.post("/drafts", { drafts: [{ type: "", to: [], topic: "", content: "v1" }] })).success().ids;
    const events = await s.captureEvents(async () => {
      (await hamlet.client.patch(`/drafts/${id}`, { draft: { type: "private", to: [othello.id], topic: "", content: "v2", timestamp: 1700000000 } })).success();
    });
    const draft = { id, type: "private", to: [othello.id], topic: "", content: "v2", timestamp: 1700000000 };
    expect(events.of("hamlet")).toEqual([{ type: "drafts", op: "update", draft }]);
    expect((await hamlet.client.get("/drafts")).success().drafts).toContainEqual(draft);
  });

  test("someone else's or a missing draft does not exist", async () => {
    const [id] = (await s.users.hamlet.client.post("/drafts", { drafts: [{ type: "", to: [], topic: "", content: "mine" }] })).success().ids;
    const edit = { draft: { type: "", to: [], topic: "", content: "stolen" } };
    (await s.users.othello.client.patch(`/drafts/${id}`, edit)).error("Draft does not exist", "BAD_REQUEST", 404);
    (await s.users.othello.client.patch("/drafts/99999", edit)).error("Draft does not exist", "BAD_REQUEST", 404);
    (await s.users.hamlet.client.patch(`/drafts/${id}`, { draft: { type: "", to: [], topic: "", content: " " } })).error('draft["content"] cannot be blank');
    (await s.users.hamlet.client.patch(`/drafts/${id}`, {})).error("Missing 'draft' argument", "REQUEST_VARIABLE_MISSING");
  });
});

describe("DELETE /drafts/{draft_id}", () => {
  test("removes the draft and sends a remove event; a second delete finds nothing", async () => {
    const c = s.users.hamlet.client;
    const [id] = (await c.post("/drafts", { drafts: [{ type: "", to: [], topic: "", content: "bye" }] })).success().ids;
    const events = await s.captureEvents(async () => {
      (await c.delete(`/drafts/${id}`)).success();
    });
    expect(events.of("hamlet")).toEqual([{ type: "drafts", op: "remove", draft_id: id }]);
    (await c.delete(`/drafts/${id}`)).error("Draft does not exist", "BAD_REQUEST", 404);
  });
});

describe("drafts with synchronization turned off", () => {
  test("every endpoint refuses and /register has none", async () => {
    const c = s.users.shiva.client;
    (await c.patch("/settings", { enable_drafts_synchronization: false })).success();
    (await c.get("/drafts")).error("User has disabled synchronizing drafts.");
    (await c.post("/drafts", { drafts: [] })).error("User has disabled synchronizing drafts.");
    (await c.patch("/drafts/1", { draft: { type: "", to: [], topic: "", content: "x" } })).error("User has disabled synchronizing drafts.");
    (await c.delete("/drafts/1")).error("User has disabled synchronizing drafts.");
    expect((await c.post("/register", { fetch_event_types: ["drafts"] })).success().drafts).toEqual([]);
  });
});
