// The public-access option: with enable_spectator_access on, someone without an account reads the
// web-public channels through GET /messages, naming `channels:web-public` in the narrow (Zulip's rule).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { fetchRaw } from "../helpers/uploads";

let s: TestServer;
let open: number;
let publicOnly: number;
const sent: Record<string, number> = {};
beforeAll(async () => {
  s = await startServer();
  (await s.users.desdemona.client.patch("/realm", { enable_spectator_access: true })).success();
  open = await createChannel(s, "desdemona", "Open Air", { subscribers: ["hamlet"] });
  (await s.users.desdemona.client.patch(`/streams/${open}`, { is_web_public: true })).success();
  publicOnly = await createChannel(s, "desdemona", "Members Hall", { subscribers: ["hamlet"] });
  await createChannel(s, "desdemona", "Back Office", { subscribers: ["hamlet"], invite_only: true });
  const send = async (key: string, to: string, topic: string, content: string) =>
    (sent[key] = (await s.users.hamlet.client.post("/messages", { type: "stream", to, topic, content })).success().id);
  await send("open1", "Open Air", "weather", "Sunny with a chance of **rain**");
  await send("hall", "Members Hall", "weather", "members only");
  await send("office", "Back Office", "weather", "secret");
  await send("open2", "Open Air", "news", "Nothing new today");
  (await s.users.hamlet.client.post("/messages", { type: "direct", to: [s.users.othello.id], content: "private" })).success();
});
afterAll(() => s.close());

const WEB_PUBLIC = { operator: "channels", operand: "web-public" };
const fetchAs = (narrow: unknown[], extra: Record<string, unknown> = {}) =>
  s.anonymous.get("/messages", { anchor: "newest", num_before: 50, num_after: 0, narrow, ...extra } as any);

describe("GET /messages without an account", () => {
  test("reads the web-public channels only, every message read, with avatar URLs", async () => {
    const r = (await fetchAs([WEB_PUBLIC])).success();
    const ids = r.messages.map((m: any) => m.id);
    // the channel's own notices (its creation, made web-public) are there too
    expect(ids).toEqual(expect.arrayContaining([sent.open1, sent.open2]));
    expect(ids).not.toContain(sent.hall);
    expect(ids).not.toContain(sent.office);
    expect(r.messages.every((m: any) => m.stream_id === open && m.display_recipient === "Open Air" && m.type === "stream")).toBe(true);
    expect(r.messages.every((m: any) => m.flags.length === 1 && m.flags[0] === "read")).toBe(true);
    expect(r.messages.find((m: any) => m.id === sent.open1)).toMatchObject({ flags: ["read"], sender_id: s.users.hamlet.id, sender_full_name: "King Hamlet", content: "<p>Sunny with a chance of <strong>rain</strong></p>" });
    // no client_gravatar for spectators unless asked: the URL is there
    expect(r.messages.find((m: any) => m.id === sent.open1).avatar_url).toStartWith("https://secure.gravatar.com/avatar/");
    expect(r).toMatchObject({ found_newest: true, found_oldest: true, found_anchor: false });
  });

  test("narrows by channel, topic, sender, search and id within the web-public channels", async () => {
    const ids = async (narrow: unknown[]) => (await fetchAs([WEB_PUBLIC, ...narrow])).success().messages.map((m: any) => m.id);
    expect(await ids([{ operator: "channel", operand: "Open Air" }, { operator: "topic", operand: "news" }])).toEqual([sent.open2]);
    expect(await ids([{ operator: "stream", operand: open }, { operator: "sender", operand: s.users.hamlet.id }])).toEqual([sent.open1, sent.open2]);
    expect(await ids([{ operator: "sender", operand: s.users.hamlet.email }])).toEqual([sent.open1, sent.open2]);
    expect(await ids([{ operator: "search", operand: "sunny" }])).toEqual([sent.open1]);
    expect(await ids([{ operator: "search", operand: "members" }])).toEqual([]); // the public channel's message stays out
    expect(await ids([{ operator: "id", operand: String(sent.hall) }])).toEqual([]);
    expect(await ids([{ operator: "topic", operand: "weather", negated: true }])).not.toContain(sent.open1);
    expect(await ids([{ operator: "topic", operand: "weather", negated: true }])).toContain(sent.open2);
  });

  test("first_unread is the newest message, and message_ids returns only web-public ones", async () => {
    const r = (await s.anonymous.get("/messages", { anchor: "first_unread", num_before: 1, num_after: 1, narrow: [WEB_PUBLIC] } as any)).success();
    expect(r.messages.map((m: any) => m.id)).toEqual([sent.open2]);
    const byIds = (await s.anonymous.get("/messages", { message_ids: [sent.open1, sent.hall, sent.office], narrow: [WEB_PUBLIC] } as any)).success();
    expect(byIds.messages.map((m: any) => m.id)).toEqual([sent.open1]);
  });

  test("without channels:web-public, with an operator spectators may not use, or a channel that is not web-public, it is refused", async () => {
    (await fetchAs([])).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
    (await fetchAs([{ operator: "channel", operand: "Open Air" }])).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
    (await fetchAs([{ ...WEB_PUBLIC, negated: true }])).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
    for (const term of [{ operator: "is", operand: "starred" }, { operator: "dm", operand: [s.users.othello.id] }, { operator: "in", operand: "home" }]) {
      (await fetchAs([WEB_PUBLIC, term])).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
    }
    (await fetchAs([WEB_PUBLIC, { operator: "channel", operand: "Members Hall" }])).error("Invalid narrow operator: unknown web-public channel Members Hall", "BAD_NARROW", 400);
    (await fetchAs([WEB_PUBLIC, { operator: "channel", operand: publicOnly }])).error(`Invalid narrow operator: unknown web-public channel ${publicOnly}`, "BAD_NARROW", 400);
    (await fetchAs([WEB_PUBLIC, { operator: "channel", operand: "Back Office" }])).error("Invalid narrow operator: unknown web-public channel Back Office", "BAD_NARROW", 400);
  });

  test("nothing for spectators once the organization turns public access off, or once the channel is archived", async () => {
    (await s.users.desdemona.client.patch("/realm", { enable_spectator_access: false })).success();
    try {
      (await fetchAs([WEB_PUBLIC])).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
    } finally {
      (await s.users.desdemona.client.patch("/realm", { enable_spectator_access: true })).success();
    }
    const gone = await createChannel(s, "desdemona", "Old Square", { subscribers: ["hamlet"] });
    (await s.users.desdemona.client.patch(`/streams/${gone}`, { is_web_public: true })).success();
    const id = (await s.users.hamlet.client.post("/messages", { type: "stream", to: "Old Square", topic: "t", content: "bye" })).success().id;
    expect((await fetchAs([WEB_PUBLIC])).success().messages.map((m: any) => m.id)).toContain(id);
    (await s.users.desdemona.client.delete(`/streams/${gone}`)).success();
    expect((await fetchAs([WEB_PUBLIC])).success().messages.map((m: any) => m.id)).not.toContain(id);
  });

  test("a logged-in user's request is unchanged: their own flags and every channel they may read", async () => {
    const r = (await s.users.hamlet.client.get("/messages", { anchor: "newest", num_before: 50, num_after: 0, narrow: [] })).success();
    expect(r.messages.map((m: any) => m.id)).toEqual(expect.arrayContaining([sent.open1, sent.hall, sent.office]));
    expect(r.messages.find((m: any) => m.id === sent.open1).avatar_url).toBeNull(); // client_gravatar defaults to true for users
    // a user who never received them reads the web-public channel's history as such (historical), not as a spectator
    const other = (await s.users.othello.client.get("/messages", { anchor: "newest", num_before: 50, num_after: 0, narrow: [WEB_PUBLIC] })).success();
    expect(other.messages.find((m: any) => m.id === sent.open1).flags).toEqual(["read", "historical"]);
  });

  test("GET /messages/{id} gives a web-public channel's message, and the same 401 for every other id", async () => {
    const r = (await s.anonymous.get(`/messages/${sent.open1}`)).success();
    expect(r.raw_content).toBe("Sunny with a chance of **rain**");
    expect(r.message).toMatchObject({ id: sent.open1, flags: ["read"], display_recipient: "Open Air", content: "<p>Sunny with a chance of <strong>rain</strong></p>" });
    const dm = (await s.users.hamlet.client.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [{ operator: "is", operand: "dm" }] })).success().messages[0].id;
    for (const id of [sent.hall, sent.office, dm, 999_999]) {
      (await s.anonymous.get(`/messages/${id}`)).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
    }
    (await s.users.desdemona.client.patch("/realm", { enable_spectator_access: false })).success();
    try {
      (await s.anonymous.get(`/messages/${sent.open1}`)).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
    } finally {
      (await s.users.desdemona.client.patch("/realm", { enable_spectator_access: true })).success();
    }
    // users still get their own view
    expect((await s.users.hamlet.client.get(`/messages/${sent.office}`)).success().message.id).toBe(sent.office);
  });

  test("bad credentials are still refused, not read as a spectator", async () => {
    const res = await fetchRaw(s, "/api/v1/messages?anchor=newest&num_before=5&num_after=0&narrow=" + encodeURIComponent(JSON.stringify([WEB_PUBLIC])), {
      headers: { authorization: "Basic " + btoa("hamlet@zulip.com:" + "x".repeat(32)) },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ result: "error", code: "UNAUTHORIZED" });
  });
});

describe("POST /register without an account", () => {
  test("no queue, the realm, everyone in the user list, the web-public channels as subscriptions, nothing personal", async () => {
    // what users see of each other, a spectator does not
    (await s.users.othello.client.post("/users/me/presence", { status: "active" })).success();
    (await s.users.othello.client.post("/users/me/status", { status_text: "on holiday" })).success();
    // a bot too (bots report no presence): every bot is visible even to a guest who may see nobody else
    const bot = (await s.users.hamlet.client.post("/bots", { full_name: "Weather Bot", short_name: "weather" })).success();
    const botClient = s.clientFor((await s.app.db.get<{ email: string }>("SELECT email FROM users WHERE id = ?", [bot.user_id]))!.email, bot.api_key);
    (await botClient.post("/users/me/status", { status_text: "forecasting" })).success();
    expect(Object.keys((await s.users.hamlet.client.post("/register", { fetch_event_types: ["presence"], slim_presence: true })).success().presences)).toContain(String(s.users.othello.id));
    const r = (await s.anonymous.post("/register", {})).success();
    expect(r).toMatchObject({ queue_id: null, last_event_id: -1, realm_name: s.app.realm!.name, max_message_id: -1 });
    expect(r).toMatchObject({ user_id: 0, full_name: "Anonymous User", email: "username@example.com", is_guest: true, is_admin: false });
    // everyone, with no real addresses
    const users = r.realm_users.map((u: any) => u.user_id);
    for (const who of ["hamlet", "othello", "desdemona", "polonius"] as const) expect(users).toContain(s.users[who].id);
    expect(r.realm_users.find((u: any) => u.user_id === s.users.hamlet.id)).toMatchObject({ full_name: "King Hamlet", delivery_email: null });
    expect(r.realm_users.every((u: any) => u.delivery_email === null && u.full_name !== "Unknown user")).toBe(true);
    // the web-public channels, as a new subscriber would have them; nothing else
    expect(r.subscriptions.map((x: any) => x.stream_id)).toEqual([open]);
    expect(r.subscriptions[0]).toMatchObject({ name: "Open Air", is_web_public: true, is_muted: false, pin_to_top: false, color: expect.stringMatching(/^#[0-9a-f]{6}$/) });
    expect(r.unsubscribed).toEqual([]);
    expect(r.never_subscribed).toEqual([]);
    expect(r.streams.map((x: any) => x.stream_id)).toEqual([open]);
    expect(r.presences).toEqual({});
    expect(r.user_status).toEqual({});
    expect(r.unread_msgs.count).toBe(0);
    expect(r).toMatchObject({ starred_messages: [], drafts: [], scheduled_messages: [], user_topics: [], alert_words: [], muted_users: [], realm_bots: [], realm_default_streams: [] });
    expect(r.user_settings.default_language).toBe(s.app.realm!.settings.default_language);
  });

  test("archived web-public channels stay out, even for a client that keeps archived channels", async () => {
    const gone = await createChannel(s, "desdemona", "Closed Pier", { subscribers: ["hamlet"] });
    (await s.users.desdemona.client.patch(`/streams/${gone}`, { is_web_public: true })).success();
    (await s.users.desdemona.client.delete(`/streams/${gone}`)).success();
    const r = (await s.anonymous.post("/register", { fetch_event_types: ["subscription", "stream"], client_capabilities: { archived_channels: true } })).success();
    const all = [...r.subscriptions, ...r.unsubscribed, ...r.never_subscribed, ...r.streams].map((x: any) => x.stream_id);
    expect(all).not.toContain(gone);
    expect(r.subscriptions.map((x: any) => x.stream_id)).toEqual([open]);
  });

  test("fetch_event_types picks the parts, as for users", async () => {
    const r = (await s.anonymous.post("/register", { fetch_event_types: ["realm_emoji", "message"] })).success();
    expect(r).toMatchObject({ queue_id: null, realm_emoji: {}, max_message_id: -1 });
    expect(r.realm_users).toBeUndefined();
  });

  test("client_gravatar or include_subscribers is refused, and nothing without public access", async () => {
    (await s.anonymous.post("/register", { client_gravatar: true })).error("Invalid 'client_gravatar' parameter for anonymous request", "BAD_REQUEST", 400);
    (await s.anonymous.post("/register", { include_subscribers: true })).error("Invalid 'include_subscribers' parameter for anonymous request", "BAD_REQUEST", 400);
    expect((await s.anonymous.post("/register", { client_gravatar: false })).success().queue_id).toBeNull();
    (await s.users.desdemona.client.patch("/realm", { enable_spectator_access: false })).success();
    try {
      (await s.anonymous.post("/register", {})).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
    } finally {
      (await s.users.desdemona.client.patch("/realm", { enable_spectator_access: true })).success();
    }
    // users are unaffected: a queue, and client_gravatar on by default
    const mine = (await s.users.hamlet.client.post("/register", { fetch_event_types: ["realm_user"] })).success();
    expect(mine.queue_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(mine.realm_users.find((u: any) => u.user_id === s.users.othello.id).avatar_url).toBeNull();
  });
});
