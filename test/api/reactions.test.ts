import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type CastName, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { flagsOf, sendDm, sendStream } from "../helpers/messages";
import { FLAG } from "../../src/domain/flags";

let s: TestServer;
let msg: number;
beforeAll(async () => {
  s = await startServer();
  await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello"] });
  msg = await sendStream(s, "othello", "Verona", "t", "react to me");
});
afterAll(() => s.close());

const react = (who: CastName, id: number, params: Record<string, unknown>) => s.users[who].client.post(`/messages/${id}/reactions`, params as any);
const unreact = (who: CastName, id: number, params: Record<string, unknown>) => s.users[who].client.delete(`/messages/${id}/reactions`, params as any);
const stored = (id: number) => s.app.db.all<any>("SELECT user_id, emoji_name, emoji_code, reaction_type FROM reactions WHERE message_id = ? ORDER BY id", [id]);

describe("POST /messages/{id}/reactions", () => {
  test("adds a Unicode emoji by name, stores it, and tells everyone who has the message", async () => {
    const ev = await s.captureEvents(async () => {
      (await react("hamlet", msg, { emoji_name: "octopus" })).success();
    });
    expect(await stored(msg)).toEqual([{ user_id: s.users.hamlet.id, emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji" }]);
    const expected = {
      type: "reaction",
      op: "add",
      user_id: s.users.hamlet.id,
      user: { user_id: s.users.hamlet.id, email: "hamlet@zulip.com", full_name: "King Hamlet" },
      message_id: msg,
      emoji_name: "octopus",
      emoji_code: "1f419",
      reaction_type: "unicode_emoji",
    };
    expect(ev.of("othello")).toEqual([expected]);
    expect(ev.of("iago")).toEqual([expected]);
    const m = (await s.users.othello.client.get(`/messages/${msg}`)).success().message;
    expect(m.reactions).toEqual([{ emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji", user_id: s.users.hamlet.id }]);
  });

  test("the same reaction twice is REACTION_ALREADY_EXISTS", async () => {
    (await react("hamlet", msg, { emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji" })).error("Reaction already exists.", "REACTION_ALREADY_EXISTS", 400);
  });

  test("invalid codes, names and types are BAD_REQUEST", async () => {
    (await react("hamlet", msg, { emoji_name: "octopus", emoji_code: "zzzz", reaction_type: "unicode_emoji" })).error("Invalid emoji code.");
    (await react("othello", msg, { emoji_name: "octopus", emoji_code: "1f600", reaction_type: "unicode_emoji" })).error("Invalid emoji name.");
    (await react("hamlet", msg, { emoji_name: "no_such_emoji_here" })).error("Emoji 'no_such_emoji_here' does not exist");
    (await react("hamlet", msg, { emoji_name: "x", emoji_code: "1", reaction_type: "sticker" })).error("Invalid emoji type.");
    (await react("hamlet", msg, { emoji_name: "x", emoji_code: "99999", reaction_type: "realm_emoji" })).error("Invalid custom emoji.");
    (await react("hamlet", msg, {})).error("Missing 'emoji_name' argument", "REQUEST_VARIABLE_MISSING");
  });

  test("a second user's vote for an existing emoji takes that reaction's name", async () => {
    (await react("othello", msg, { emoji_name: "octopus_alias_ignored", emoji_code: "1f419", reaction_type: "unicode_emoji" })).success();
    expect((await stored(msg)).map((r) => [r.user_id, r.emoji_name])).toEqual([
      [s.users.hamlet.id, "octopus"],
      [s.users.othello.id, "octopus"],
    ]);
  });

  test("custom emoji are checked against the organization's emoji", async () => {
    const realmId = s.app.realm!.id;
    const { lastId: active } = await s.app.db.run("INSERT INTO realm_emoji (realm_id, name, author_id, file_name) VALUES (?, 'parrot', NULL, 'parrot.png')", [realmId]);
    const { lastId: gone } = await s.app.db.run("INSERT INTO realm_emoji (realm_id, name, author_id, file_name, deactivated) VALUES (?, 'old', NULL, 'old.png', 1)", [realmId]);
    (await react("hamlet", msg, { emoji_name: "parrot" })).success();
    expect((await stored(msg)).at(-1)).toEqual({ user_id: s.users.hamlet.id, emoji_name: "parrot", emoji_code: String(active), reaction_type: "realm_emoji" });
    const { lastId: other } = await s.app.db.run("INSERT INTO realm_emoji (realm_id, name, author_id, file_name) VALUES (?, 'cat', NULL, 'cat.png')", [realmId]);
    (await react("othello", msg, { emoji_name: "wrong", emoji_code: String(other), reaction_type: "realm_emoji" })).error("Invalid custom emoji name.");
    (await react("othello", msg, { emoji_name: "anything", emoji_code: String(active), reaction_type: "realm_emoji" })).success();
    (await react("othello", msg, { emoji_name: "old", emoji_code: String(gone), reaction_type: "realm_emoji" })).error("This custom emoji has been deactivated.");
    (await react("othello", msg, { emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" })).success();
  });

  test("reacting to a public message one never received adds it to one's history; others' DMs are off limits", async () => {
    (await react("cordelia", msg, { emoji_name: "tada" })).success();
    expect(await flagsOf(s, "cordelia", msg)).toBe(FLAG.read | FLAG.historical);
    const dm = await sendDm(s, "hamlet", ["othello"], "private");
    (await react("cordelia", dm, { emoji_name: "tada" })).error("Invalid message(s)");
  });
});

describe("DELETE /messages/{id}/reactions", () => {
  test("removes one's own reaction by name or by code, and tells everyone", async () => {
    const ev = await s.captureEvents(async () => {
      (await unreact("hamlet", msg, { emoji_name: "octopus" })).success();
    });
    expect(ev.of("othello")[0]).toMatchObject({ type: "reaction", op: "remove", user_id: s.users.hamlet.id, emoji_code: "1f419", emoji_name: "octopus" });
    expect((await stored(msg)).some((r) => r.user_id === s.users.hamlet.id && r.emoji_code === "1f419")).toBe(false);
    (await unreact("othello", msg, { emoji_code: "1f419", reaction_type: "unicode_emoji" })).success();
  });

  test("an absent reaction is REACTION_DOES_NOT_EXIST, and something must name it", async () => {
    (await unreact("hamlet", msg, { emoji_name: "octopus" })).error("Reaction doesn't exist.", "REACTION_DOES_NOT_EXIST", 400);
    (await unreact("hamlet", msg, {})).error("At least one of the following arguments must be present: emoji_name, emoji_code");
  });
});
