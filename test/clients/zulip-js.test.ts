/**
 * zulip-js (the npm package, 2.x) against a real Parley server listening on 127.0.0.1: the calls a
 * bot or script makes, in the encodings zulip-js uses (multipart POST bodies, query-string
 * PATCH/DELETE parameters, event_types=null). zulip-js runs in Node, its own runtime, through
 * zulip-js-bridge.cjs; the server runs in this process, so the test also checks what was stored.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createUser } from "../../src/actions/users";
import { createServer } from "../../src/server";
import { validateResponse } from "../helpers/openapi";
import { startServer, type TestServer } from "../helpers/server";
import { ZulipJs } from "./zulip-js";

let s: TestServer;
let http: ReturnType<ReturnType<typeof createServer>["listen"]>;
let realm = "";
let z: ZulipJs;
const clients: ZulipJs[] = [];
let me = { id: 0, email: "", apiKey: "" };

const open = (config: ConstructorParameters<typeof ZulipJs>[0]) => {
  const c = new ZulipJs(config);
  clients.push(c);
  return c;
};

/** A zulip-js result, checked to be a success and to match Zulip's documented response. */
async function ok(method: string, path: string, p: Promise<any>) {
  const r = await p;
  if (r?.result !== "success") throw new Error(`${method} ${path}: ${JSON.stringify(r)}`);
  validateResponse(method, `/api/v1${path}`, 200, r);
  return r;
}

beforeAll(async () => {
  s = await startServer();
  http = createServer(s.app).listen({ hostname: "127.0.0.1", port: 0, reusePort: false });
  realm = `http://127.0.0.1:${http.server!.port}`;
  const u = await createUser(s.app, null, { email: "script@zulip.com", fullName: "Script Writer", password: "hunter2hunter2", role: 400 });
  me = { id: u.userId, email: u.email, apiKey: u.apiKey };
  z = open({ username: me.email, apiKey: me.apiKey, realm });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  http.stop(true);
  await s.close();
});

describe("zulip-js against Parley", () => {
  test("logging in with a password fetches the API key", async () => {
    const withPassword = open({ username: me.email, password: "hunter2hunter2", realm });
    expect(await withPassword.call("config")).toEqual({ apiKey: me.apiKey, apiURL: `${realm}/api/v1` });
  });

  test("server settings and the own profile", async () => {
    const settings = await ok("GET", "/server_settings", z.call("server.settings"));
    expect(settings.zulip_feature_level).toBeGreaterThanOrEqual(372);
    const profile = await ok("GET", "/users/me", z.call("users.me.getProfile"));
    expect(profile).toMatchObject({ user_id: me.id, email: me.email, full_name: "Script Writer", is_admin: false });
  });

  test("registering a queue, changing settings and status, and reading the events", async () => {
    const reg = await ok("POST", "/register", z.call("queues.register", { event_types: ["user_settings", "user_status", "drafts", "realm_user"] }));
    expect(reg.last_event_id).toBe(-1);
    expect(reg.user_settings.enter_sends).toBe(false);
    expect(reg.user_status).toEqual({});
    expect(reg.drafts).toEqual([]);
    expect(reg.realm_users.map((u: any) => u.user_id)).toContain(me.id);

    // PATCH: zulip-js puts the parameters in the query string.
    await ok("PATCH", "/settings", z.call("callEndpoint", "/settings", "PATCH", { enter_sends: true, emojiset: "text", timezone: "Europe/Berlin" }));
    await ok("POST", "/users/me/status", z.call("callEndpoint", "/users/me/status", "POST", { status_text: "at lunch", emoji_name: "car" }));
    // POST: a multipart body, arrays JSON-encoded by zulip-js.
    const drafts = await ok("POST", "/drafts", z.call("callEndpoint", "/drafts", "POST", { drafts: [{ type: "", to: [], topic: "", content: "later" }] }));
    expect(drafts.ids).toHaveLength(1);

    const got = await ok("GET", "/events", z.call("events.retrieve", { queue_id: reg.queue_id, last_event_id: -1, dont_block: true }));
    const events = got.events.map(({ id: _id, ...e }: any) => e);
    expect(events).toContainEqual({ type: "user_settings", op: "update", property: "enter_sends", value: true });
    expect(events).toContainEqual({ type: "user_settings", op: "update", property: "emojiset", value: "text" });
    expect(events).toContainEqual({ type: "realm_user", op: "update", person: { user_id: me.id, email: me.email, timezone: "Europe/Berlin" } });
    expect(events).toContainEqual(expect.objectContaining({ type: "user_status", user_id: me.id, status_text: "at lunch", emoji_name: "car" }));
    expect(events).toContainEqual(expect.objectContaining({ type: "drafts", op: "add" }));
    const row = await s.app.db.get<{ settings: string; timezone: string }>("SELECT settings, timezone FROM users WHERE id = ?", [me.id]);
    expect(JSON.parse(row!.settings)).toEqual({ enter_sends: true, emojiset: "text" });
    expect(row!.timezone).toBe("Europe/Berlin");

    await ok("DELETE", "/events", z.call("queues.deregister", { queue_id: reg.queue_id }));
    const gone = await z.call("events.retrieve", { queue_id: reg.queue_id, last_event_id: -1, dont_block: true });
    expect(gone).toMatchObject({ result: "error", code: "BAD_EVENT_QUEUE_ID", queue_id: reg.queue_id });
  });

  test("channels: subscribe, list, look up, topics", async () => {
    const sub = await ok("POST", "/users/me/subscriptions", z.call("users.me.subscriptions.add", { subscriptions: [{ name: "scripts", description: "Bots live here" }] }));
    expect(sub.subscribed).toEqual({ [String(me.id)]: ["scripts"] });
    const streams = await ok("GET", "/streams", z.call("streams.retrieve"));
    expect(streams.streams.map((c: any) => c.name)).toContain("scripts");
    const subs = await ok("GET", "/users/me/subscriptions", z.call("streams.subscriptions.retrieve"));
    expect(subs.subscriptions.map((c: any) => c.name)).toEqual(["scripts"]);
    const { stream_id } = await ok("GET", "/get_stream_id", z.call("streams.getStreamId", "scripts"));
    expect(stream_id).toBe(subs.subscriptions[0].stream_id);
  });

  test("messages: send, fetch with a narrow, react, star, edit, render, typing", async () => {
    const reg = await ok("POST", "/register", z.call("queues.register", { event_types: ["message", "reaction", "update_message", "update_message_flags"] }));
    const sent = await ok("POST", "/messages", z.call("messages.send", { to: "scripts", type: "stream", topic: "builds", content: "Build **passed**" }));
    const dm = await ok("POST", "/messages", z.call("messages.send", { to: [s.users.othello.id], type: "direct", content: "psst" }));
    expect(await s.app.db.get("SELECT content, topic FROM messages WHERE id = ?", [sent.id])).toEqual({ content: "Build **passed**", topic: "builds" });

    const fetched = await ok(
      "GET",
      "/messages",
      z.call("messages.retrieve", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "channel", operand: "scripts" }, { operator: "topic", operand: "builds" }] }),
    );
    expect(fetched.messages.map((m: any) => [m.id, m.subject, m.content])).toEqual([[sent.id, "builds", "<p>Build <strong>passed</strong></p>"]]);

    await ok("POST", `/messages/${sent.id}/reactions`, z.call("reactions.add", { message_id: sent.id, emoji_name: "tada" }));
    await ok("POST", "/messages/flags", z.call("messages.flags.add", { flag: "starred", messages: [sent.id] }));
    // PATCH and GET by id: zulip-js echoes message_id in the query string, which is reported as ignored.
    const edited = await ok("PATCH", `/messages/${sent.id}`, z.call("messages.update", { message_id: sent.id, content: "Build **fixed**" }));
    expect(edited.ignored_parameters_unsupported).toEqual(["message_id"]);
    const one = await ok("GET", `/messages/${sent.id}`, z.call("messages.getById", { message_id: sent.id }));
    expect(one.raw_content).toBe("Build **fixed**");
    expect(one.message.reactions).toEqual([expect.objectContaining({ emoji_name: "tada", user_id: me.id })]);
    expect(one.message.flags).toContain("starred");
    await ok("DELETE", `/messages/${sent.id}/reactions`, z.call("reactions.remove", { message_id: sent.id, emoji_name: "tada" }));
    const rendered = await ok("POST", "/messages/render", z.call("messages.render", "**bold**"));
    expect(rendered.rendered).toBe("<p><strong>bold</strong></p>");
    await ok("POST", "/typing", z.call("typing.send", { to: [s.users.othello.id], op: "start" }));
    const streamId = (await z.call("streams.getStreamId", "scripts")).stream_id;
    const topics = await ok("GET", `/users/me/${streamId}/topics`, z.call("streams.topics.retrieve", { stream_id: streamId }));
    expect(topics.topics.map((t: any) => t.name)).toEqual(["builds", "channel events"]);

    const got = await ok("GET", "/events", z.call("events.retrieve", { queue_id: reg.queue_id, last_event_id: -1, dont_block: true }));
    const types = got.events.map((e: any) => `${e.type}${e.op ? `/${e.op}` : ""}`);
    expect(types).toEqual(["message", "message", "reaction/add", "update_message_flags/add", "update_message", "reaction/remove"]);
    expect(got.events[1].message.id).toBe(dm.id);
  });

  test("callOnEachEvent delivers events as they happen", async () => {
    const cordelia = s.users.cordelia;
    const listener = open({ username: cordelia.email, apiKey: cordelia.apiKey, realm });
    await listener.call("callOnEachEvent", null); // registers with event_types=null
    for (let i = 0; i < 100 && !s.app.events.hasQueues(cordelia.id); i++) await Bun.sleep(20);
    expect(s.app.events.hasQueues(cordelia.id)).toBe(true);
    await ok("POST", "/messages", z.call("messages.send", { to: [cordelia.id], type: "direct", content: "are you there?" }));
    await ok("POST", `/users/me/muted_users/${me.id}`, listener.call("callEndpoint", `/users/me/muted_users/${me.id}`, "POST"));
    const message = await listener.waitForEvent((e) => e.type === "message");
    expect(message.message).toMatchObject({ sender_id: me.id, content: "are you there?" });
    const muted = await listener.waitForEvent((e) => e.type === "muted_users");
    expect(muted.muted_users.map((m: any) => m.id)).toEqual([me.id]);
    for (const e of listener.events) validateResponse("GET", "/api/v1/events", 200, { result: "success", msg: "", events: [e] });
  });

  test("removed endpoints answer the way Zulip does", async () => {
    // GET /realm/filters is gone (405 with the allowed methods); GET /realm/linkifiers replaces it.
    expect(await z.call("filters.retrieve")).toEqual({ result: "error", msg: "Method Not Allowed", code: "BAD_REQUEST", allowed_methods: ["POST"] });
    const linkifiers = await ok("GET", "/realm/linkifiers", z.call("callEndpoint", "/realm/linkifiers", "GET"));
    expect(linkifiers.linkifiers).toEqual([]);
  });

  test("unsubscribing with a JSON list in the query string", async () => {
    const r = await ok("DELETE", "/users/me/subscriptions", z.call("users.me.subscriptions.remove", { subscriptions: JSON.stringify(["scripts"]) }));
    expect(r).toMatchObject({ removed: ["scripts"], not_removed: [] });
  });
});
