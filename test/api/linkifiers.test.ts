import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { linkifierList } from "../../src/actions/linkifiers";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const capable = { notification_settings_null: true, linkifier_url_template: true };
const stored = () => s.app.db.all('SELECT id, pattern, url_template, "order" FROM linkifiers ORDER BY "order", id');
const issues = { pattern: "#(?P<id>[0-9]+)", url_template: "https://github.com/zulip/zulip/issues/{id}" };

describe("POST /realm/filters", () => {
  test("an administrator adds a linkifier; queues that understand URL templates get the whole list", async () => {
    const c = s.users.iago.client;
    const modern = (await s.users.hamlet.client.post("/register", { event_types: ["realm_linkifiers"], client_capabilities: capable })).success();
    const old = (await s.users.hamlet.client.post("/register", { event_types: ["realm_linkifiers"] })).success();
    const id = (await c.post("/realm/filters", { pattern: `  ${issues.pattern} `, url_template: ` ${issues.url_template}` })).success().id;
    expect(await stored()).toEqual([{ id, ...issues, order: 0 }]);
    const events = async (queue_id: string) => (await s.users.hamlet.client.get("/events", { queue_id, last_event_id: -1, dont_block: true })).success().events;
    expect(await events(modern.queue_id)).toEqual([{ id: 0, type: "realm_linkifiers", realm_linkifiers: [{ id, ...issues }] }]);
    expect(await events(old.queue_id)).toEqual([]);
    expect(await linkifierList(s.app)).toEqual([{ id, ...issues }]);
  });

  test("new linkifiers are ordered last", async () => {
    const id = (await s.users.desdemona.client.post("/realm/filters", { pattern: "PR(?P<num>\\d+)", url_template: "https://example.com/pr/{num}" })).success().id;
    expect((await stored()).map((l: any) => [l.id, l.order])).toEqual([[1, 0], [id, 1]]);
  });

  test("the pattern's groups and the template's variables must match", async () => {
    const c = s.users.iago.client;
    (await c.post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://x.example.com/{id}/{repo}" })).error(
      "Group 'repo' in URL template is not present in linkifier pattern.",
    );
    (await c.post("/realm/filters", { pattern: "(?P<org>\\w+)#(?P<id>[0-9]+)", url_template: "https://x.example.com/{id}" })).error(
      "Group 'org' in linkifier pattern is not present in URL template.",
    );
    (await c.post("/realm/filters", { pattern: "#(?P<id>[0-9]+", url_template: "https://x.example.com/{id}" })).error("Bad regular expression: missing )");
    (await c.post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://x.example.com/{id" })).error("Invalid URL template.");
    (await c.post("/realm/filters", { pattern: "", url_template: "https://x.example.com/" })).error("This field cannot be blank.");
    (await c.post("/realm/filters", { pattern: "x", url_template: "  " })).error("This field cannot be blank.");
    (await c.post("/realm/filters", issues)).error("Realm filter with this Realm and Pattern already exists.");
    (await c.post("/realm/filters", { pattern: "x" })).error("Missing 'url_template' argument", "REQUEST_VARIABLE_MISSING");
    expect(await stored()).toHaveLength(2);
  });

  test("members, moderators and guests are refused", async () => {
    for (const name of ["hamlet", "shiva", "polonius"] as const) {
      (await s.users[name].client.post("/realm/filters", { pattern: "T(?P<id>\\d+)", url_template: "https://t.example.com/{id}" })).error(
        "Must be an organization administrator",
        "UNAUTHORIZED_PRINCIPAL",
      );
    }
    expect(await stored()).toHaveLength(2);
  });
});

describe("GET /realm/linkifiers and /register", () => {
  test("every user can list them in order", async () => {
    const r = (await s.users.polonius.client.get("/realm/linkifiers")).success();
    expect(r.linkifiers.map((l: any) => l.pattern)).toEqual([issues.pattern, "PR(?P<num>\\d+)"]);
  });

  test("register shows them only to clients with linkifier_url_template; realm_filters is always empty", async () => {
    const modern = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm_linkifiers", "realm_filters"], client_capabilities: capable })).success();
    expect(modern.realm_linkifiers).toHaveLength(2);
    expect(modern.realm_filters).toEqual([]);
    const old = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm_linkifiers"] })).success();
    expect(old.realm_linkifiers).toEqual([]);
  });
});

describe("PATCH /realm/filters/{filter_id}", () => {
  test("an administrator changes pattern and template", async () => {
    const [first] = (await stored()) as any[];
    const events = await s.captureEvents(async () => {
      (await s.users.iago.client.patch(`/realm/filters/${first.id}`, { pattern: "#(?P<id>[0-9]{2,})", url_template: "https://example.com/issues/{id}" })).success();
    });
    expect(((await stored()) as any[])[0]).toMatchObject({ id: first.id, pattern: "#(?P<id>[0-9]{2,})", url_template: "https://example.com/issues/{id}" });
    expect(events.of("hamlet")).toEqual([]); // capture queues lack linkifier_url_template
  });

  test("missing linkifiers, bad values and non-administrators are refused", async () => {
    const [first] = (await stored()) as any[];
    (await s.users.iago.client.patch("/realm/filters/999", issues)).error("Linkifier not found.");
    (await s.users.iago.client.patch(`/realm/filters/${first.id}`, { pattern: "PR(?P<num>\\d+)", url_template: "https://example.com/pr/{num}" })).error(
      "Realm filter with this Realm and Pattern already exists.",
    );
    (await s.users.iago.client.patch(`/realm/filters/${first.id}`, { pattern: "(?P<a>x)", url_template: "https://e.com/" })).error(
      "Group 'a' in linkifier pattern is not present in URL template.",
    );
    (await s.users.hamlet.client.patch(`/realm/filters/${first.id}`, issues)).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
  });
});

describe("PATCH /realm/linkifiers", () => {
  test("reorders the linkifiers", async () => {
    const ids = ((await stored()) as any[]).map((l) => l.id);
    (await s.users.iago.client.patch("/realm/linkifiers", { ordered_linkifier_ids: [...ids].reverse() })).success();
    expect(((await stored()) as any[]).map((l) => l.id)).toEqual([...ids].reverse());
    expect((await linkifierList(s.app)).map((l) => l.id)).toEqual([...ids].reverse());
  });

  test("the list must name each linkifier exactly once", async () => {
    const ids = ((await stored()) as any[]).map((l) => l.id);
    const c = s.users.iago.client;
    (await c.patch("/realm/linkifiers", { ordered_linkifier_ids: [ids[0], ids[0]] })).error("The ordered list must not contain duplicated linkifiers");
    (await c.patch("/realm/linkifiers", { ordered_linkifier_ids: [ids[0]] })).error("The ordered list must enumerate all existing linkifiers exactly once");
    (await c.patch("/realm/linkifiers", { ordered_linkifier_ids: [...ids, 999] })).error("The ordered list must enumerate all existing linkifiers exactly once");
    (await s.users.hamlet.client.patch("/realm/linkifiers", { ordered_linkifier_ids: ids })).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
  });
});

describe("DELETE /realm/filters/{filter_id}", () => {
  test("an administrator removes a linkifier", async () => {
    const [first] = (await stored()) as any[];
    (await s.users.hamlet.client.delete(`/realm/filters/${first.id}`)).error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
    (await s.users.iago.client.delete(`/realm/filters/${first.id}`)).success();
    expect(((await stored()) as any[]).map((l) => l.id)).not.toContain(first.id);
    expect((await linkifierList(s.app)).map((l) => l.id)).not.toContain(first.id);
    (await s.users.iago.client.delete(`/realm/filters/${first.id}`)).error("Linkifier not found.");
  });
});
