/**
 * What a hostile run of the route fuzz test found, pinned down: object keys that name JavaScript's
 * prototype machinery (`__proto__`, `constructor`, `prototype`, and what every object inherits), and
 * lists long enough to break a statement. Every answer is Zulip's error envelope; nothing changes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { fetchRaw } from "../helpers/uploads";
import { decode, MAX_LIST_ITEMS } from "../../src/http/params";
import { collectParams } from "../../src/http/plugin";
import { t } from "elysia";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const isActive = async (userId: number) => (await s.users.iago.client.get(`/users/${userId}`)).success().user.is_active;
const subscribedNames = async () => (await s.users.hamlet.client.get("/users/me/subscriptions")).success().subscriptions.map((x: any) => x.name).sort();

describe("object keys that name prototype properties", () => {
  test("DELETE /users/{id} with actions={constructor: {prototype: ...}} is an unexpected argument, and the user stays active", async () => {
    for (const key of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const events = await s.captureEvents(async () => {
        (await s.users.iago.client.delete(`/users/${s.users.cordelia.id}`, { actions: `{"${key}":{"prototype":{"x":1}}}` })).error(`Argument "${key}" at actions is unexpected`, "BAD_REQUEST", 400);
      });
      expect(events.types()).toEqual([]);
    }
    expect(await isActive(s.users.cordelia.id)).toBe(true);
  });

  test("a schema that takes any key refuses prototype-named ones at any depth, even behind a \\u escape", async () => {
    const register = (caps: string) => s.users.hamlet.client.post("/register", { client_capabilities: caps });
    (await register('{"__proto__":true}')).error('Invalid client_capabilities: the key "__proto__" is not allowed');
    (await register('{"\\u005f_proto__":true}')).error('Invalid client_capabilities: the key "__proto__" is not allowed');
    (await register('{"prototype":true}')).error('Invalid client_capabilities: the key "prototype" is not allowed');
    expect(s.app.events.hasQueues(s.users.hamlet.id)).toBe(false);
    const before = (await s.users.iago.client.get("/realm/profile_fields")).success().custom_fields.length;
    const deep = { vim: { text: "Vim", order: "1" }, emacs: { text: "Emacs", order: "2", extra: [{ constructor: { prototype: { polluted: true } } }] } };
    (await s.users.iago.client.post("/realm/profile_fields", { name: "Editor", field_type: 3, field_data: deep })).error('Invalid field_data: the key "constructor" is not allowed');
    expect((await s.users.iago.client.get("/realm/profile_fields")).success().custom_fields.length).toBe(before);
    expect(({} as any).polluted).toBeUndefined();
  });

  test("decoding: the offending key is found in lists and nested objects, and ordinary keys pass", () => {
    const any = t.Unknown();
    expect(() => decode("x", any, '[1, {"a": [{"b": {"__proto__": {}}}]}]')).toThrow('Invalid x: the key "__proto__" is not allowed');
    expect(() => decode("x", any, '{"a": {"prototype": 1}}')).toThrow('Invalid x: the key "prototype" is not allowed');
    expect(decode("x", any, '{"a": {"constructors": 1, "my_prototype": 2}}')).toEqual({ a: { constructors: 1, my_prototype: 2 } });
    expect(decode("x", t.String(), "constructor")).toBe("constructor");
  });

  test("a form field named __proto__ is a parameter like any other: reported as ignored, never the parameters' prototype", async () => {
    const group = (await s.users.hamlet.client.post("/user_groups/create", { name: "Readers", description: "read", members: [] })).success().group_id;
    const body = "__proto__=Renamed&constructor=x&description=still+read";
    const res = await fetchRaw(s, `/api/v1/user_groups/${group}`, { as: "hamlet", method: "PATCH", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
    expect(await res.json()).toEqual({ result: "success", msg: "", ignored_parameters_unsupported: ["__proto__", "constructor"] });
    const stored = (await s.users.hamlet.client.get("/user_groups")).success().user_groups.find((g: any) => g.id === group);
    expect([stored.name, stored.description]).toEqual(["Readers", "still read"]);
    const params = collectParams(undefined, JSON.parse('{"__proto__": {"name": "x"}}'));
    expect(Object.getPrototypeOf(params.raw)).toBeNull();
    expect(params.raw.name).toBeUndefined();
  });

  test("names a client chooses never reach inherited properties: languages, account types, choices, narrows, code blocks, group mentions", async () => {
    const c = s.users.hamlet.client;
    (await c.patch("/settings", { default_language: "constructor" })).error("Invalid default_language");
    (await s.users.iago.client.post("/realm/profile_fields", { name: "Account", field_type: 7, field_data: { subtype: "toString" } })).error("Invalid external account type");
    const editor = (await s.users.iago.client.post("/realm/profile_fields", { name: "Editor", field_type: 3, field_data: { vim: { text: "Vim", order: "1" } } })).success().id;
    (await c.patch("/users/me/profile_data", { data: [{ id: editor, value: "toString" }] })).error("'toString' is not a valid choice for 'Editor'.");
    const narrowed = await c.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [{ operator: "constructor", operand: "x" }] });
    expect(narrowed.json.result).toBe("error");
    expect(narrowed.status).toBe(400);
    expect(narrowed.text).not.toContain("function");
    await createChannel(s, "hamlet", "code");
    (await s.users.hamlet.client.post("/user_groups/create", { name: "constructor", description: "", members: [s.users.othello.id] })).success();
    const sent = (await c.post("/messages", { type: "stream", to: "code", topic: "t", content: "```constructor\nx\n```\n\n```__proto__\ny\n```\n\n@*constructor*" })).success();
    const html = (await c.get(`/messages/${sent.id}`)).success().message.content as string;
    expect(html).not.toContain("native code");
    expect(html).not.toContain("[object Object]");
    expect(html).toContain('data-code-language="constructor"');
    expect(html).toContain("@constructor</span>");
  });

  test("tus metadata may carry a key named constructor", async () => {
    const metadata = `constructor ${btoa("x")},filename ${btoa("c.txt")}`;
    const r = await fetchRaw(s, "/api/v1/tus", { as: "hamlet", method: "POST", headers: { "tus-resumable": "1.0.0", "upload-length": "1", "upload-metadata": metadata } });
    expect(r.status).toBe(201);
  });
});

describe("every list has a bound", () => {
  test("DELETE /users/me/subscriptions with 50,000 names (440,000 characters) is refused and unsubscribes nothing", async () => {
    await createChannel(s, "hamlet", "kept", { subscribers: ["hamlet"] });
    const before = await subscribedNames();
    const names = Array.from({ length: 50_000 }, (_, i) => `channel-${i}`);
    names[0] = "kept";
    const events = await s.captureEvents(async () => {
      (await s.users.hamlet.client.delete("/users/me/subscriptions", { subscriptions: names })).error(`subscriptions is too long (limit: ${MAX_LIST_ITEMS} items)`, "BAD_REQUEST", 400);
    });
    expect(events.types()).toEqual([]);
    expect(await subscribedNames()).toEqual(before);
  });

  test("a list at the bound is served; narrows and dm operands have bounds of their own", async () => {
    await createChannel(s, "hamlet", "starry", { subscribers: ["hamlet"] });
    const sent = (await s.users.hamlet.client.post("/messages", { type: "stream", to: "starry", topic: "t", content: "star me" })).success().id;
    const atBound = Array.from({ length: MAX_LIST_ITEMS }, () => sent);
    expect((await s.users.hamlet.client.post("/messages/flags", { messages: atBound, op: "add", flag: "starred" })).success().messages).toEqual([sent]);
    (await s.users.hamlet.client.post("/messages/flags", { messages: [...atBound, 1], op: "add", flag: "starred" })).error(`messages is too long (limit: ${MAX_LIST_ITEMS} items)`);
    const fetch = (narrow: object) => s.users.hamlet.client.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow });
    (await fetch(Array.from({ length: 101 }, () => ({ operator: "is", operand: "starred" })))).error("narrow is too long (limit: 100 items)");
    (await fetch([{ operator: "dm", operand: Array.from({ length: 1001 }, (_, i) => i + 1) }])).error('elem["operand"] is too long (limit: 1000 items)');
    (await s.users.hamlet.client.post("/register", { narrow: [["stream"]] })).error("Invalid narrow[0]");
  });

  test("a list whose schema names no bound gets the default one", () => {
    expect(() => decode("ids", t.Array(t.Integer()), JSON.stringify(Array.from({ length: MAX_LIST_ITEMS + 1 }, () => 1)))).toThrow(`ids is too long (limit: ${MAX_LIST_ITEMS} items)`);
    expect(() => decode("pairs", t.Object({ p: t.Array(t.Array(t.String())) }), JSON.stringify({ p: [Array.from({ length: MAX_LIST_ITEMS + 1 }, () => "x")] }))).toThrow(
      `pairs["p"][0] is too long (limit: ${MAX_LIST_ITEMS} items)`,
    );
  });
});
