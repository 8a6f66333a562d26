import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe("POST /saved_snippets", () => {
  test("creates a trimmed snippet; the add event goes to the author only", async () => {
    const now = Math.floor(s.clock.now() / 1000);
    let id = 0;
    const events = await s.captureEvents(async () => {
      id = (await s.users.hamlet.client.post("/saved_snippets", { title: "  Welcome ", content: " Welcome to the organization. \n" })).success().saved_snippet_id;
    });
    const snippet = { id, title: "Welcome", content: "Welcome to the organization.", date_created: now };
    expect(events.of("hamlet")).toEqual([{ type: "saved_snippets", op: "add", saved_snippet: snippet }]);
    expect(events.of("othello")).toEqual([]);
    expect((await s.users.hamlet.client.get("/saved_snippets")).success().saved_snippets).toEqual([snippet]);
    expect((await s.users.othello.client.get("/saved_snippets")).success().saved_snippets).toEqual([]);
    expect((await s.users.hamlet.client.post("/register", { fetch_event_types: ["saved_snippets"] })).success().saved_snippets).toEqual([snippet]);
  });

  test("blank, missing or over-long titles and contents are refused", async () => {
    const c = s.users.othello.client;
    (await c.post("/saved_snippets", { title: "  ", content: "x" })).error("title cannot be blank");
    (await c.post("/saved_snippets", { title: "t", content: "\n" })).error("content cannot be blank");
    (await c.post("/saved_snippets", { title: "t".repeat(101), content: "x" })).error("title is too long (limit: 100 characters)");
    (await c.post("/saved_snippets", { title: "t", content: "x".repeat(10001) })).error("content is too long (limit: 10000 characters)");
    (await c.post("/saved_snippets", { title: "t" })).error("Missing 'content' argument", "REQUEST_VARIABLE_MISSING");
    expect(await s.app.db.get("SELECT count(*) AS n FROM saved_snippets WHERE user_id = ?", [s.users.othello.id])).toEqual({ n: 0 });
  });
});

describe("PATCH /saved_snippets/{saved_snippet_id}", () => {
  test("changes the given parts and sends the whole snippet", async () => {
    const c = s.users.cordelia.client;
    const id = (await c.post("/saved_snippets", { title: "Old", content: "old body" })).success().saved_snippet_id;
    const events = await s.captureEvents(async () => {
      (await c.patch(`/saved_snippets/${id}`, { content: "new body" })).success();
    });
    expect(events.of("cordelia")).toEqual([
      { type: "saved_snippets", op: "update", saved_snippet: { id, title: "Old", content: "new body", date_created: Math.floor(s.clock.now() / 1000) } },
    ]);
    const quiet = await s.captureEvents(async () => {
      (await c.patch(`/saved_snippets/${id}`, {})).success();
    });
    expect(quiet.of("cordelia")).toEqual([]);
  });

  test("someone else's or a missing snippet does not exist", async () => {
    const id = (await s.users.cordelia.client.post("/saved_snippets", { title: "Mine", content: "mine" })).success().saved_snippet_id;
    (await s.users.hamlet.client.patch(`/saved_snippets/${id}`, { title: "Yours" })).error("Saved snippet does not exist.", "BAD_REQUEST", 404);
    (await s.users.cordelia.client.patch(`/saved_snippets/${id}`, { title: " " })).error("title cannot be blank");
    (await s.users.cordelia.client.patch("/saved_snippets/nope", { title: "x" })).error("Invalid saved_snippet_id");
  });
});

describe("DELETE /saved_snippets/{saved_snippet_id}", () => {
  test("removes the snippet and sends a remove event", async () => {
    const c = s.users.iago.client;
    const id = (await c.post("/saved_snippets", { title: "Temp", content: "temp" })).success().saved_snippet_id;
    const events = await s.captureEvents(async () => {
      (await c.delete(`/saved_snippets/${id}`)).success();
    });
    expect(events.of("iago")).toEqual([{ type: "saved_snippets", op: "remove", saved_snippet_id: id }]);
    (await c.delete(`/saved_snippets/${id}`)).error("Saved snippet does not exist.", "BAD_REQUEST", 404);
  });
});
