import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { setRealmSettings } from "../helpers/people";
import { deliverOutgoingWebhooks } from "../../src/actions/outgoing-webhooks";
import { claimOutgoingJob, listOutgoingJobs } from "../../src/store/webhooks";
import { closeApp, openApp } from "../../src/app";

/** A bot's server on loopback: records each request and answers as the test says. */
let received: { path: string; contentType: string; body: string }[] = [];
let answer: (path: string) => Response = () => Response.json({ content: "pong" });
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const path = new URL(req.url).pathname;
    received.push({ path, contentType: req.headers.get("content-type") ?? "", body: await req.text() });
    return answer(path);
  },
});
const base = `http://127.0.0.1:${receiver.port}`;

let s: TestServer;
let bot: { user_id: number; api_key: string };
let token: string;

beforeAll(async () => {
  s = await startServer({ config: (c) => void ((c.webhooks.allow_private_outgoing = true), (c.webhooks.outgoing_timeout_seconds = 2)) });
  (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "ops" }], principals: [s.users.iago.id, s.users.hamlet.id, s.users.othello.id] })).success();
  bot = (await s.users.hamlet.client.post("/bots", { full_name: "Pinger", short_name: "pinger", bot_type: 3, payload_url: JSON.stringify(`${base}/hook`), interface_type: 1 })).success();
  token = (await s.app.db.get<{ token: string }>("SELECT token FROM bot_services WHERE bot_id = ?", [bot.user_id]))!.token;
});
afterAll(async () => {
  await s.close();
  receiver.stop(true);
});
beforeEach(() => {
  received = [];
  answer = () => Response.json({ content: "pong" });
  s.app.config.webhooks.allow_private_outgoing = true;
});

const mention = (content = "@**Pinger** ping", topic = "checks") => s.users.othello.client.post("/messages", { type: "stream", to: "ops", topic, content }).then((r) => r.success().id as number);
const messagesAfter = (id: number) => s.app.db.all<{ id: number; sender_id: number; stream_id: number | null; topic: string; content: string; client: string; dm_key: string | null }>("SELECT id, sender_id, stream_id, topic, content, client, dm_key FROM messages WHERE id > ? ORDER BY id", [id]);
const dmKey = (...ids: number[]) => ids.sort((a, b) => a - b).join(",");

describe("creating an outgoing-webhook bot", () => {
  test("stores its URL, interface and a token of its own, and tells the owner's clients its service", async () => {
    let created: any;
    const events = await s.captureEvents(async () => {
      created = (await s.users.hamlet.client.post("/bots", { full_name: "Echo", short_name: "echo", bot_type: 3, payload_url: JSON.stringify("https://bots.example.com/echo"), interface_type: 2 })).success();
    });
    const row = await s.app.db.get<any>("SELECT * FROM bot_services WHERE bot_id = ?", [created.user_id]);
    expect(row).toMatchObject({ base_url: "https://bots.example.com/echo", interface: 2 });
    expect(row.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(row.token).not.toBe(created.api_key);
    const update = events.of("hamlet").find((e: any) => e.type === "realm_bot" && e.op === "update" && e.bot.services) as any;
    expect(update.bot).toEqual({ user_id: created.user_id, services: [{ base_url: "https://bots.example.com/echo", interface: 2, token: row.token }] });
    const state = (await s.users.hamlet.client.post("/register", { fetch_event_types: JSON.stringify(["realm_bot"]) })).success();
    expect(state.realm_bots.find((b: any) => b.user_id === created.user_id).services).toEqual([{ base_url: "https://bots.example.com/echo", interface: 2, token: row.token }]);
  });

  test("a missing or bad payload_url and an unknown interface are refused", async () => {
    (await s.users.hamlet.client.post("/bots", { full_name: "No URL", short_name: "nourl", bot_type: 3 })).error("payload_url is not a URL");
    (await s.users.hamlet.client.post("/bots", { full_name: "Bad URL", short_name: "badurl", bot_type: 3, payload_url: JSON.stringify("ftp://x") })).error("payload_url is not a URL");
    (await s.users.hamlet.client.post("/bots", { full_name: "Bad If", short_name: "badif", bot_type: 3, payload_url: JSON.stringify("https://x.example.com"), interface_type: 7 })).error("Invalid interface type");
  });

  test("it needs permission to create bots: write-only (incoming-webhook) permission is not enough, and guests never may", async () => {
    const groups = s.app.systemGroups;
    await setRealmSettings(s, { can_create_bots_group: groups.get("role:administrators"), can_create_write_only_bots_group: groups.get("role:members") });
    try {
      (await s.users.cordelia.client.post("/bots", { full_name: "Sneaky", short_name: "sneaky", bot_type: 3, payload_url: JSON.stringify("https://x.example.com") })).error("Insufficient permission");
      (await s.users.cordelia.client.post("/bots", { full_name: "Hooky", short_name: "hooky", bot_type: 2 })).success();
    } finally {
      await setRealmSettings(s, { can_create_bots_group: groups.get("role:members") });
    }
    (await s.users.polonius.client.post("/bots", { full_name: "Guest Out", short_name: "gout", bot_type: 3, payload_url: JSON.stringify("https://x.example.com") })).error("Insufficient permission");
  });
});

describe("changing an outgoing-webhook bot", () => {
  test("PATCH /bots/{id} changes its endpoint and format, keeps its token, and tells the owner's clients", async () => {
    const made = (await s.users.hamlet.client.post("/bots", { full_name: "Mover", short_name: "mover", bot_type: 3, payload_url: JSON.stringify("https://a.example.com/") })).success();
    const before = (await s.app.db.get<any>("SELECT * FROM bot_services WHERE bot_id = ?", [made.user_id]))!;
    const events = await s.captureEvents(async () => {
      (await s.users.hamlet.client.patch(`/bots/${made.user_id}`, { service_payload_url: JSON.stringify("https://b.example.com/hook"), service_interface: 2 })).success();
    });
    const after = (await s.app.db.get<any>("SELECT * FROM bot_services WHERE bot_id = ?", [made.user_id]))!;
    expect(after).toEqual({ ...before, base_url: "https://b.example.com/hook", interface: 2 });
    expect(events.of("hamlet")).toContainEqual({ type: "realm_bot", op: "update", bot: { user_id: made.user_id, services: [{ base_url: "https://b.example.com/hook", interface: 2, token: before.token }] } });
    (await s.users.hamlet.client.patch(`/bots/${made.user_id}`, { service_payload_url: JSON.stringify("nope") })).error("payload_url is not a URL");
    (await s.users.othello.client.patch(`/bots/${made.user_id}`, { service_interface: 1 })).error("Insufficient permission");
    expect((await s.app.db.get<any>("SELECT interface FROM bot_services WHERE bot_id = ?", [made.user_id]))!.interface).toBe(2);
  });
});

describe("when an outgoing-webhook bot is mentioned or written to", () => {
  test("a mention writes a durable row; the loop POSTs Zulip's payload and posts the answer as the bot's reply in the topic", async () => {
    const id = await mention();
    expect((await listOutgoingJobs(s.app.db)).map((j) => ({ bot_id: j.bot_id, message_id: j.message_id, trigger: j.trigger }))).toEqual([{ bot_id: bot.user_id, message_id: id, trigger: "mention" }]);
    expect(received).toEqual([]); // nothing sent on the send path
    await deliverOutgoingWebhooks(s.app);
    expect(received).toHaveLength(1);
    expect(received[0]!.contentType).toBe("application/json");
    const body = JSON.parse(received[0]!.body);
    expect(body).toMatchObject({ data: "@**Pinger** ping", bot_email: "pinger-bot@parley.test", bot_full_name: "Pinger", token, trigger: "mention" });
    expect(body.message).toMatchObject({ id, content: "@**Pinger** ping", sender_email: "othello@zulip.com", type: "stream", display_recipient: "ops", subject: "checks" });
    expect(body.message.rendered_content).toContain("user-mention");
    const after = await messagesAfter(id);
    expect(after).toEqual([expect.objectContaining({ sender_id: bot.user_id, topic: "checks", content: "pong", client: "OutgoingWebhookResponse" })]);
    expect(await listOutgoingJobs(s.app.db)).toEqual([]);
  });

  test("a direct message triggers direct_message; response_not_required posts nothing", async () => {
    answer = () => Response.json({ response_not_required: true });
    const id = (await s.users.othello.client.post("/messages", { type: "direct", to: JSON.stringify([bot.user_id]), content: "status?" })).success().id;
    await deliverOutgoingWebhooks(s.app);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ trigger: "direct_message", data: "status?" });
    expect(await messagesAfter(id)).toEqual([]);
  });

  test("the reply to a direct message goes to the same conversation", async () => {
    const id = (await s.users.othello.client.post("/messages", { type: "direct", to: JSON.stringify([bot.user_id, s.users.cordelia.id]), content: "hello all" })).success().id;
    await deliverOutgoingWebhooks(s.app);
    expect(await messagesAfter(id)).toEqual([expect.objectContaining({ sender_id: bot.user_id, dm_key: dmKey(bot.user_id, s.users.othello.id, s.users.cordelia.id), content: "pong" })]);
  });

  test("messages sent by bots trigger nothing (two bots cannot answer each other forever)", async () => {
    const other = (await s.users.hamlet.client.post("/bots", { full_name: "Chatty", short_name: "chatty" })).success();
    (await s.clientFor("chatty-bot@parley.test", other.api_key).post("/messages", { type: "stream", to: "ops", topic: "checks", content: "@**Pinger** hi" })).success();
    expect(await listOutgoingJobs(s.app.db)).toEqual([]);
  });

  test("an error status posts Zulip's failure in the conversation and tells the owner, without retrying", async () => {
    answer = () => new Response("boom", { status: 500 });
    const id = await mention();
    await deliverOutgoingWebhooks(s.app);
    const after = await messagesAfter(id);
    expect(after[0]).toMatchObject({ sender_id: bot.user_id, topic: "checks", content: "Failure! Third party responded with 500" });
    expect(after[1]).toMatchObject({ sender_id: bot.user_id, dm_key: dmKey(bot.user_id, s.users.hamlet.id) });
    expect(after[1]!.content).toBe(
      `[A message](http://parley.test/#narrow/channel/${after[0]!.stream_id}-ops/topic/checks/near/${id}) to your bot @_**Pinger** triggered an outgoing webhook.\nThe webhook got a response with status code *500*.\nThe response contains the following payload:\n\`\`\`\nb'boom'\n\`\`\``,
    );
    expect(await listOutgoingJobs(s.app.db)).toEqual([]);
    expect(received).toHaveLength(1);
  });

  test("a redirect is not followed: its status is the answer", async () => {
    answer = (path) => (path === "/hook" ? new Response(null, { status: 302, headers: { location: `${base}/elsewhere` } }) : Response.json({ content: "followed!" }));
    const id = await mention();
    await deliverOutgoingWebhooks(s.app);
    expect(received.map((r) => r.path)).toEqual(["/hook"]);
    expect((await messagesAfter(id))[0]!.content).toBe("Failure! Third party responded with 302");
  });

  test("an answer that is not JSON is reported in the conversation and to the owner", async () => {
    answer = () => new Response("<html>oops</html>", { status: 200 });
    const id = await mention();
    await deliverOutgoingWebhooks(s.app);
    const after = await messagesAfter(id);
    expect(after[0]!.content).toBe("Failure! Invalid JSON in response");
    expect(after[1]!.content).toContain("The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> Invalid JSON in response");
  });

  test("a private address is refused unless the config allows it: no request, Zulip's 407 failure and owner notice", async () => {
    s.app.config.webhooks.allow_private_outgoing = false;
    const id = await mention();
    await deliverOutgoingWebhooks(s.app);
    expect(received).toEqual([]);
    const after = await messagesAfter(id);
    expect(after[0]!.content).toBe("Failure! Third party responded with 407");
    expect(after[1]!.content).toEndWith("triggered an outgoing webhook.\nThe URL configured for the webhook is for a private or disallowed network.");
  });

  test("an unreachable server is retried with back-off, then the conversation and the owner are told; the queue is left empty", async () => {
    const down = (await s.users.hamlet.client.post("/bots", { full_name: "Down", short_name: "down", bot_type: 3, payload_url: JSON.stringify("http://127.0.0.1:9/nothing") })).success();
    const id = (await s.users.othello.client.post("/messages", { type: "stream", to: "ops", topic: "down", content: "@**Down** you there?" })).success().id;
    for (let attempt = 1; attempt <= 3; attempt++) {
      await deliverOutgoingWebhooks(s.app);
      const [job] = await listOutgoingJobs(s.app.db);
      expect(job).toMatchObject({ bot_id: down.user_id, attempts: attempt, last_error: "A connection error occurred. Is my bot server down?" });
      expect(await messagesAfter(id)).toEqual([]);
      await deliverOutgoingWebhooks(s.app); // not due yet: nothing happens
      expect((await listOutgoingJobs(s.app.db))[0]!.attempts).toBe(attempt);
      s.clock.advance(60_000);
    }
    await deliverOutgoingWebhooks(s.app);
    const after = await messagesAfter(id);
    expect(after[0]).toMatchObject({ sender_id: down.user_id, topic: "down", content: "Failure! Bot is unavailable" });
    expect(after[1]!.content).toEndWith("triggered an outgoing webhook.\nA connection error occurred. Is my bot server down?");
    expect(await listOutgoingJobs(s.app.db)).toEqual([]);
  });

  test("two loop runs at once send a row once", async () => {
    await mention();
    await Promise.all([deliverOutgoingWebhooks(s.app), deliverOutgoingWebhooks(s.app)]);
    expect(received).toHaveLength(1);
  });

  test("a Slack-compatible bot gets Slack's form and its `text` answer is the reply", async () => {
    const slack = (await s.users.hamlet.client.post("/bots", { full_name: "Slacky", short_name: "slacky", bot_type: 3, payload_url: JSON.stringify(`${base}/slack`), interface_type: 2 })).success();
    const slackToken = (await s.app.db.get<{ token: string }>("SELECT token FROM bot_services WHERE bot_id = ?", [slack.user_id]))!.token;
    answer = () => Response.json({ text: "from slack" });
    const id = (await s.users.othello.client.post("/messages", { type: "stream", to: "ops", topic: "slack", content: "@**Slacky** weather" })).success().id;
    await deliverOutgoingWebhooks(s.app);
    expect(received[0]!.contentType).toBe("application/x-www-form-urlencoded");
    const form = Object.fromEntries(new URLSearchParams(received[0]!.body));
    expect(form).toMatchObject({ token: slackToken, team_domain: "parley.test", channel_name: "ops", user_id: `U${s.users.othello.id}`, user_name: "Othello, the Moor of Venice", text: "@**Slacky** weather", trigger_word: "mention", service_id: String(slack.user_id) });
    expect((await messagesAfter(id))[0]).toMatchObject({ sender_id: slack.user_id, content: "from slack" });
  });
});

describe("across a restart", () => {
  test("a row being sent when the server stopped is sent once after it starts again, not twice and not never", async () => {
    const id = await mention("@**Pinger** still there?", "restart");
    const [job] = await listOutgoingJobs(s.app.db);
    // the server took the row for a POST and stopped before finishing it
    expect(await s.app.db.tx((sql) => claimOutgoingJob(sql, job!, s.clock.now() / 1000 + 12))).toBe(true);
    const restarted = await openApp(s.app.config, { quiet: true, clock: s.clock });
    try {
      await deliverOutgoingWebhooks(restarted); // at once: the row is not due yet
      expect(received).toEqual([]);
      s.clock.advance(13_000);
      await Promise.all([deliverOutgoingWebhooks(restarted), deliverOutgoingWebhooks(restarted)]);
      await deliverOutgoingWebhooks(restarted);
      expect(received).toHaveLength(1);
      expect(JSON.parse(received[0]!.body).message.id).toBe(id);
      expect(await listOutgoingJobs(restarted.db)).toEqual([]);
      expect((await messagesAfter(id)).map((m) => m.content)).toEqual(["pong"]);
    } finally {
      await closeApp(restarted);
    }
  });
});
