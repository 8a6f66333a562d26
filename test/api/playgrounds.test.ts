import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const python = { name: "Python playground", pygments_language: "Python", url_template: "https://python.example.com?code={code}" };
const stored = () => s.app.db.all("SELECT name, pygments_language, url_template FROM playgrounds ORDER BY id");

describe("POST /realm/playgrounds", () => {
  test("an administrator adds a playground and every user gets the full list", async () => {
    let id = 0;
    const events = await s.captureEvents(async () => {
      id = (await s.users.iago.client.post("/realm/playgrounds", python)).success().id;
    });
    expect(id).toBeGreaterThan(0);
    expect(await stored()).toEqual([python]);
    const expected = { type: "realm_playgrounds", realm_playgrounds: [{ id, ...python }] };
    for (const name of ["iago", "hamlet", "polonius", "desdemona"] as const) expect(events.of(name)).toEqual([expected]);
  });

  test("name, language and template are trimmed", async () => {
    const r = (await s.users.desdemona.client.post("/realm/playgrounds", { name: "  Rust  ", pygments_language: " Rust ", url_template: " https://play.rust-lang.org/{?code} " })).success();
    const row = await s.app.db.get("SELECT * FROM playgrounds WHERE id = ?", [r.id]);
    expect(row).toMatchObject({ name: "Rust", pygments_language: "Rust", url_template: "https://play.rust-lang.org/{?code}" });
  });

  test("members, moderators and guests are refused and nothing is stored", async () => {
    const before = await stored();
    for (const name of ["hamlet", "shiva", "polonius"] as const) {
      (await s.users[name].client.post("/realm/playgrounds", { ...python, name: "Nope" })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL", 400);
    }
    expect(await stored()).toEqual(before);
  });

  test("the template must be RFC 6570 with exactly one variable named code", async () => {
    const c = s.users.iago.client;
    const add = (url_template: string) => c.post("/realm/playgrounds", { name: "T", pygments_language: "C", url_template });
    (await add("https://x.example.com/{code")).error("Invalid URL template.");
    (await add("https://x.example.com/{=code}")).error("Invalid URL template.");
    (await add("https://x.example.com/a b/{code}")).error("Invalid URL template.");
    const onlyCode = '"code" should be the only variable present in the URL template';
    (await add("https://x.example.com/")).error(onlyCode);
    (await add("https://x.example.com/{src}")).error(onlyCode);
    (await add("https://x.example.com/{?code,lang}")).error(onlyCode);
    (await add("https://x.example.com/?code=")).error(onlyCode);
    (await add("https://x.example.com/?code=%s")).error("Invalid URL template.");
    expect(await s.app.db.get("SELECT count(*) AS n FROM playgrounds WHERE name = 'T'")).toEqual({ n: 0 });
    (await add("https://x.example.com/{#code}")).success();
  });

  test("blank or malformed names and languages are clear errors", async () => {
    const c = s.users.iago.client;
    (await c.post("/realm/playgrounds", { ...python, name: "   " })).error("name cannot be blank");
    (await c.post("/realm/playgrounds", { ...python, name: "X", pygments_language: "" })).error("pygments_language cannot be blank");
    (await c.post("/realm/playgrounds", { ...python, name: "X", pygments_language: "Py<thon>" })).error("Invalid characters in pygments language");
    (await c.post("/realm/playgrounds", { ...python, name: "X", pygments_language: "P".repeat(41) })).error("pygments_language is too long (limit: 40 characters)");
  });

  test("a missing parameter is named", async () => {
    (await s.users.iago.client.post("/realm/playgrounds", { name: "X", pygments_language: "C" })).error("Missing 'url_template' argument", "REQUEST_VARIABLE_MISSING", 400);
  });

  test("the same name for the same language is refused", async () => {
    (await s.users.iago.client.post("/realm/playgrounds", python)).error("Realm playground with this Realm, Pygments language and Name already exists.");
  });
});

describe("DELETE /realm/playgrounds/{playground_id}", () => {
  test("an administrator removes a playground and everyone gets the remaining list", async () => {
    const id = (await s.users.iago.client.post("/realm/playgrounds", { name: "Go", pygments_language: "Go", url_template: "https://go.dev/play/{?code}" })).success().id;
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.delete(`/realm/playgrounds/${id}`)).success();
    });
    expect(await s.app.db.get("SELECT * FROM playgrounds WHERE id = ?", [id])).toBeUndefined();
    const list = events.of("hamlet")[0]!.realm_playgrounds as { id: number }[];
    expect(events.of("hamlet")).toHaveLength(1);
    expect(list.map((p) => p.id)).not.toContain(id);
    expect(list.length).toBe((await stored()).length);
    expect(events.of("polonius")).toEqual(events.of("hamlet"));
  });

  test("non-administrators cannot remove, and the playground stays", async () => {
    const [first] = await s.app.db.all<{ id: number }>("SELECT id FROM playgrounds ORDER BY id LIMIT 1");
    (await s.users.hamlet.client.delete(`/realm/playgrounds/${first!.id}`)).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL", 400);
    expect(await s.app.db.get("SELECT id FROM playgrounds WHERE id = ?", [first!.id])).toEqual({ id: first!.id });
  });

  test("an unknown or malformed id is refused without events", async () => {
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.delete("/realm/playgrounds/99999")).error("Invalid playground", "BAD_REQUEST", 400);
      (await s.users.iago.client.delete("/realm/playgrounds/abc")).error("Invalid playground_id", "BAD_REQUEST", 400);
    });
    expect(events.types()).toEqual([]);
  });
});

describe("realm_playgrounds in /register", () => {
  test("the initial state lists every playground in id order", async () => {
    const r = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm_playgrounds"] })).success();
    const rows = await s.app.db.all("SELECT id, name, pygments_language, url_template FROM playgrounds ORDER BY id");
    expect(r.realm_playgrounds).toEqual(rows);
    expect(r.realm_playgrounds.length).toBeGreaterThan(1);
  });
});
