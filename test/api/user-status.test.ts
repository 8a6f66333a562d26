import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { emojiNameToCode } from "../../src/domain/emoji";
import { startServer, type TestServer } from "../helpers/server";
import { makePng } from "../helpers/uploads";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const row = (id: number) => s.app.db.get("SELECT status_text, emoji_name, emoji_code, reaction_type FROM user_status WHERE user_id = ?", [id]);
const car = emojiNameToCode("car")!;

describe("POST /users/me/status", () => {
  test("a user sets a status with text and an emoji named only; everyone who can see them is told", async () => {
    const hamlet = s.users.hamlet;
    const events = await s.captureEvents(async () => {
      (await hamlet.client.post("/users/me/status", { status_text: "  on vacation  ", emoji_name: "car" })).success();
    });
    expect(await row(hamlet.id)).toEqual({ status_text: "on vacation", emoji_name: "car", emoji_code: car, reaction_type: "unicode_emoji" });
    const expected = { type: "user_status", user_id: hamlet.id, status_text: "on vacation", emoji_name: "car", emoji_code: car, reaction_type: "unicode_emoji" };
    expect(events.of("othello")).toEqual([expected]);
    expect(events.of("polonius")).toEqual([expected]);
    expect(events.of("hamlet")).toEqual([expected]);
  });

  test("only what is passed changes; an empty text or emoji name clears that part", async () => {
    const c = s.users.hamlet.client;
    const events = await s.captureEvents(async () => {
      (await c.post("/users/me/status", { status_text: "" })).success();
    });
    expect(await row(s.users.hamlet.id)).toEqual({ status_text: "", emoji_name: "car", emoji_code: car, reaction_type: "unicode_emoji" });
    expect(events.of("othello")).toEqual([{ type: "user_status", user_id: s.users.hamlet.id, status_text: "" }]);
    (await c.post("/users/me/status", { emoji_name: "" })).success();
    expect(await row(s.users.hamlet.id)).toEqual({ status_text: "", emoji_name: "", emoji_code: "", reaction_type: "unicode_emoji" });
  });

  test("away is the inverse of presence_enabled", async () => {
    const c = s.users.cordelia.client;
    const events = await s.captureEvents(async () => {
      (await c.post("/users/me/status", { away: true })).success();
    });
    const settings = JSON.parse((await s.app.db.get<{ settings: string }>("SELECT settings FROM users WHERE id = ?", [s.users.cordelia.id]))!.settings);
    expect(settings.presence_enabled).toBe(false);
    expect(events.of("cordelia")).toContainEqual({ type: "user_settings", op: "update", property: "presence_enabled", value: false });
    // going away is going invisible: others first see Cordelia go offline (presence), then the status
    expect(events.of("othello").map((e) => e.type)).toEqual(["presence", "user_status"]);
    expect(events.of("othello")[1]).toEqual({ type: "user_status", user_id: s.users.cordelia.id, away: true });
    expect((await s.users.othello.client.get(`/users/${s.users.cordelia.id}/status`)).success().status).toEqual({ away: true });
    (await c.post("/users/me/status", { away: false })).success();
    expect((await s.users.othello.client.get(`/users/${s.users.cordelia.id}/status`)).success().status).toEqual({});
  });

  test("the emoji may be given with code and type, which must agree with the name", async () => {
    const c = s.users.othello.client;
    (await c.post("/users/me/status", { emoji_name: "car", emoji_code: car, reaction_type: "unicode_emoji" })).success();
    (await c.post("/users/me/status", { emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" })).success();
    expect(await row(s.users.othello.id)).toMatchObject({ emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" });
    (await c.post("/users/me/status", { emoji_name: "car", emoji_code: "1f600", reaction_type: "unicode_emoji" })).error("Invalid emoji name.");
    (await c.post("/users/me/status", { emoji_name: "car", emoji_code: "nope", reaction_type: "unicode_emoji" })).error("Invalid emoji code.");
    (await c.post("/users/me/status", { emoji_name: "car", emoji_code: "99", reaction_type: "realm_emoji" })).error("Invalid custom emoji.");
    (await c.post("/users/me/status", { emoji_name: "car", emoji_code: car, reaction_type: "nope" })).error("Invalid emoji type.");
    (await c.post("/users/me/status", { emoji_name: "no_such_emoji_here" })).error("Emoji 'no_such_emoji_here' does not exist");
    expect(await row(s.users.othello.id)).toMatchObject({ emoji_name: "zulip" });
  });

  test("status emoji use Zulip's names: aliases answer, emoji-datasource's names do not", async () => {
    const c = s.users.cordelia.client;
    (await c.post("/users/me/status", { emoji_name: "thumbs_up", emoji_code: "1f44d", reaction_type: "unicode_emoji" })).success();
    expect(await row(s.users.cordelia.id)).toMatchObject({ emoji_name: "thumbs_up", emoji_code: "1f44d", reaction_type: "unicode_emoji" });
    (await c.post("/users/me/status", { emoji_name: "smile" })).success();
    expect(await row(s.users.cordelia.id)).toMatchObject({ emoji_name: "smile", emoji_code: "1f642", reaction_type: "unicode_emoji" });
    (await c.post("/users/me/status", { emoji_name: "thumbsup" })).error("Emoji 'thumbsup' does not exist");
    (await c.post("/users/me/status", { emoji_name: "smile", emoji_code: "1f604", reaction_type: "unicode_emoji" })).error("Invalid emoji name.");
    expect(await row(s.users.cordelia.id)).toMatchObject({ emoji_name: "smile", emoji_code: "1f642" });
    (await c.post("/users/me/status", { emoji_name: "" })).success();
  });

  test("custom emoji are found by name, checked by id, and refused once deactivated", async () => {
    const c = s.users.othello.client;
    (await s.users.hamlet.client.post("/realm/emoji/zulipblob", { file: new File([(await makePng(10, 10)) as BlobPart], "zulipblob.png") })).success();
    const id = String((await s.app.db.get<{ id: number }>("SELECT id FROM realm_emoji WHERE name = 'zulipblob'"))!.id);
    (await c.post("/users/me/status", { emoji_name: "zulipblob" })).success();
    expect(await row(s.users.othello.id)).toMatchObject({ emoji_name: "zulipblob", emoji_code: id, reaction_type: "realm_emoji" });
    (await c.post("/users/me/status", { emoji_name: "car", emoji_code: id, reaction_type: "realm_emoji" })).error("Invalid custom emoji name.");
    (await s.users.hamlet.client.delete("/realm/emoji/zulipblob")).success();
    (await c.post("/users/me/status", { emoji_name: "zulipblob", emoji_code: id, reaction_type: "realm_emoji" })).error("This custom emoji has been deactivated.");
    (await c.post("/users/me/status", { emoji_name: "zulipblob" })).error("Emoji 'zulipblob' does not exist");
    (await c.post("/users/me/status", { emoji_name: "zulip" })).success();
  });

  test("nothing to change, an orphan emoji code and an over-long text are refused", async () => {
    const c = s.users.shiva.client;
    (await c.post("/users/me/status", {})).error("Client did not pass any new values.");
    (await c.post("/users/me/status", { status_text: "hi", emoji_code: car })).error("Client must pass emoji_name if they pass either emoji_code or reaction_type.");
    (await c.post("/users/me/status", { status_text: "x".repeat(61) })).error("status_text is too long (limit: 60 characters)");
    (await c.post("/users/me/status", { status_text: ` ${"x".repeat(60)} ` })).success();
    (await c.post("/users/me/status", { away: "maybe" })).error("away is not valid JSON");
  });
});

describe("GET /users/{user_id}/status", () => {
  test("shows only the parts that are set, and {} for a user with no status", async () => {
    (await s.users.iago.client.post("/users/me/status", { status_text: "busy" })).success();
    expect((await s.users.hamlet.client.get(`/users/${s.users.iago.id}/status`)).success().status).toEqual({ status_text: "busy" });
    expect((await s.users.hamlet.client.get(`/users/${s.users.desdemona.id}/status`)).success().status).toEqual({});
  });

  test("unknown users and bad ids are errors", async () => {
    (await s.users.hamlet.client.get("/users/9999/status")).error("No such user");
    (await s.users.hamlet.client.get("/users/abc/status")).error("Invalid user_id");
  });
});

describe("user_status in /register", () => {
  test("lists the users with a visible status, keyed by id", async () => {
    const r = (await s.users.polonius.client.post("/register", { fetch_event_types: ["user_status"] })).success();
    expect(r.user_status[String(s.users.iago.id)]).toEqual({ status_text: "busy" });
    expect(r.user_status[String(s.users.othello.id)]).toEqual({ emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" });
    expect(r.user_status[String(s.users.hamlet.id)]).toBeUndefined(); // cleared
    expect(r.user_status[String(s.users.cordelia.id)]).toBeUndefined(); // back from away
  });

  test("guests who may not see everyone only get the statuses of users they can see", async () => {
    const everyone = s.app.systemGroups.get("role:members")!;
    (await s.users.desdemona.client.patch("/realm", { can_access_all_users_group: { new: everyone } })).success();
    try {
      const r = (await s.users.polonius.client.post("/register", { fetch_event_types: ["user_status"] })).success();
      expect(r.user_status).toEqual({});
      const events = await s.captureEvents(async () => {
        (await s.users.iago.client.post("/users/me/status", { status_text: "still busy" })).success();
      });
      expect(events.of("polonius")).toEqual([]);
      expect(events.of("hamlet")).toHaveLength(1);
    } finally {
      (await s.users.desdemona.client.patch("/realm", { can_access_all_users_group: { new: s.app.systemGroups.get("role:everyone")! } })).success();
    }
  });
});
