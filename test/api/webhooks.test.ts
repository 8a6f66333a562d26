import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { lastMessage, messageCount, postWebhook } from "../helpers/webhooks";

let s: TestServer;
let bot: { user_id: number; api_key: string };
let streamId: number;
const EMAIL = "alerts-bot@parley.test";

beforeAll(async () => {
  s = await startServer({ config: (c) => void (c.webhooks.max_payload_kib = 64) });
  (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "ops" }], principals: [s.users.iago.id, s.users.hamlet.id] })).success();
  streamId = (await s.users.hamlet.client.get("/get_stream_id", { stream: "ops" })).success().stream_id;
  bot = (await s.users.hamlet.client.post("/bots", { full_name: "Alerts", short_name: "alerts", bot_type: 2 })).success();
});
afterAll(() => s.close());

const key = () => bot.api_key;
/** Notification Bot's newest direct message to hamlet (the bot's owner), if any. */
const ownerNotices = () =>
  s.app.db.all<{ content: string }>(
    "SELECT m.content FROM messages m JOIN users u ON u.id = m.sender_id WHERE u.email = 'notification-bot@zulip.com' AND m.dm_key IS NOT NULL ORDER BY m.id",
  );

describe("POST /api/v1/external/<integration>: authentication", () => {
  test("the api_key in the URL posts as the bot, into the named channel, with the integration's client name", async () => {
    let r: any;
    const events = await s.captureEvents(async () => {
      r = await postWebhook(s, "json", { api_key: key(), stream: "ops" }, { status: "up", count: 3 });
    });
    expect(r).toEqual({ status: 200, json: { result: "success", msg: "" } });
    const m = (await lastMessage(s))!;
    expect(m).toMatchObject({ sender_id: bot.user_id, stream_id: streamId, topic: "JSON", client: "ZulipJSONWebhook" });
    expect(m.content).toBe('```json\n{\n  "status": "up",\n  "count": 3\n}\n```');
    const heard = events.of("iago").find((e) => e.type === "message") as any;
    expect(heard.message).toMatchObject({ id: m.id, sender_id: bot.user_id, display_recipient: "ops", subject: "JSON", client: "ZulipJSONWebhook" });
    expect(events.of("othello").some((e) => e.type === "message")).toBe(false);
  });

  test("HTTP Basic with the bot's email and key works too, and the channel may be given by id", async () => {
    const basic = "Basic " + btoa(`${EMAIL}:${key()}`);
    const r = await postWebhook(s, "json", { stream: String(streamId), topic: "by id" }, { a: 1 }, { headers: { authorization: basic } });
    expect(r.json).toEqual({ result: "success", msg: "" });
    expect(await lastMessage(s)).toMatchObject({ stream_id: streamId, topic: "by id", sender_id: bot.user_id });
  });

  test("a wrong, malformed or missing key is refused as Zulip refuses it, and nothing is posted", async () => {
    const before = await messageCount(s);
    const wrong = await postWebhook(s, "json", { api_key: "a".repeat(32), stream: "ops" }, { a: 1 });
    expect(wrong).toEqual({ status: 401, json: { result: "error", msg: "Invalid API key", code: "INVALID_API_KEY" } });
    const malformed = await postWebhook(s, "json", { api_key: "short", stream: "ops" }, { a: 1 });
    expect(malformed).toEqual({ status: 401, json: { result: "error", msg: "Malformed API key", code: "INVALID_API_KEY" } });
    const missing = await postWebhook(s, "json", { stream: "ops" }, { a: 1 });
    expect(missing).toEqual({ status: 400, json: { result: "error", msg: "Missing 'api_key' argument", code: "REQUEST_VARIABLE_MISSING", var_name: "api_key" } });
    const otherEmail = await postWebhook(s, "json", { stream: "ops" }, { a: 1 }, { headers: { authorization: "Basic " + btoa(`hamlet@zulip.com:${key()}`) } });
    expect(otherEmail.json.msg).toBe("Invalid API key");
    expect(await messageCount(s)).toBe(before);
  });

  test("a deactivated bot is refused with USER_DEACTIVATED", async () => {
    const other = (await s.users.hamlet.client.post("/bots", { full_name: "Gone", short_name: "gone", bot_type: 2 })).success();
    (await s.users.hamlet.client.delete(`/bots/${other.user_id}`)).success();
    const r = await postWebhook(s, "json", { api_key: other.api_key, stream: "ops" }, { a: 1 });
    expect(r).toEqual({ status: 401, json: { result: "error", msg: "Account is deactivated", code: "USER_DEACTIVATED" } });
  });

  test("a person's own key works (as Zulip allows), and with no channel they get the message themselves", async () => {
    const r = await postWebhook(s, "json", { api_key: s.users.othello.apiKey }, { b: 2 });
    expect(r.json.result).toBe("success");
    const m = (await lastMessage(s))!;
    expect(m).toMatchObject({ sender_id: s.users.othello.id, dm_key: String(s.users.othello.id) });
  });

  test("an integration Parley does not have is 404", async () => {
    const r = await postWebhook(s, "nosuchtool", { api_key: key(), stream: "ops" }, { a: 1 });
    expect(r).toEqual({ status: 404, json: { result: "error", msg: "Not Found", code: "BAD_REQUEST" } });
  });
});

describe("POST /api/v1/external/<integration>: where messages go", () => {
  test("with no stream, the message is a direct message from the bot to its owner", async () => {
    (await postWebhook(s, "json", { api_key: key() }, { private: true })).json.result;
    const m = (await lastMessage(s))!;
    expect(m.sender_id).toBe(bot.user_id);
    expect(m.stream_id).toBeNull();
    expect(m.dm_key).toBe([s.users.hamlet.id, bot.user_id].sort((a, b) => a - b).join(","));
  });

  test("a channel that does not exist posts nothing, answers success, and tells the owner once a minute", async () => {
    const before = await messageCount(s);
    const r = await postWebhook(s, "json", { api_key: key(), stream: "nowhere" }, { a: 1 });
    expect(r.json).toEqual({ result: "success", msg: "" });
    const notices = await ownerNotices();
    expect(notices.at(-1)!.content).toBe(`Your bot \`${EMAIL}\` tried to send a message to channel #**nowhere**, but that channel does not exist. Click [here](#channels/new) to create it.`);
    expect(await messageCount(s)).toBe(before + 1);
    await postWebhook(s, "json", { api_key: key(), stream: "99999" }, { a: 1 });
    expect((await ownerNotices()).length).toBe(notices.length); // within the minute: not again
    s.clock.advance(61_000);
    await postWebhook(s, "json", { api_key: key(), stream: "99999" }, { a: 1 });
    expect((await ownerNotices()).at(-1)!.content).toBe(`Your bot \`${EMAIL}\` tried to send a message to channel ID 99999, but there is no channel with that ID.`);
  });

  test("a private channel the bot's owner is not in is refused", async () => {
    (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "secret" }], invite_only: true })).success();
    const r = await postWebhook(s, "json", { api_key: key(), stream: "secret" }, { a: 1 });
    expect(r.status).toBe(400);
    expect(r.json.result).toBe("error");
  });
});

describe("POST /api/v1/external/<integration>: payloads", () => {
  test("a malformed payload gets the 400 envelope, posts nothing, and the owner hears how to fix it", async () => {
    s.clock.advance(61_000);
    const before = await messageCount(s);
    const r = await postWebhook(s, "json", { api_key: key(), stream: "ops" }, "{not json");
    expect(r).toEqual({ status: 400, json: { result: "error", msg: "Malformed JSON", code: "INVALID_JSON" } });
    expect(await messageCount(s)).toBe(before + 1);
    expect((await ownerNotices()).at(-1)!.content).toContain("It looks like you tried to set up the Zulip JSON integration");
  });

  test("a payload over the configured size or too deep is refused before any work", async () => {
    const before = await messageCount(s);
    const big = await postWebhook(s, "json", { api_key: key(), stream: "ops" }, { blob: "x".repeat(70 * 1024) });
    expect(big).toEqual({ status: 400, json: { result: "error", msg: "Payload larger than 64 KiB", code: "BAD_REQUEST" } });
    const deep = await postWebhook(s, "json", { api_key: key(), stream: "ops" }, "[".repeat(100) + "]".repeat(100));
    expect(deep.json.msg).toBe("Payload nested deeper than 64 levels");
    expect(await messageCount(s)).toBe(before);
  });

  test("prototype keys in a payload are ordinary keys, shown like any other", async () => {
    const r = await postWebhook(s, "json", { api_key: key(), stream: "ops" }, '{"__proto__": {"polluted": true}, "constructor": 1}');
    expect(r.json.result).toBe("success");
    expect((await lastMessage(s))!.content).toBe('```json\n{\n  "__proto__": {\n    "polluted": true\n  },\n  "constructor": 1\n}\n```');
    expect(({} as any).polluted).toBeUndefined();
  });

  test("a JSON payload that is not an object is refused for the JSON integration", async () => {
    const r = await postWebhook(s, "json", { api_key: key(), stream: "ops" }, "[1, 2]");
    expect(r).toEqual({ status: 400, json: { result: "error", msg: "payload is not a dict", code: "BAD_REQUEST" } });
  });
});

describe("POST /api/v1/external/<integration>: events", () => {
  const ping = { zen: "z", hook_id: 1, repository: { name: "parley", full_name: "o/parley", html_url: "https://github.com/o/parley" }, sender: { login: "octocat", html_url: "https://github.com/octocat" } };
  const gh = (event: string, query: Record<string, string>, payload: object = ping) => postWebhook(s, "github", { api_key: key(), stream: "ops", ...query }, payload, { headers: { "X-GitHub-Event": event } });

  test("only_events and exclude_events filter by Zulip's event names with shell-style patterns", async () => {
    const before = await messageCount(s);
    expect((await gh("ping", { only_events: '["push_*","issue*"]' })).json).toEqual({ result: "success", msg: "" });
    expect((await gh("ping", { exclude_events: '["pi?g"]' })).json.result).toBe("success");
    expect(await messageCount(s)).toBe(before);
    await gh("ping", { only_events: '["p[io]ng"]', exclude_events: '["push*"]' });
    expect(await lastMessage(s)).toMatchObject({ topic: "parley", content: "GitHub webhook has been successfully configured by octocat.", client: "ZulipGitHubWebhook" });
  });

  test("a filter that is not a JSON list of strings is refused", async () => {
    expect((await gh("ping", { only_events: "push" })).json).toEqual({ result: "error", msg: "only_events is not valid JSON", code: "BAD_REQUEST" });
    expect((await gh("ping", { exclude_events: "[1]" })).json.msg).toBe("exclude_events[0] is not a string");
  });

  test("an unsupported event answers 200 with Zulip's error envelope and posts nothing", async () => {
    const before = await messageCount(s);
    const r = await gh("workflow_run", {}, { action: "completed", workflow_run: {}, ...ping });
    expect(r).toEqual({
      status: 200,
      json: { result: "error", msg: "The 'workflow_run:completed' event isn't currently supported by the GitHub webhook; ignoring", code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE", webhook_name: "GitHub", event_type: "workflow_run:completed" },
    });
    expect(await messageCount(s)).toBe(before);
  });

  test("an ignored event answers success and posts nothing", async () => {
    const before = await messageCount(s);
    expect((await gh("check_suite", {})).json).toEqual({ result: "success", msg: "" });
    expect(await messageCount(s)).toBe(before);
  });

  test("a missing event header is a 400 naming it, and the owner is told what it means", async () => {
    s.clock.advance(61_000);
    const r = await postWebhook(s, "github", { api_key: key(), stream: "ops" }, ping);
    expect(r).toEqual({ status: 400, json: { result: "error", msg: "Missing the HTTP event header 'X-GitHub-Event'", code: "MISSING_HTTP_EVENT_HEADER", header: "X-GitHub-Event" } });
    expect((await ownerNotices()).at(-1)!.content).toStartWith("Hi there!  Your bot Alerts just sent an HTTP request to /api/v1/external/github that\nis missing the HTTP X-GitHub-Event header.");
  });
});

describe("POST /api/v1/external/slack_incoming", () => {
  test("Slack's form-encoded payload field is read as the payload", async () => {
    const form = new URLSearchParams({ payload: JSON.stringify({ text: "Backup *done*", channel: "#backups" }) }).toString();
    const r = await postWebhook(s, "slack_incoming", { api_key: key(), stream: "ops" }, form, { contentType: "application/x-www-form-urlencoded" });
    expect(r.json).toEqual({ result: "success", msg: "", ok: true });
    expect(await lastMessage(s)).toMatchObject({ topic: "backups", content: "Backup **done**", client: "ZulipSlackIncomingWebhook" });
  });

  test("a JSON body works the same, and a form without payload is refused in Slack's shape", async () => {
    (await postWebhook(s, "slack_incoming", { api_key: key(), stream: "ops", topic: "kuma" }, { text: "web is up" })).json;
    expect(await lastMessage(s)).toMatchObject({ topic: "kuma", content: "web is up" });
    const r = await postWebhook(s, "slack_incoming", { api_key: key(), stream: "ops" }, "text=hi", { contentType: "application/x-www-form-urlencoded" });
    expect(r).toEqual({ status: 400, json: { ok: false, error: "Missing 'payload' argument" } });
    expect(await postWebhook(s, "slack_incoming", { api_key: key(), stream: "ops" }, "{nope")).toEqual({ status: 400, json: { ok: false, error: "Malformed JSON" } });
    // a wrong key is refused before the integration: Zulip's envelope
    expect((await postWebhook(s, "slack_incoming", { api_key: "b".repeat(32), stream: "ops" }, { text: "x" })).json).toMatchObject({ result: "error", code: "INVALID_API_KEY" });
  });
});

describe("GET /bots/{bot_id}/webhook_requests", () => {
  test("lists the bot's last requests, newest first, with the refusal when there was one", async () => {
    const hook = (await s.users.hamlet.client.post("/bots", { full_name: "Recorder", short_name: "recorder", bot_type: 2 })).success();
    await postWebhook(s, "json", { api_key: hook.api_key, stream: "ops" }, { n: 1 });
    await postWebhook(s, "json", { api_key: hook.api_key, stream: "ops" }, "{bad");
    await postWebhook(s, "github", { api_key: hook.api_key, stream: "ops" }, { zen: "z", repository: { name: "r" }, sender: { login: "x" } }, { headers: { "X-GitHub-Event": "check_suite" } });
    await postWebhook(s, "json", { api_key: hook.api_key, stream: "nowhere" }, { n: 2 });
    const { requests } = (await s.users.hamlet.client.get(`/bots/${hook.user_id}/webhook_requests`)).success();
    expect(requests.map((r: any) => [r.integration, r.status, r.error, r.payload])).toEqual([
      ["json", 200, "Channel 'nowhere' does not exist", '{"n":2}'],
      ["github", 200, "Ignored: this event posts nothing", '{"zen":"z","repository":{"name":"r"},"sender":{"login":"x"}}'],
      ["json", 400, "Malformed JSON", "{bad"],
      ["json", 200, null, '{"n":1}'],
    ]);
    expect(requests[0].timestamp).toBeNumber();
  });

  test("only the last ten are kept", async () => {
    const hook = (await s.users.hamlet.client.post("/bots", { full_name: "Busy", short_name: "busy", bot_type: 2 })).success();
    for (let i = 0; i < 14; i++) await postWebhook(s, "json", { api_key: hook.api_key, stream: "ops" }, { i });
    const { requests } = (await s.users.hamlet.client.get(`/bots/${hook.user_id}/webhook_requests`)).success();
    expect(requests.map((r: any) => JSON.parse(r.payload).i)).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4]);
    expect((await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM webhook_requests WHERE bot_id = ?", [hook.user_id]))!.n).toBeLessThanOrEqual(13);
  });

  test("another member may not read a bot's requests; an administrator may", async () => {
    (await s.users.othello.client.get(`/bots/${bot.user_id}/webhook_requests`)).error("Insufficient permission");
    (await s.users.iago.client.get(`/bots/${bot.user_id}/webhook_requests`)).success();
  });
});

describe("every integration through its URL", () => {
  const repo = { name: "parley", full_name: "o/parley", html_url: "https://forge.example.com/o/parley" };
  const cases: [string, Record<string, string>, object, string, string][] = [
    ["github", { "X-GitHub-Event": "create" }, { ref: "v1", ref_type: "tag", repository: repo, sender: { login: "ada", html_url: "https://github.com/ada" } }, "parley", "ada created tag v1."],
    ["gitlab", { "X-GitLab-Event": "Tag Push Hook" }, { ref: "refs/tags/v1", checkout_sha: "abc", user_name: "Ada", project: { name: "parley", web_url: "https://gitlab.example.com/o/parley" } }, "parley", "Ada pushed tag v1."],
    ["gitea", { "X-Gitea-Event": "create" }, { ref: "dev", repository: repo, sender: { login: "ada", username: "ada" } }, "parley / dev", "ada created [dev](https://forge.example.com/o/parley/src/dev) branch."],
    ["grafana", {}, { title: "Disk", ruleName: "Disk", ruleUrl: "https://grafana.example.com/d/1", state: "ok" }, "Disk", ":squared_ok: **OK**\n\n[Disk](https://grafana.example.com/d/1)"],
    ["alertmanager", {}, { alerts: [{ status: "firing", labels: { instance: "nas", alertname: "Down" }, generatorURL: "https://prom.example.com/g" }] }, "nas", ":alert: **FIRING** Down ([source](https://prom.example.com/g))"],
    ["homeassistant", {}, { message: "Door opened", topic: "house" }, "house", "Door opened"],
    ["sentry", {}, { action: "resolved", data: { issue: { title: "Boom", lastSeen: "2026-01-05T10:00:00Z", assignedTo: null } }, actor: { name: "Ada" } }, "Boom", "Issue **Boom** was marked as resolved by **Ada**."],
  ];
  for (const [integration, headers, payload, topic, content] of cases) {
    test(`${integration} posts its message into the channel`, async () => {
      const r = await postWebhook(s, integration, { api_key: key(), stream: "ops" }, payload, { headers });
      expect(r.json).toEqual({ result: "success", msg: "" });
      expect(await lastMessage(s)).toMatchObject({ sender_id: bot.user_id, stream_id: streamId, topic, content });
    });
  }
});

describe("the events added from Zulip's newer views, through the URL", () => {
  const sender = { login: "octocat", html_url: "https://github.com/octocat" };
  const sponsorship = (action: string) => ({ action, sponsorship: { privacy_level: "public", tier: { name: "$10 a month" } }, sender });

  test("a GitHub sponsorship posts under 'sponsors'; only_events keeps out the actions not listed", async () => {
    const r = await postWebhook(s, "github", { api_key: key(), stream: "ops", only_events: '["created"]' }, sponsorship("created"), { headers: { "X-GitHub-Event": "sponsorship" } });
    expect(r.json).toEqual({ result: "success", msg: "" });
    expect(await lastMessage(s)).toMatchObject({ sender_id: bot.user_id, stream_id: streamId, topic: "sponsors", content: "octocat subscribed for $10 a month." });
    const before = await messageCount(s);
    const filtered = await postWebhook(s, "github", { api_key: key(), stream: "ops", only_events: '["created"]' }, sponsorship("cancelled"), { headers: { "X-GitHub-Event": "sponsorship" } });
    expect(filtered.json).toEqual({ result: "success", msg: "" });
    expect(await messageCount(s)).toBe(before);
  });

  test("events Zulip ignores answer success and post nothing; an unknown sponsorship action gets Zulip's unsupported answer", async () => {
    const before = await messageCount(s);
    const repository = { name: "parley", full_name: "o/parley", html_url: "https://github.com/o/parley", private: false };
    const emptyEdit = { action: "edited", changes: {}, review: { html_url: "https://github.com/o/parley/pull/1#r", body: null }, pull_request: { number: 1, title: "T", html_url: "https://github.com/o/parley/pull/1" }, repository, sender };
    expect((await postWebhook(s, "github", { api_key: key(), stream: "ops" }, emptyEdit, { headers: { "X-GitHub-Event": "pull_request_review" } })).json).toEqual({ result: "success", msg: "" });
    const secret = { ref: "v1", ref_type: "tag", repository: { ...repository, private: true }, sender };
    expect((await postWebhook(s, "github", { api_key: key(), stream: "ops", ignore_private_repositories: "true" }, secret, { headers: { "X-GitHub-Event": "create" } })).json).toEqual({ result: "success", msg: "" });
    const odd = await postWebhook(s, "github", { api_key: key(), stream: "ops" }, sponsorship("renamed"), { headers: { "X-GitHub-Event": "sponsorship" } });
    expect(odd).toEqual({
      status: 200,
      json: {
        result: "error",
        msg: "The 'sponsorship:renamed' event isn't currently supported by the GitHub webhook; ignoring",
        code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
        webhook_name: "GitHub",
        event_type: "sponsorship:renamed",
      },
    });
    expect(await messageCount(s)).toBe(before);
  });

  test("a GitLab feature flag and a Gitea deleted branch post Zulip's text; exclude_events drops by event name", async () => {
    const flag = { object_kind: "feature_flag", project: { name: "parley", web_url: "https://gitlab.example.com/o/parley" }, user: { name: "Ada", username: "ada" }, object_attributes: { name: "beta", active: true } };
    expect((await postWebhook(s, "gitlab", { api_key: key(), stream: "ops" }, flag, { headers: { "X-GitLab-Event": "Feature Flag Hook" } })).json.result).toBe("success");
    expect(await lastMessage(s)).toMatchObject({ topic: "parley", content: "ada activated the feature flag [beta](https://gitlab.example.com/o/parley/-/feature_flags)." });
    const del = { ref: "old", ref_type: "branch", repository: { name: "parley", html_url: "https://git.example.com/o/parley" }, sender: { login: "ada" } };
    expect((await postWebhook(s, "gitea", { api_key: key(), stream: "ops" }, del, { headers: { "X-Gitea-Event": "delete" } })).json.result).toBe("success");
    expect(await lastMessage(s)).toMatchObject({ topic: "parley / old", content: "ada deleted branch `old`." });
    const before = await messageCount(s);
    expect((await postWebhook(s, "gitlab", { api_key: key(), stream: "ops", exclude_events: '["Feature*"]' }, flag, { headers: { "X-GitLab-Event": "Feature Flag Hook" } })).json.result).toBe("success");
    expect(await messageCount(s)).toBe(before);
  });
});

describe("a GitHub sender known by an external-account profile field", () => {
  test("is named by a silent mention of the one active user holding that GitHub account", async () => {
    const { id } = (await s.users.iago.client.post("/realm/profile_fields", { name: "GitHub", field_type: 7, field_data: JSON.stringify({ subtype: "github" }) })).success();
    (await s.users.othello.client.patch("/users/me/profile_data", { data: JSON.stringify([{ id, value: "octo-othello" }]) })).success();
    const payload = { ref: "v9", ref_type: "tag", repository: { name: "parley", full_name: "o/parley", html_url: "https://github.com/o/parley" }, sender: { login: "octo-othello" } };
    expect((await postWebhook(s, "github", { api_key: key(), stream: "ops" }, payload, { headers: { "X-GitHub-Event": "create" } })).json.result).toBe("success");
    expect((await lastMessage(s))!.content).toBe("@_**Othello, the Moor of Venice** created tag v9.");
    const stranger = { ...payload, sender: { login: "someone-else" } };
    await postWebhook(s, "github", { api_key: key(), stream: "ops" }, stranger, { headers: { "X-GitHub-Event": "create" } });
    expect((await lastMessage(s))!.content).toBe("someone-else created tag v9.");
    // the answer is remembered, and forgotten when the account changes hands
    (await s.users.othello.client.patch("/users/me/profile_data", { data: JSON.stringify([{ id, value: "othello-2" }]) })).success();
    await postWebhook(s, "github", { api_key: key(), stream: "ops" }, payload, { headers: { "X-GitHub-Event": "create" } });
    expect((await lastMessage(s))!.content).toBe("octo-othello created tag v9.");
  });
});
