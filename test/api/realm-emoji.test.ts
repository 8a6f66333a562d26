import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type CastName, type TestServer } from "../helpers/server";
import { fetchRaw, imageMeta, makeAnimatedGif, makePng } from "../helpers/uploads";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const addEmoji = (as: CastName, name: string, data: Uint8Array | string, fileName = "emoji.png") =>
  s.users[as].client.post(`/realm/emoji/${encodeURIComponent(name)}`, { file: new File([data as BlobPart], fileName) });
const emojiList = async () => (await s.users.hamlet.client.get("/realm/emoji")).success().emoji as Record<string, any>;
const byName = async (name: string) => Object.values(await emojiList()).find((e: any) => e.name === name && !e.deactivated);

describe("POST /realm/emoji/{emoji_name}", () => {
  test("a member adds an emoji: resized to fit 64x64, listed, served, and announced to everyone", async () => {
    const events = await s.captureEvents(async () => {
      (await addEmoji("hamlet", "green_tick", await makePng(200, 100, "#00aa00"))).success();
    });
    const e = await byName("green_tick");
    const row = await s.app.db.get<any>("SELECT * FROM realm_emoji WHERE name = 'green_tick'");
    expect(e).toEqual({
      id: String(row.id),
      name: "green_tick",
      source_url: `/user_avatars/${s.app.realm!.id}/emoji/images/${row.id}.png`,
      still_url: null,
      deactivated: false,
      author_id: s.users.hamlet.id,
    });
    for (const name of ["hamlet", "polonius", "desdemona"] as const) {
      const [ev] = events.of(name);
      expect(ev).toMatchObject({ type: "realm_emoji", op: "update" });
      expect((ev as any).realm_emoji[String(row.id)]).toEqual(e);
    }
    // Served without credentials, like Zulip's /user_avatars.
    const r = await fetchRaw(s, e.source_url);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/png");
    const meta = await imageMeta(new Uint8Array(await r.arrayBuffer()));
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 64, 32]);
  });

  test("small images are not enlarged", async () => {
    (await addEmoji("hamlet", "tiny", await makePng(16, 16))).success();
    const r = await fetchRaw(s, (await byName("tiny")).source_url);
    const meta = await imageMeta(new Uint8Array(await r.arrayBuffer()));
    expect([meta.width, meta.height]).toEqual([16, 16]);
  });

  test("an animated emoji stays animated and gets a still image", async () => {
    (await addEmoji("othello", "party-parrot", await makeAnimatedGif(128, 128, 4), "parrot.gif")).success();
    const e = await byName("party-parrot");
    expect(e.source_url).toEndWith(".gif");
    expect(e.still_url).toBe(`/user_avatars/${s.app.realm!.id}/emoji/images/still/${e.id}.png`);
    const anim = await imageMeta(new Uint8Array(await (await fetchRaw(s, e.source_url)).arrayBuffer()));
    expect([anim.format, anim.width, anim.pages]).toEqual(["gif", 64, 4]);
    const still = await imageMeta(new Uint8Array(await (await fetchRaw(s, e.still_url)).arrayBuffer()));
    expect([still.format, still.width, still.height]).toEqual(["png", 64, 64]);
  });

  test("names: spaces become underscores and case does not matter", async () => {
    (await addEmoji("hamlet", "Thumbs Way Up", await makePng(10, 10))).success();
    expect(await byName("thumbs_way_up")).toBeTruthy();
  });

  test("invalid names are refused with Zulip's messages", async () => {
    const png = await makePng(10, 10);
    (await addEmoji("hamlet", "bad!name", png)).error("Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.");
    (await addEmoji("hamlet", "ends_with_", png)).error("Emoji names must end with either a letter or digit.");
    (await addEmoji("hamlet", "ends-", png)).error("Emoji names must end with either a letter or digit.");
    (await addEmoji("hamlet", "   ", png)).error("Emoji name is missing");
    (await addEmoji("hamlet", "émoji", png)).error("Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.");
  });

  test("a name in use is refused", async () => {
    (await addEmoji("hamlet", "same_name", await makePng(10, 10))).success();
    (await addEmoji("othello", "same_name", await makePng(10, 10))).error("A custom emoji with this name already exists.");
    (await addEmoji("othello", "SAME_NAME", await makePng(10, 10))).error("A custom emoji with this name already exists.");
  });

  test("exactly one file must be sent", async () => {
    (await s.users.hamlet.client.post("/realm/emoji/nofile", { note: "x" })).error("You must upload exactly one file.");
    (await s.users.hamlet.client.request("POST", "/realm/emoji/nofile", { note: "x" }, { multipart: true })).error("You must upload exactly one file.");
    const png = await makePng(10, 10);
    const form = new FormData();
    form.append("a", new File([png as BlobPart], "a.png"));
    form.append("b", new File([png as BlobPart], "b.png"));
    const r = await fetchRaw(s, "/api/v1/realm/emoji/twofiles", { as: "hamlet", method: "POST", body: form });
    expect(r.status).toBe(400);
    expect((await r.json()).msg).toBe("You must upload exactly one file.");
    expect(await byName("nofile")).toBeUndefined();
    expect(await byName("twofiles")).toBeUndefined();
  });

  test("files over 5 MiB, non-images and corrupt images are refused", async () => {
    (await addEmoji("hamlet", "huge", new Uint8Array(5 * 1024 * 1024 + 1))).error("Uploaded file is larger than the allowed limit of 5 MiB");
    (await addEmoji("hamlet", "text", "just some text", "a.png")).error("Invalid image format");
    (await addEmoji("hamlet", "svg", '<svg xmlns="http://www.w3.org/2000/svg"/>', "a.svg")).error("Invalid image format");
    const png = await makePng(10, 10);
    const corrupt = Buffer.concat([png.subarray(0, 16), Buffer.from("garbage".repeat(30))]);
    (await addEmoji("hamlet", "corrupt", corrupt)).error("Could not decode image; did you upload an image file?");
    expect(await s.app.db.get("SELECT * FROM realm_emoji WHERE name IN ('huge', 'text', 'svg', 'corrupt')")).toBeUndefined();
  });

  test("only administrators may override a built-in emoji name", async () => {
    (await addEmoji("hamlet", "smile", await makePng(10, 10))).error("Only administrators can override default emoji.");
    (await addEmoji("iago", "smile", await makePng(10, 10))).success();
  });

  test("Zulip's aliases are built-in names too; emoji-datasource names Zulip does not use are free", async () => {
    // name_to_codepoint holds every alias: thumbs_up (👍), dupe (CLDR's ♟ keyword).
    for (const name of ["thumbs_up", "dupe", "big_smile"]) {
      (await addEmoji("hamlet", name, await makePng(10, 10))).error("Only administrators can override default emoji.");
    }
    expect(await s.app.db.get("SELECT * FROM realm_emoji WHERE name IN ('thumbs_up', 'dupe', 'big_smile')")).toBeUndefined();
    // thumbsup and slightly_smiling_face are iamcal's names, not Zulip's.
    (await addEmoji("hamlet", "thumbsup", await makePng(10, 10))).success();
    (await addEmoji("hamlet", "slightly_smiling_face", await makePng(10, 10))).success();
    const names = Object.values((await s.users.hamlet.client.get("/realm/emoji")).success().emoji).map((e: any) => e.name);
    expect(names).toContain("thumbsup");
    expect(names).toContain("slightly_smiling_face");
  });

  test("an overriding custom emoji wins over the Unicode one in Markdown and in reactions, as in Zulip", async () => {
    (await addEmoji("iago", "octopus", await makePng(10, 10))).success();
    const id = (await s.app.db.get<{ id: number }>("SELECT id FROM realm_emoji WHERE name = 'octopus' AND deactivated = 0"))!.id;
    const sent = (await s.users.hamlet.client.post("/messages", { type: "direct", to: JSON.stringify([s.users.othello.id]), content: ":octopus: :tada:" })).success();
    const m = (await s.users.hamlet.client.get(`/messages/${sent.id}`)).success().message;
    expect(m.content).toStartWith('<p><img alt=":octopus:" class="emoji" src="/user_avatars/');
    expect(m.content).toEndWith(' <span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span></p>');
    (await s.users.othello.client.post(`/messages/${sent.id}/reactions`, { emoji_name: "octopus" })).success();
    expect(await s.app.db.all("SELECT emoji_name, emoji_code, reaction_type FROM reactions WHERE message_id = ?", [sent.id])).toEqual([
      { emoji_name: "octopus", emoji_code: String(id), reaction_type: "realm_emoji" },
    ]);
    // The Unicode octopus stays reachable by its code.
    (await s.users.hamlet.client.post(`/messages/${sent.id}/reactions`, { emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji" })).success();
  });

  test("can_add_custom_emoji_group decides who may add: guests never by default", async () => {
    (await addEmoji("polonius", "guest_emoji", await makePng(10, 10))).error("Insufficient permission");
    const { setRealmSettings } = await import("../helpers/people");
    const admins = s.app.systemGroups.get("role:administrators")!;
    const before = s.app.realm!.settings.can_add_custom_emoji_group;
    await setRealmSettings(s, { can_add_custom_emoji_group: admins });
    try {
      (await addEmoji("hamlet", "member_emoji", await makePng(10, 10))).error("Insufficient permission");
      (await addEmoji("shiva", "moderator_emoji", await makePng(10, 10))).error("Insufficient permission");
      (await addEmoji("iago", "admin_emoji", await makePng(10, 10))).success();
    } finally {
      await setRealmSettings(s, { can_add_custom_emoji_group: before });
    }
  });

  test("needs credentials", async () => {
    (await s.anonymous.post("/realm/emoji/anon", { file: new File(["x"], "x.png") })).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
    (await s.anonymous.get("/realm/emoji")).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
  });
});

describe("DELETE /realm/emoji/{emoji_name}", () => {
  test("the author deactivates their emoji; it stays listed as deactivated and its image stays served", async () => {
    (await addEmoji("cordelia", "to_remove", await makePng(10, 10))).success();
    const e = await byName("to_remove");
    const events = await s.captureEvents(async () => {
      (await s.users.cordelia.client.delete("/realm/emoji/to_remove")).success();
    });
    expect((await emojiList())[e.id]).toEqual({ ...e, deactivated: true });
    expect((events.of("othello")[0] as any).realm_emoji[e.id].deactivated).toBe(true);
    expect((await fetchRaw(s, e.source_url)).status).toBe(200);
    // The name is free again.
    (await addEmoji("cordelia", "to_remove", await makePng(12, 12))).success();
  });

  test("others may not, administrators may", async () => {
    (await addEmoji("cordelia", "cordelias", await makePng(10, 10))).success();
    (await s.users.othello.client.delete("/realm/emoji/cordelias")).error("Must be an organization administrator or emoji author");
    (await s.users.shiva.client.delete("/realm/emoji/cordelias")).error("Must be an organization administrator or emoji author");
    (await s.users.iago.client.delete("/realm/emoji/cordelias")).success();
  });

  test("an unknown or already deactivated emoji is 404", async () => {
    (await s.users.iago.client.delete("/realm/emoji/green_tick_nope")).error("Emoji 'green_tick_nope' does not exist", "BAD_REQUEST", 404);
    (await s.users.iago.client.delete("/realm/emoji/cordelias")).error("Emoji 'cordelias' does not exist", "BAD_REQUEST", 404);
  });
});

describe("emoji images and /register", () => {
  test("/register's realm_emoji matches GET /realm/emoji", async () => {
    const state = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm_emoji"] })).success();
    expect(state.realm_emoji).toEqual(await emojiList());
  });

  test("only existing emoji files of this organization are served", async () => {
    const realm = s.app.realm!.id;
    for (const path of [`/user_avatars/${realm}/emoji/images/99999.png`, `/user_avatars/${realm + 1}/emoji/images/1.png`, `/user_avatars/${realm}/emoji/images/still/99999.png`, `/user_avatars/${realm}/emoji/images/..%2F..%2F..%2Fparley.db`]) {
      const r = await fetchRaw(s, path);
      expect({ path, status: r.status }).toEqual({ path, status: 404 });
    }
  });
});
