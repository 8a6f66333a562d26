import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type CastName, type TestServer } from "../helpers/server";
import { fetchRaw, imageMeta, makeAnimatedGif, makePng } from "../helpers/uploads";
import { createUser } from "../../src/actions/users";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const file = (data: Uint8Array | string, name = "me.png") => new File([data as BlobPart], name);
const setAvatar = (as: CastName, data: Uint8Array | string, name?: string) => s.users[as].client.post("/users/me/avatar", { file: file(data, name) });
const userRow = (name: CastName) => s.app.db.get<any>("SELECT avatar_source, avatar_version FROM users WHERE id = ?", [s.users[name].id]);
const registered = async (as: CastName) => (await s.users[as].client.post("/register", { fetch_event_types: ["realm", "realm_user"] })).success();
const served = async (url: string) => {
  const r = await fetchRaw(s, url);
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toBe("image/png");
  return imageMeta(new Uint8Array(await r.arrayBuffer()));
};
const setRealm = (settings: Record<string, unknown>) => s.users.desdemona.client.patch("/realm", settings as any);

describe("POST /users/me/avatar", () => {
  test("a member uploads an avatar: a 100×100 and a 500×500 square, served, versioned, and announced", async () => {
    const before = await userRow("hamlet");
    let body: any;
    const events = await s.captureEvents(async () => {
      body = (await setAvatar("hamlet", await makePng(300, 150, "#aa0000"))).success();
    });
    const after = await userRow("hamlet");
    expect(after).toEqual({ avatar_source: "U", avatar_version: before.avatar_version + 1 });
    const realmId = s.app.realm!.id;
    const url = `/user_avatars/${realmId}/${s.users.hamlet.id}.png?version=${after.avatar_version}`;
    expect(body.avatar_url).toBe(url);
    const small = await served(url);
    expect([small.format, small.width, small.height]).toEqual(["png", 100, 100]);
    const medium = await served(`/user_avatars/${realmId}/${s.users.hamlet.id}-medium.png?version=${after.avatar_version}`);
    expect([medium.width, medium.height]).toEqual([500, 500]);
    const person = {
      user_id: s.users.hamlet.id,
      avatar_source: "U",
      avatar_url: url,
      avatar_url_medium: `/user_avatars/${realmId}/${s.users.hamlet.id}-medium.png?version=${after.avatar_version}`,
      avatar_version: after.avatar_version,
    };
    for (const name of ["hamlet", "othello", "iago", "polonius"] as const) {
      expect(events.of(name).filter((e: any) => e.type === "realm_user")).toEqual([{ type: "realm_user", op: "update", person }] as any);
    }
    // a fresh /register shows the same
    const r = await registered("othello");
    expect(r.realm_users.find((u: any) => u.user_id === s.users.hamlet.id)).toMatchObject({ avatar_url: url, avatar_version: after.avatar_version });
    const own = await registered("hamlet");
    expect([own.avatar_source, own.avatar_url, own.avatar_url_medium]).toEqual(["U", url, person.avatar_url_medium]);
  });

  test("an animated image gives a still avatar of its first frame", async () => {
    const body = (await setAvatar("cordelia", await makeAnimatedGif(64, 64, 3), "me.gif")).success();
    const meta = await served(body.avatar_url);
    expect([meta.format, meta.width, meta.height, meta.pages ?? 1]).toEqual(["png", 100, 100, 1]);
  });

  test("a deactivation that deletes the profile stops serving the uploaded avatar", async () => {
    const leaving = await createUser(s.app, null, { email: "rosencrantz@zulip.com", fullName: "Rosencrantz", password: null, role: 400 });
    const url = (await s.clientFor(leaving.email, leaving.apiKey).post("/users/me/avatar", { file: file(await makePng(30, 30)) })).success().avatar_url;
    expect((await fetchRaw(s, url)).status).toBe(200);
    (await s.users.iago.client.delete(`/users/${leaving.userId}`, { actions: { delete_profile: true } } as any)).success();
    expect((await fetchRaw(s, url)).status).toBe(404);
  });

  test("anything but exactly one image is refused with Zulip's messages, and nothing changes", async () => {
    const before = await userRow("othello");
    (await s.users.othello.client.post("/users/me/avatar", {})).error("You must upload exactly one avatar.");
    (await s.users.othello.client.post("/users/me/avatar", { a: file(await makePng(10, 10)), b: file(await makePng(10, 10)) })).error("You must upload exactly one avatar.");
    (await setAvatar("othello", "plain text, no picture", "notes.txt")).error("Invalid image format");
    (await setAvatar("othello", new Uint8Array(6 * 1024 * 1024), "huge.png")).error("Uploaded file is larger than the allowed limit of 5 MiB");
    // a PNG cut short: an image type, but it does not decode
    const junk = (await makePng(300, 300)).subarray(0, 60);
    (await setAvatar("othello", junk, "broken.png")).error("Could not decode image; did you upload an image file?");
    expect(await userRow("othello")).toEqual(before);
    expect((await fetchRaw(s, `/user_avatars/${s.app.realm!.id}/${s.users.othello.id}.png`)).status).toBe(404);
  });

  test("with avatar changes disabled a member is refused, an administrator is not", async () => {
    (await setRealm({ avatar_changes_disabled: true })).success();
    try {
      const before = await userRow("othello");
      const png = await makePng(40, 40);
      (await setAvatar("othello", png)).error("Avatar changes are disabled in this organization.");
      (await s.users.othello.client.delete("/users/me/avatar")).error("Avatar changes are disabled in this organization.");
      expect(await userRow("othello")).toEqual(before);
      (await setAvatar("iago", png)).success();
      expect((await userRow("iago")).avatar_source).toBe("U");
    } finally {
      (await setRealm({ avatar_changes_disabled: false })).success();
    }
  });

  test("a bot may set its own avatar, and its owner hears of it as a realm_bot update", async () => {
    const bot = (await s.users.hamlet.client.post("/bots", { full_name: "Portrait Bot", short_name: "portrait" })).success();
    const client = s.clientFor("portrait-bot@parley.test", bot.api_key);
    let url = "";
    const events = await s.captureEvents(async () => {
      url = (await client.post("/users/me/avatar", { file: file(await makePng(20, 20)) })).success().avatar_url;
    });
    expect(events.of("hamlet").filter((e: any) => e.type === "realm_bot")).toEqual([{ type: "realm_bot", op: "update", bot: { user_id: bot.user_id, avatar_url: url } }] as any);
    expect(events.of("othello").some((e: any) => e.type === "realm_bot")).toBe(false);
  });
});

describe("a bot's avatar through PATCH /bots/{bot_id}", () => {
  test("its owner sends one image: the bot's avatar is uploaded, answered and announced; others may not; bad files change nothing", async () => {
    const bot = (await s.users.hamlet.client.post("/bots", { full_name: "Ghost Bot", short_name: "ghost" })).success();
    const png = await makePng(60, 30);
    (await s.users.othello.client.patch(`/bots/${bot.user_id}`, { file: file(png) } as any)).error("Insufficient permission");
    (await s.users.hamlet.client.patch(`/bots/${bot.user_id}`, { a: file(png), b: file(png) } as any)).error("You may only upload one file at a time");
    (await s.users.hamlet.client.patch(`/bots/${bot.user_id}`, { file: file("no image", "x.txt") } as any)).error("Invalid image format");
    const row = () => s.app.db.get<any>("SELECT avatar_source, avatar_version FROM users WHERE id = ?", [bot.user_id]);
    const before = await row();
    expect(before.avatar_source).toBe("G");
    let body: any;
    const events = await s.captureEvents(async () => {
      body = (await s.users.hamlet.client.patch(`/bots/${bot.user_id}`, { file: file(png), full_name: "Ghost of the King" } as any)).success();
    });
    const after = await row();
    expect(after).toEqual({ avatar_source: "U", avatar_version: before.avatar_version + 1 });
    expect(body).toMatchObject({ full_name: "Ghost of the King", avatar_url: `/user_avatars/${s.app.realm!.id}/${bot.user_id}.png?version=${after.avatar_version}` });
    expect(body.ignored_parameters_unsupported).toBeUndefined();
    const meta = await served(body.avatar_url);
    expect([meta.width, meta.height]).toEqual([100, 100]);
    expect(events.of("hamlet")).toContainEqual({ type: "realm_bot", op: "update", bot: { user_id: bot.user_id, avatar_url: body.avatar_url } } as any);
    expect(events.of("othello").find((e: any) => e.type === "realm_user" && e.person.avatar_url)).toMatchObject({ person: { user_id: bot.user_id, avatar_source: "U" } });
  });
});

describe("DELETE /users/me/avatar", () => {
  test("back to the Gravatar avatar: the files go, the version moves on, everyone hears", async () => {
    (await setAvatar("shiva", await makePng(50, 50))).success();
    const uploaded = await userRow("shiva");
    let body: any;
    const events = await s.captureEvents(async () => {
      body = (await s.users.shiva.client.delete("/users/me/avatar")).success();
    });
    expect(await userRow("shiva")).toEqual({ avatar_source: "G", avatar_version: uploaded.avatar_version + 1 });
    expect(body.avatar_url).toStartWith("https://secure.gravatar.com/avatar/");
    expect((await fetchRaw(s, `/user_avatars/${s.app.realm!.id}/${s.users.shiva.id}.png`)).status).toBe(404);
    const [e] = events.of("hamlet").filter((x: any) => x.type === "realm_user") as any[];
    expect(e.person).toEqual({ user_id: s.users.shiva.id, avatar_source: "G", avatar_url: body.avatar_url, avatar_url_medium: expect.stringContaining("&s=500"), avatar_version: uploaded.avatar_version + 1 });
    // nothing to remove: no change and no event
    const again = await s.captureEvents(async () => (await s.users.shiva.client.delete("/users/me/avatar")).success());
    expect(again.of("hamlet")).toEqual([]);
  });
});

describe("the organization's icon and logos", () => {
  test("an administrator uploads the icon: a 100×100 square, in /register, announced to everyone", async () => {
    const realmId = s.app.realm!.id;
    let body: any;
    const events = await s.captureEvents(async () => {
      body = (await s.users.iago.client.post("/realm/icon", { file: file(await makePng(400, 200)) })).success();
    });
    expect(body.icon_url).toMatch(new RegExp(`^/user_avatars/${realmId}/realm/icon\\.png\\?version=\\d+$`));
    const meta = await served(body.icon_url);
    expect([meta.width, meta.height]).toEqual([100, 100]);
    for (const name of ["hamlet", "polonius", "desdemona"] as const) {
      expect(events.of(name)).toEqual([{ type: "realm", op: "update_dict", property: "icon", data: { icon_url: body.icon_url, icon_source: "U" } }] as any);
    }
    const r = await registered("hamlet");
    expect([r.realm_icon_url, r.realm_icon_source]).toEqual([body.icon_url, "U"]);
    expect((await s.anonymous.get("/server_settings")).success().realm_icon).toBe(body.icon_url);

    const removed = await s.captureEvents(async () => {
      body = (await s.users.iago.client.delete("/realm/icon")).success();
    });
    expect(body.icon_url).toStartWith("https://secure.gravatar.com/avatar/");
    expect(removed.of("hamlet")).toEqual([{ type: "realm", op: "update_dict", property: "icon", data: { icon_url: body.icon_url, icon_source: "G" } }] as any);
    const again = await registered("hamlet");
    expect([again.realm_icon_url, again.realm_icon_source]).toEqual([body.icon_url, "G"]);
  });

  test("day and night logos are kept apart, fit 800×100, and fall back to the default logo", async () => {
    const fresh = await registered("hamlet");
    expect([fresh.realm_logo_source, fresh.realm_night_logo_source]).toEqual(["D", "D"]);
    expect(fresh.realm_logo_url).toBe("/static/images/logo/zulip-org-logo.svg?version=0");
    const def = await fetchRaw(s, fresh.realm_logo_url);
    expect([def.status, def.headers.get("content-type")]).toEqual([200, "image/svg+xml"]);

    const events = await s.captureEvents(async () => {
      (await s.users.desdemona.client.post("/realm/logo", { file: file(await makePng(1600, 400)), night: true })).success();
    });
    const r = await registered("hamlet");
    expect(r.realm_night_logo_source).toBe("U");
    expect(r.realm_logo_source).toBe("D");
    expect(events.of("hamlet")).toEqual([
      { type: "realm", op: "update_dict", property: "night_logo", data: { night_logo_url: r.realm_night_logo_url, night_logo_source: "U" } },
    ] as any);
    const meta = await served(r.realm_night_logo_url);
    expect([meta.width, meta.height]).toEqual([400, 100]);

    (await s.users.desdemona.client.post("/realm/logo", { file: file(await makePng(200, 50)), night: false })).success();
    const day = await registered("hamlet");
    expect(day.realm_logo_source).toBe("U");
    const small = await served(day.realm_logo_url);
    expect([small.width, small.height]).toEqual([200, 50]); // never enlarged

    const back = await s.captureEvents(async () => (await s.users.desdemona.client.delete("/realm/logo", { night: true })).success());
    expect(back.of("othello")).toEqual([
      { type: "realm", op: "update_dict", property: "night_logo", data: { night_logo_url: "/static/images/logo/zulip-org-logo.svg?version=0", night_logo_source: "D" } },
    ] as any);
    const after = await registered("hamlet");
    expect([after.realm_logo_source, after.realm_night_logo_source]).toEqual(["U", "D"]);
  });

  test("members, guests and bots may not change them; bad files are refused", async () => {
    const before = await registered("hamlet");
    const png = await makePng(30, 30);
    for (const who of ["hamlet", "shiva", "polonius"] as const) {
      (await s.users[who].client.post("/realm/icon", { file: file(png) })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      (await s.users[who].client.delete("/realm/icon")).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      (await s.users[who].client.post("/realm/logo", { file: file(png), night: false })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      (await s.users[who].client.delete("/realm/logo", { night: false })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    }
    const bot = (await s.users.hamlet.client.post("/bots", { full_name: "Icon Bot", short_name: "iconbot" })).success();
    (await s.clientFor("iconbot-bot@parley.test", bot.api_key).post("/realm/icon", { file: file(png) })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    (await s.users.iago.client.post("/realm/icon", {})).error("You must upload exactly one icon.");
    (await s.users.iago.client.post("/realm/logo", { night: false })).error("You must upload exactly one logo.");
    (await s.users.iago.client.post("/realm/icon", { file: file("not an image", "a.txt") })).error("Invalid image format");
    (await s.users.iago.client.post("/realm/logo", { file: file(png), night: "maybe" })).error("night is not a boolean");
    const after = await registered("hamlet");
    for (const k of ["realm_icon_url", "realm_icon_source", "realm_logo_url", "realm_logo_source", "realm_night_logo_url", "realm_night_logo_source"]) expect([k, after[k]]).toEqual([k, before[k]]);
  });
});
