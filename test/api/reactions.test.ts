import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, CAST, type CastName, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { flagsOf, sendDm, sendStream } from "../helpers/messages";
import { makePng } from "../helpers/uploads";
import { FLAG } from "../../src/domain/flags";

let s: TestServer;
let msg: number;
let verona: number;
beforeAll(async () => {
  s = await startServer();
  verona = await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello"] });
  msg = await sendStream(s, "othello", "Verona", "t", "react to me");
});
afterAll(() => s.close());

const react = (who: CastName, id: number, params: Record<string, unknown>) => s.users[who].client.post(`/messages/${id}/reactions`, params as any);
const unreact = (who: CastName, id: number, params: Record<string, unknown>) => s.users[who].client.delete(`/messages/${id}/reactions`, params as any);
const stored = (id: number) => s.app.db.all<any>("SELECT user_id, emoji_name, emoji_code, reaction_type FROM reactions WHERE message_id = ? ORDER BY id", [id]);
const ALL = Object.keys(CAST) as CastName[];

/** The cast members who received any event. */
const recipients = (ev: Awaited<ReturnType<TestServer["captureEvents"]>>) => ALL.filter((n) => ev.of(n).length > 0).sort();

function reactionEvent(who: CastName, op: "add" | "remove", messageId: number, emoji_name: string, emoji_code: string, reaction_type: string) {
  const u = s.users[who];
  return { type: "reaction", op, user_id: u.id, user: { user_id: u.id, email: u.email, full_name: CAST[who].fullName }, message_id: messageId, emoji_name, emoji_code, reaction_type };
}

/** Adds a custom emoji through the API and returns its id. */
async function addCustomEmoji(name: string): Promise<number> {
  (await s.users.iago.client.post(`/realm/emoji/${name}`, { file: new File([(await makePng(32, 32)) as BlobPart], `${name}.png`) })).success();
  return (await s.app.db.get<{ id: number }>("SELECT id FROM realm_emoji WHERE name = ? AND deactivated = 0", [name]))!.id;
}

describe("POST /messages/{id}/reactions", () => {
  test("adds a Unicode emoji by name, stores it, and tells exactly everyone who has the message", async () => {
    let r: any;
    const ev = await s.captureEvents(async () => {
      r = (await react("hamlet", msg, { emoji_name: "octopus" })).success();
    });
    expect(r).toEqual({ result: "success", msg: "" });
    expect(await stored(msg)).toEqual([{ user_id: s.users.hamlet.id, emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji" }]);
    const expected = reactionEvent("hamlet", "add", msg, "octopus", "1f419", "unicode_emoji");
    for (const who of ["hamlet", "othello", "iago"] as const) expect(ev.of(who)).toEqual([expected]);
    expect(recipients(ev)).toEqual(["hamlet", "iago", "othello"]);
    const m = (await s.users.othello.client.get(`/messages/${msg}`)).success().message;
    expect(m.reactions).toEqual([{ emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji", user_id: s.users.hamlet.id }]);
  });

  test("adds by name, code and type together", async () => {
    const id = await sendStream(s, "othello", "Verona", "t", "by code");
    const ev = await s.captureEvents(async () => {
      (await react("hamlet", id, { emoji_name: "heart", emoji_code: "2764", reaction_type: "unicode_emoji" })).success();
    });
    expect(await stored(id)).toEqual([{ user_id: s.users.hamlet.id, emoji_name: "heart", emoji_code: "2764", reaction_type: "unicode_emoji" }]);
    expect(ev.of("othello")).toEqual([reactionEvent("hamlet", "add", id, "heart", "2764", "unicode_emoji")]);
  });

  test("the same reaction twice is REACTION_ALREADY_EXISTS, by name or by code, and changes nothing", async () => {
    const ev = await s.captureEvents(async () => {
      (await react("hamlet", msg, { emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji" })).error("Reaction already exists.", "REACTION_ALREADY_EXISTS", 400);
      (await react("hamlet", msg, { emoji_name: "octopus" })).error("Reaction already exists.", "REACTION_ALREADY_EXISTS", 400);
    });
    expect(ev.types()).toEqual([]);
    expect((await stored(msg)).filter((r) => r.user_id === s.users.hamlet.id)).toHaveLength(1);
  });

  test("invalid codes, names and types are BAD_REQUEST; emoji_name is required", async () => {
    const ev = await s.captureEvents(async () => {
      (await react("hamlet", msg, { emoji_name: "octopus", emoji_code: "zzzz", reaction_type: "unicode_emoji" })).error("Invalid emoji code.", "BAD_REQUEST", 400);
      (await react("othello", msg, { emoji_name: "octopus", emoji_code: "1f600", reaction_type: "unicode_emoji" })).error("Invalid emoji name.", "BAD_REQUEST", 400);
      (await react("hamlet", msg, { emoji_name: "no_such_emoji_here" })).error("Emoji 'no_such_emoji_here' does not exist", "BAD_REQUEST", 400);
      (await react("hamlet", msg, { emoji_name: "x", emoji_code: "1", reaction_type: "sticker" })).error("Invalid emoji type.", "BAD_REQUEST", 400);
      (await react("hamlet", msg, { emoji_name: "x", emoji_code: "99999", reaction_type: "realm_emoji" })).error("Invalid custom emoji.", "BAD_REQUEST", 400);
      (await react("hamlet", msg, { emoji_name: "x", emoji_code: "abc", reaction_type: "realm_emoji" })).error("Invalid custom emoji.", "BAD_REQUEST", 400);
      (await react("hamlet", msg, { emoji_name: "zulip", emoji_code: "zulip2", reaction_type: "zulip_extra_emoji" })).error("Invalid emoji code.", "BAD_REQUEST", 400);
      (await react("hamlet", msg, { emoji_name: "zulip2", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" })).error("Invalid emoji name.", "BAD_REQUEST", 400);
      (await react("hamlet", msg, {})).error("Missing 'emoji_name' argument", "REQUEST_VARIABLE_MISSING", 400);
      (await react("hamlet", 999999, { emoji_code: "1f419" })).error("Missing 'emoji_name' argument", "REQUEST_VARIABLE_MISSING", 400);
      (await s.users.hamlet.client.post("/messages/abc/reactions", { emoji_name: "tada" })).error("Invalid message_id", "BAD_REQUEST", 400);
    });
    expect(ev.types()).toEqual([]);
    expect(await stored(msg)).toHaveLength(1);
  });

  test("a second user's vote for an existing emoji takes that reaction's name, without checking it again", async () => {
    (await react("othello", msg, { emoji_name: "octopus_alias_ignored", emoji_code: "1f419", reaction_type: "unicode_emoji" })).success();
    expect((await stored(msg)).map((r) => [r.user_id, r.emoji_name])).toEqual([
      [s.users.hamlet.id, "octopus"],
      [s.users.othello.id, "octopus"],
    ]);
  });

  test("custom emoji: by name, by id, and checked against the organization's active emoji", async () => {
    const id = await sendStream(s, "othello", "Verona", "custom", "custom emoji here");
    const parrot = await addCustomEmoji("parrot");
    const ev = await s.captureEvents(async () => {
      (await react("hamlet", id, { emoji_name: "parrot" })).success();
    });
    expect(ev.of("othello")).toEqual([reactionEvent("hamlet", "add", id, "parrot", String(parrot), "realm_emoji")]);
    (await react("othello", id, { emoji_name: "parrot", emoji_code: String(parrot), reaction_type: "realm_emoji" })).success();
    const cat = await addCustomEmoji("cat_face_custom");
    (await react("othello", id, { emoji_name: "wrong", emoji_code: String(cat), reaction_type: "realm_emoji" })).error("Invalid custom emoji name.", "BAD_REQUEST", 400);
    (await s.users.iago.client.delete("/realm/emoji/cat_face_custom")).success();
    (await react("othello", id, { emoji_name: "cat_face_custom", emoji_code: String(cat), reaction_type: "realm_emoji" })).error("This custom emoji has been deactivated.", "BAD_REQUEST", 400);
    (await react("othello", id, { emoji_name: "cat_face_custom" })).error("Emoji 'cat_face_custom' does not exist", "BAD_REQUEST", 400);
    expect(await stored(id)).toEqual([
      { user_id: s.users.hamlet.id, emoji_name: "parrot", emoji_code: String(parrot), reaction_type: "realm_emoji" },
      { user_id: s.users.othello.id, emoji_name: "parrot", emoji_code: String(parrot), reaction_type: "realm_emoji" },
    ]);
    // A vote for a reaction whose custom emoji was deactivated since is still accepted.
    const gone = await addCustomEmoji("fleeting");
    (await react("hamlet", id, { emoji_name: "fleeting" })).success();
    (await s.users.iago.client.delete("/realm/emoji/fleeting")).success();
    (await react("othello", id, { emoji_name: "fleeting", emoji_code: String(gone), reaction_type: "realm_emoji" })).success();
  });

  test("the Zulip emoji by name or by code", async () => {
    const id = await sendStream(s, "othello", "Verona", "zulip", "zulip emoji");
    (await react("hamlet", id, { emoji_name: "zulip" })).success();
    const ev = await s.captureEvents(async () => {
      (await react("othello", id, { emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" })).success();
    });
    expect(ev.of("hamlet")).toEqual([reactionEvent("othello", "add", id, "zulip", "zulip", "zulip_extra_emoji")]);
    expect((await stored(id)).map((r) => [r.user_id, r.emoji_code, r.reaction_type])).toEqual([
      [s.users.hamlet.id, "zulip", "zulip_extra_emoji"],
      [s.users.othello.id, "zulip", "zulip_extra_emoji"],
    ]);
  });

  test("reacting to a public message one never received adds it to one's history; the event reaches the channel and the reactor", async () => {
    const id = await sendStream(s, "othello", "Verona", "history", "old news");
    const ev = await s.captureEvents(async () => {
      (await react("cordelia", id, { emoji_name: "tada" })).success();
    });
    expect(await flagsOf(s, "cordelia", id)).toBe(FLAG.read | FLAG.historical);
    expect(recipients(ev)).toEqual(["cordelia", "hamlet", "iago", "othello"]);
  });

  test("messages one cannot read are 'Invalid message(s)': others' DMs, private channels, guests outside public channels", async () => {
    const dm = await sendDm(s, "hamlet", ["othello"], "private");
    await createChannel(s, "iago", "Secret", { invite_only: true, subscribers: ["othello"] });
    const hidden = await sendStream(s, "othello", "Secret", "t", "hidden");
    const ev = await s.captureEvents(async () => {
      for (const [who, id] of [["cordelia", dm], ["iago", dm], ["cordelia", hidden], ["polonius", msg], ["hamlet", 999999]] as const) {
        (await react(who, id, { emoji_name: "tada" })).error("Invalid message(s)", "BAD_REQUEST", 400);
        (await unreact(who, id, { emoji_name: "octopus" })).error("Invalid message(s)", "BAD_REQUEST", 400);
      }
    });
    expect(ev.types()).toEqual([]);
    expect(await stored(dm)).toEqual([]);
    expect(await stored(hidden)).toEqual([]);
    expect(await flagsOf(s, "polonius", msg)).toBeUndefined();
  });

  test("a guest reacts in a channel they are subscribed to", async () => {
    await createChannel(s, "iago", "Guest room", { invite_only: true, subscribers: ["polonius", "hamlet"] });
    const id = await sendStream(s, "hamlet", "Guest room", "t", "welcome");
    const ev = await s.captureEvents(async () => {
      (await react("polonius", id, { emoji_name: "wave" })).success();
    });
    expect(recipients(ev)).toEqual(["hamlet", "iago", "polonius"]);
  });

  test("direct messages: only the participants hear of reactions", async () => {
    const dm = await sendDm(s, "hamlet", ["othello", "cordelia"], "group chat");
    const ev = await s.captureEvents(async () => {
      (await react("cordelia", dm, { emoji_name: "+1" })).success();
    });
    expect(recipients(ev)).toEqual(["cordelia", "hamlet", "othello"]);
    expect(ev.of("hamlet")).toEqual([reactionEvent("cordelia", "add", dm, "+1", "1f44d", "unicode_emoji")]);
  });

  test("users who may no longer read the message get no reaction events", async () => {
    // Protected history: a former subscriber keeps their row but loses access.
    await createChannel(s, "iago", "Vault", { invite_only: true, history_public_to_subscribers: false, subscribers: ["hamlet", "othello"] });
    const vaulted = await sendStream(s, "othello", "Vault", "t", "inside");
    (await s.users.iago.client.delete("/users/me/subscriptions", { subscriptions: ["Vault"], principals: [s.users.hamlet.id] })).success();
    const vaultEv = await s.captureEvents(async () => {
      (await react("othello", vaulted, { emoji_name: "locked" })).success();
    });
    expect(recipients(vaultEv)).toEqual(["iago", "othello"]);
    (await react("hamlet", vaulted, { emoji_name: "key" })).error("Invalid message(s)");
    // Public channel: former subscribers who are not guests still may read it; a guest may not.
    await createChannel(s, "iago", "Plaza", { subscribers: ["polonius", "cordelia"] });
    const plaza = await sendStream(s, "iago", "Plaza", "t", "public");
    (await s.users.iago.client.delete("/users/me/subscriptions", { subscriptions: ["Plaza"], principals: [s.users.polonius.id, s.users.cordelia.id] })).success();
    const plazaEv = await s.captureEvents(async () => {
      (await react("iago", plaza, { emoji_name: "tada" })).success();
    });
    expect(recipients(plazaEv)).toEqual(["cordelia", "iago"]);
  });

  test("messages in archived channels take no new reactions", async () => {
    const ch = await createChannel(s, "iago", "Attic", { subscribers: ["hamlet"] });
    const id = await sendStream(s, "hamlet", "Attic", "t", "dusty");
    (await react("hamlet", id, { emoji_name: "tada" })).success();
    (await s.users.iago.client.delete(`/streams/${ch}`)).success();
    (await react("iago", id, { emoji_name: "tada" })).error("Invalid message(s)");
    (await unreact("hamlet", id, { emoji_name: "tada" })).error("Invalid message(s)");
    expect(await stored(id)).toHaveLength(1);
  });

  test("a reaction follows the topic for users who follow topics they take part in", async () => {
    (await s.users.cordelia.client.patch("/settings", { automatically_follow_topics_policy: 1 })).success();
    const id = await sendStream(s, "othello", "Verona", "follow me", "a topic to follow");
    const ev = await s.captureEvents(async () => {
      (await react("cordelia", id, { emoji_name: "eyes" })).success();
    });
    expect(ev.of("cordelia").map((e) => e.type)).toEqual(["reaction", "muted_topics", "user_topic"]);
    expect(ev.of("cordelia")[1]).toEqual({ type: "muted_topics", muted_topics: [] });
    expect(ev.of("cordelia")[2]).toMatchObject({ type: "user_topic", stream_id: verona, topic_name: "follow me", visibility_policy: 3 });
    const row = await s.app.db.get<any>("SELECT visibility_policy FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic = ?", [s.users.cordelia.id, verona, "follow me"]);
    expect(row.visibility_policy).toBe(3);
  });
});

describe("DELETE /messages/{id}/reactions", () => {
  test("removes one's own reaction by name, and tells everyone who has the message", async () => {
    let r: any;
    const ev = await s.captureEvents(async () => {
      r = (await unreact("hamlet", msg, { emoji_name: "octopus" })).success();
    });
    expect(r).toEqual({ result: "success", msg: "" });
    const expected = reactionEvent("hamlet", "remove", msg, "octopus", "1f419", "unicode_emoji");
    expect(ev.of("othello")).toEqual([expected]);
    expect(recipients(ev)).toEqual(["hamlet", "iago", "othello"]);
    expect(await stored(msg)).toEqual([{ user_id: s.users.othello.id, emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji" }]);
  });

  test("removes by code (unicode_emoji by default), by custom emoji id, and the Zulip emoji", async () => {
    (await unreact("othello", msg, { emoji_code: "1f419" })).success();
    expect(await stored(msg)).toEqual([]);
    const id = await sendStream(s, "othello", "Verona", "remove", "many reactions");
    const party = await addCustomEmoji("party_custom");
    for (const name of ["party_custom", "zulip", "tada"]) (await react("hamlet", id, { emoji_name: name })).success();
    const ev = await s.captureEvents(async () => {
      (await unreact("hamlet", id, { emoji_code: String(party), reaction_type: "realm_emoji" })).success();
      (await unreact("hamlet", id, { emoji_name: "zulip" })).success();
      (await unreact("hamlet", id, { emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" })).success();
    });
    expect(ev.of("othello")).toEqual([
      reactionEvent("hamlet", "remove", id, "party_custom", String(party), "realm_emoji"),
      reactionEvent("hamlet", "remove", id, "zulip", "zulip", "zulip_extra_emoji"),
      reactionEvent("hamlet", "remove", id, "tada", "1f389", "unicode_emoji"),
    ]);
    expect(await stored(id)).toEqual([]);
  });

  test("a deactivated custom emoji's reaction can still be removed", async () => {
    const id = await sendStream(s, "othello", "Verona", "remove", "fading");
    const fade = await addCustomEmoji("fade_out");
    (await react("hamlet", id, { emoji_name: "fade_out" })).success();
    (await s.users.iago.client.delete("/realm/emoji/fade_out")).success();
    (await unreact("hamlet", id, { emoji_code: String(fade), reaction_type: "realm_emoji" })).success();
    expect(await stored(id)).toEqual([]);
  });

  test("an absent reaction (or someone else's) is REACTION_DOES_NOT_EXIST, and something must name it", async () => {
    const id = await sendStream(s, "othello", "Verona", "remove", "mine only");
    (await react("othello", id, { emoji_name: "heart" })).success();
    const ev = await s.captureEvents(async () => {
      (await unreact("hamlet", id, { emoji_name: "heart" })).error("Reaction doesn't exist.", "REACTION_DOES_NOT_EXIST", 400);
      (await unreact("hamlet", id, { emoji_code: "2764", reaction_type: "unicode_emoji" })).error("Reaction doesn't exist.", "REACTION_DOES_NOT_EXIST", 400);
      (await unreact("othello", id, { emoji_code: "2764", reaction_type: "realm_emoji" })).error("Reaction doesn't exist.", "REACTION_DOES_NOT_EXIST", 400);
      (await unreact("hamlet", id, {})).error("At least one of the following arguments must be present: emoji_name, emoji_code", "BAD_REQUEST", 400);
      (await unreact("hamlet", id, { emoji_name: "no_such_emoji_here" })).error("Emoji 'no_such_emoji_here' does not exist", "BAD_REQUEST", 400);
    });
    expect(ev.types()).toEqual([]);
    expect(await stored(id)).toHaveLength(1);
  });
});

describe("Zulip's emoji names in reactions", () => {
  test("zulip-terminal's thumbs-up key (emoji_name=thumbs_up, emoji_code=1f44d) adds and then removes the reaction", async () => {
    const id = await sendStream(s, "othello", "Verona", "t", "thumbs");
    // zulipterminal/model.py toggle_message_reaction sends the alias the user typed, its code and type.
    const spec = { emoji_name: "thumbs_up", emoji_code: "1f44d", reaction_type: "unicode_emoji" };
    const added = await s.captureEvents(async () => {
      (await react("hamlet", id, spec)).success();
    });
    expect(await stored(id)).toEqual([{ user_id: s.users.hamlet.id, ...spec }]);
    expect(added.of("othello")).toEqual([reactionEvent("hamlet", "add", id, "thumbs_up", "1f44d", "unicode_emoji")]);
    const removed = await s.captureEvents(async () => {
      (await unreact("hamlet", id, spec)).success();
    });
    expect(await stored(id)).toEqual([]);
    expect(removed.of("othello")).toEqual([reactionEvent("hamlet", "remove", id, "thumbs_up", "1f44d", "unicode_emoji")]);
  });

  test("zulip-flutter's +1 (the canonical name) and the like alias count as votes for the same emoji", async () => {
    const id = await sendStream(s, "othello", "Verona", "t", "plus one");
    (await react("hamlet", id, { emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji" })).success();
    // A second vote by another name takes the first reaction's name, as in Zulip.
    const ev = await s.captureEvents(async () => {
      (await react("othello", id, { emoji_name: "like", emoji_code: "1f44d", reaction_type: "unicode_emoji" })).success();
    });
    expect(ev.of("hamlet")).toEqual([reactionEvent("othello", "add", id, "+1", "1f44d", "unicode_emoji")]);
    // By name alone, each of Zulip's names finds the code.
    (await react("iago", id, { emoji_name: "thumbs_up" })).success();
    expect(await stored(id)).toEqual([
      { user_id: s.users.hamlet.id, emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji" },
      { user_id: s.users.othello.id, emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji" },
      { user_id: s.users.iago.id, emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji" },
    ]);
  });

  test("a name and code that do not belong together are refused with Zulip's errors, and nothing is stored", async () => {
    const id = await sendStream(s, "othello", "Verona", "t", "mismatch");
    const ev = await s.captureEvents(async () => {
      // emoji-datasource's names are not Zulip's.
      (await react("hamlet", id, { emoji_name: "thumbsup", emoji_code: "1f44d", reaction_type: "unicode_emoji" })).error("Invalid emoji name.", "BAD_REQUEST", 400);
      (await react("hamlet", id, { emoji_name: "thumbsup" })).error("Emoji 'thumbsup' does not exist", "BAD_REQUEST", 400);
      // Zulip 10's :smile: is 🙂 (1f642), not emoji-datasource's 😄 (1f604).
      (await react("hamlet", id, { emoji_name: "smile", emoji_code: "1f604", reaction_type: "unicode_emoji" })).error("Invalid emoji name.", "BAD_REQUEST", 400);
      (await react("hamlet", id, { emoji_name: "thumbs_up", emoji_code: "1f44e", reaction_type: "unicode_emoji" })).error("Invalid emoji name.", "BAD_REQUEST", 400);
      // Codes Zulip does not know: a skin tone, a clock face Zulip leaves out, FE0F kept.
      for (const code of ["1f44d-1f3fd", "1f550", "2764-fe0f"]) {
        (await react("hamlet", id, { emoji_name: "thumbs_up", emoji_code: code, reaction_type: "unicode_emoji" })).error("Invalid emoji code.", "BAD_REQUEST", 400);
      }
    });
    expect(ev.types()).toEqual([]);
    expect(await stored(id)).toEqual([]);
    (await react("hamlet", id, { emoji_name: "smile", emoji_code: "1f642", reaction_type: "unicode_emoji" })).success();
    (await react("hamlet", id, { emoji_name: "big_smile" })).success();
    expect((await stored(id)).map((r) => [r.emoji_name, r.emoji_code])).toEqual([["smile", "1f642"], ["big_smile", "1f604"]]);
  });
});
