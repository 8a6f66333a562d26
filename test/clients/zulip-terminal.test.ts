/**
 * zulip-terminal against Parley: the requests it makes through the Python `zulip` client (strings
 * sent as they are, everything else json.dumps'd: zulip.Client.do_api_query; GET parameters in the
 * query string, the others in a form body), and every answer and event checked against what its
 * code reads with `d["key"]` (zulip-terminal-shapes.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createUser } from "../../src/actions/users";
import { createChannel } from "../helpers/channels";
import { messageRow } from "../helpers/messages";
import { startServer, type ApiResponse, type TestServer } from "../helpers/server";
import { problems, type Shape } from "./shape";
import * as Z from "./zulip-terminal-shapes";

/**
 * The thumbs-up key (ui_tools/views.py: toggle_message_reaction(message, "thumbs_up")) sends
 * emoji_name="thumbs_up", emoji_code="1f44d", reaction_type="unicode_emoji": Zulip's alias for
 * 1f44d (unicode_emojis.py: "+1" with aliases thumbs_up and like).
 */
const THUMBS_UP_NAME = "thumbs_up";

/** zulip.Client's User-Agent: the client name zulip-terminal passes (core.py), then the platform. */
const USER_AGENT = "ZulipTerminal/0.7.0 (Linux; 6.1)";

/** Model.event_actions and Model.initial_data_to_fetch, as Model._register_desired_events sends them. */
const REGISTER = {
  event_types: ["message", "update_message", "reaction", "submessage", "subscription", "typing", "update_message_flags", "user_settings", "realm_emoji", "realm_user"],
  narrow: [],
  fetch_event_types: [
    "realm",
    "presence",
    "subscription",
    "message",
    "starred_messages",
    "update_message_flags",
    "muted_topics",
    "realm_user",
    "realm_user_groups",
    "user_settings",
    "realm_emoji",
    "custom_profile_fields",
    "zulip_version",
  ],
  client_gravatar: true,
  apply_markdown: true,
  include_subscribers: true,
};

let s: TestServer;
let me = { id: 0, email: "", apiKey: "" };
let denmark = 0;

/** zulip.Client.call_endpoint: None values dropped, strings raw, the rest json.dumps'd. */
function zulipClient(auth: { email: string; apiKey: string } | null) {
  const client = auth ? s.clientFor(auth.email, auth.apiKey) : s.anonymous;
  return (method: string, url: string, request: Record<string, unknown> = {}, opts: { unvalidated?: boolean } = {}) => {
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(request)) if (v !== undefined && v !== null) params[k] = typeof v === "string" ? v : JSON.stringify(v);
    const headers = { "user-agent": USER_AGENT };
    return opts.unvalidated ? client.request(method, `/api/v1/${url}`, params, { headers, raw: true }) : client.request(method, `/${url}`, params, { headers });
  };
}
let call: ReturnType<typeof zulipClient>;

function decoded(shape: Shape, r: ApiResponse) {
  const body = r.success();
  expect(problems(shape, body)).toEqual([]);
  return body;
}

/** Model.get_messages: the request it builds (anchor None means "first unread": anchor=0 and use_first_unread_anchor). */
function getMessages(narrow: unknown[], anchor: number | null, numBefore = 30, numAfter = 10) {
  return call("GET", "messages", {
    anchor: anchor ?? 0,
    num_before: numBefore,
    num_after: numAfter,
    apply_markdown: true,
    use_first_unread_anchor: anchor === null,
    client_gravatar: true,
    narrow: JSON.stringify(narrow), // json.dumps(self.narrow): already a string
  });
}

/** Model.poll_for_events: get_events(queue_id, last_event_id), no dont_block (the queue already holds the events). */
const queue = { id: "", last: -1 };
const seenEvents = new Set<string>();
async function pollEvents(): Promise<any[]> {
  // unvalidated: the message event's local_message_id and other fields Zulip sends beyond its OpenAPI file
  const body = decoded(Z.GetEventsResponse, await call("GET", "events", { queue_id: queue.id, last_event_id: queue.last }, { unvalidated: true }));
  for (const e of body.events) {
    queue.last = Math.max(queue.last, Number(e.id));
    seenEvents.add(e.type);
  }
  return body.events;
}

const sendStream = async (stream: string, topic: string, content: string) =>
  (await call("POST", "messages", { type: "stream", to: stream, subject: topic, content, read_by_sender: true })).success().id as number;

beforeAll(async () => {
  s = await startServer({ heartbeatMs: 100 });
  const u = await createUser(s.app, null, { email: "terminal@zulip.com", fullName: "Terminal User", password: "hunter2hunter2", role: 400 });
  me = { id: u.userId, email: u.email, apiKey: u.apiKey };
  call = zulipClient(me);
  denmark = await createChannel(s, "hamlet", "Denmark", { subscribers: ["othello", "cordelia"] });
  (await call("POST", "users/me/subscriptions", { subscriptions: [{ name: "Denmark" }] })).success();
});

afterAll(async () => {
  await s.close();
});

describe("zulip-terminal starts", () => {
  test("cli/run.py logs in: server_settings (realm_uri, login label fields), then fetch_api_key", async () => {
    const anonymous = zulipClient(null);
    const settings = decoded(Z.ServerSettings, await anonymous("GET", "server_settings"));
    expect(settings).toMatchObject({ realm_uri: "http://parley.test", require_email_format_usernames: true, email_auth_enabled: true });
    const key = decoded(Z.FetchApiKeyResponse, await anonymous("POST", "fetch_api_key", { username: me.email, password: "hunter2hunter2" }));
    expect(key.api_key).toBe(me.apiKey);
    // zulip.Client reads the feature level from server_settings on its first call
    expect(decoded(Z.ServerSettings, await call("GET", "server_settings")).zulip_feature_level).toBeGreaterThanOrEqual(372);
  });

  test("Model._register_desired_events before any message: max_message_id is -1, as Zulip's max_message_id_for_user", async () => {
    const reg = decoded(Z.RegisterResponse, await call("POST", "register", REGISTER));
    expect(reg.max_message_id).toBe(-1);
    (await call("DELETE", "events", { queue_id: reg.queue_id })).success();
  });

  test("Model._fetch_initial_data: get_messages with anchor=0 and use_first_unread_anchor, and register, both decode", async () => {
    const read = await sendStream("Denmark", "old news", "already read");
    const first = (await s.users.othello.client.post("/messages", { type: "stream", to: "Denmark", topic: "news", content: "first unread" })).success().id;
    const dm = (await s.users.othello.client.post("/messages", { type: "direct", to: [me.id], content: "psst" })).success().id;
    (await call("POST", "user_topics", { stream_id: denmark, topic: "muted topic", visibility_policy: 1 })).success();

    const fetched = decoded(Z.GetMessagesResponse, await getMessages([], null));
    // the anchor is the first unread message (use_first_unread_anchor won over anchor=0)
    expect(fetched.anchor).toBe(first);
    expect(fetched.messages.map((m: any) => m.id)).toEqual(expect.arrayContaining([read, first, dm]));

    const reg = decoded(Z.RegisterResponse, await call("POST", "register", REGISTER));
    queue.id = reg.queue_id;
    queue.last = reg.last_event_id;
    expect(reg).toMatchObject({ user_id: me.id, email: me.email, full_name: "Terminal User", realm_name: "Zulip Dev", max_message_id: dm });
    expect(reg.unread_msgs.pms).toEqual([expect.objectContaining({ sender_id: s.users.othello.id, unread_message_ids: [dm] })]);
    expect(reg.unread_msgs.streams).toContainEqual(expect.objectContaining({ stream_id: denmark, topic: "news", unread_message_ids: [first] }));
    expect(reg.muted_topics).toEqual([["Denmark", "muted topic", expect.any(Number)]]);
    expect(reg.subscriptions.find((c: any) => c.stream_id === denmark).subscribers).toEqual(expect.arrayContaining([me.id, s.users.othello.id]));
    expect(reg.user_settings).toMatchObject({ send_private_typing_notifications: true, twenty_four_hour_time: false, pm_content_in_desktop_notifications: true });
  });

  test("Model._start_presence_updates: update_presence answers the legacy presences by email, with aggregated", async () => {
    (await s.users.othello.client.post("/users/me/presence", { status: "active", new_user_input: true })).success();
    const r = decoded(Z.UpdatePresenceResponse, await call("POST", "users/me/presence", { status: "active", new_user_input: true }));
    expect(r.presences[s.users.othello.email]).toMatchObject({ aggregated: { status: "active" }, website: { status: "active" } });
    // Zulip's legacy format names every client "website" (one presence row per user since Zulip 7)
    expect(r.presences[me.email]).toMatchObject({ aggregated: { status: "active", client: "website" } });
  });
});

describe("zulip-terminal reads and writes", () => {
  test("Model.set_narrow's narrows (legacy [operator, operand] lists, names and emails) fetch what they should", async () => {
    const topicMsg = await sendStream("Denmark", "castle", "the ghost walks @**King Hamlet**");
    const group = (await call("POST", "messages", { type: "private", to: [s.users.othello.id, s.users.cordelia.id], content: "three of us", read_by_sender: true })).success().id;
    (await call("POST", "messages/flags", { messages: [topicMsg], flag: "starred", op: "add" })).success();
    const ids = async (narrow: unknown[], anchor: number | null = null) => decoded(Z.GetMessagesResponse, await getMessages(narrow, anchor)).messages.map((m: any) => m.id);
    expect(await ids([["stream", "Denmark"]])).toContain(topicMsg);
    expect(await ids([["stream", "Denmark"], ["topic", "castle"]])).toEqual([topicMsg]);
    expect(await ids([["is", "private"]])).toContain(group);
    // core.narrow_to_user: the other recipients' emails joined with ", "
    expect(await ids([["pm-with", `${s.users.othello.email}, ${s.users.cordelia.email}`]])).toEqual([group]);
    expect(await ids([["is", "starred"]])).toEqual([topicMsg]);
    expect(await ids([["stream", "Denmark"], ["search", "ghost"]])).toEqual([topicMsg]);
    // a contextual message id as the anchor (core._narrow_to with a message)
    expect(await ids([["stream", "Denmark"], ["topic", "castle"]], topicMsg)).toEqual([topicMsg]);
    // Model.get_latest_message_in_topic: anchor 10^16, channel id and topic as operator/operand dicts
    const latest = decoded(
      Z.GetMessagesResponse,
      await call("GET", "messages", { anchor: 10000000000000000, num_before: 1, num_after: 0, narrow: [{ operator: "stream", operand: denmark }, { operator: "topic", operand: "castle" }] }),
    );
    expect(latest.messages.map((m: any) => m.id)).toEqual([topicMsg]);
  });

  test("send_stream_message and send_private_message (type, to, subject, read_by_sender) give message events Model._handle_message_event reads", async () => {
    await pollEvents();
    const id = await sendStream("Denmark", "greetings", "hello from the terminal");
    const dm = (await call("POST", "messages", { type: "private", to: [s.users.othello.id], content: "hi there", read_by_sender: true })).success().id;
    expect(await messageRow(s, id)).toMatchObject({ content: "hello from the terminal", topic: "greetings", stream_id: denmark });
    const messages = (await pollEvents()).filter((e) => e.type === "message");
    expect(messages.map((e) => [e.message.id, e.flags])).toEqual([
      [id, ["read"]],
      [dm, ["read"]],
    ]);
    expect(messages[0].message).toMatchObject({ display_recipient: "Denmark", subject: "greetings", client: "ZulipTerminal" });
    expect(messages[1].message.display_recipient.map((r: any) => r.email).sort()).toEqual([me.email, s.users.othello.email].sort());
  });

  test("the thumbs-up key toggles a reaction: add_reaction, then remove_reaction, with message_id in the body", async () => {
    const id = await sendStream("Denmark", "reactions", "react to me");
    await pollEvents();
    const spec = { emoji_name: THUMBS_UP_NAME, emoji_code: "1f44d", reaction_type: "unicode_emoji", message_id: String(id) };
    const added = (await call("POST", `messages/${id}/reactions`, spec)).success();
    expect(added.ignored_parameters_unsupported).toEqual(["message_id"]);
    expect(await s.app.db.all("SELECT user_id, emoji_code FROM reactions WHERE message_id = ?", [id])).toEqual([{ user_id: me.id, emoji_code: "1f44d" }]);
    // MessageBox.reactions_view reads the reaction back from the message
    const [message] = decoded(Z.GetMessagesResponse, await getMessages([["stream", "Denmark"], ["topic", "reactions"]], id, 0, 0)).messages;
    expect(message.reactions).toEqual([expect.objectContaining({ emoji_code: "1f44d", reaction_type: "unicode_emoji", user_id: me.id })]);
    (await call("DELETE", `messages/${id}/reactions`, spec)).success();
    expect(await s.app.db.all("SELECT user_id FROM reactions WHERE message_id = ?", [id])).toEqual([]);
    const reactions = (await pollEvents()).filter((e) => e.type === "reaction");
    expect(reactions.map((e) => [e.op, e.emoji_code, e.user_id, e.user.user_id])).toEqual([
      ["add", "1f44d", me.id, me.id],
      ["remove", "1f44d", me.id, me.id],
    ]);
  });

  test("mark_message_ids_as_read and toggle_message_star_status give update_message_flags events it reads", async () => {
    const ids = [
      (await s.users.othello.client.post("/messages", { type: "stream", to: "Denmark", topic: "flags", content: "one" })).success().id,
      (await s.users.othello.client.post("/messages", { type: "stream", to: "Denmark", topic: "flags", content: "two" })).success().id,
    ];
    await pollEvents();
    expect((await call("POST", "messages/flags", { messages: ids, flag: "read", op: "add" })).success().messages).toEqual(ids);
    (await call("POST", "messages/flags", { messages: [ids[0]], flag: "starred", op: "add" })).success();
    (await call("POST", "messages/flags", { messages: [ids[0]], flag: "starred", op: "remove" })).success();
    const flags = (await pollEvents()).filter((e) => e.type === "update_message_flags");
    expect(flags.map((e) => [e.op, e.flag, e.messages, e.all])).toEqual([
      ["add", "read", ids, false],
      ["add", "starred", [ids[0]], false],
      ["remove", "starred", [ids[0]], false],
    ]);
  });

  test("update_stream_message and update_private_message (message_id echoed in the body) give update_message events it reads", async () => {
    const id = await sendStream("Denmark", "drafts", "frist");
    const dm = (await call("POST", "messages", { type: "private", to: [s.users.othello.id], content: "/me waves", read_by_sender: true })).success().id;
    await pollEvents();
    const edit = await call("PATCH", `messages/${id}`, { message_id: id, propagate_mode: "change_one", topic: "finals", content: "first", send_notification_to_old_thread: false, send_notification_to_new_thread: false });
    expect(edit.success().ignored_parameters_unsupported).toEqual(["message_id"]);
    (await call("PATCH", `messages/${dm}`, { message_id: dm, content: "/me waves back" })).success();
    // its edit box always sends the topic: unchanged, it is a content edit only
    (await call("PATCH", `messages/${id}`, { message_id: id, propagate_mode: "change_one", topic: "finals", content: "first!", send_notification_to_old_thread: false, send_notification_to_new_thread: false })).success();
    expect(await messageRow(s, id)).toMatchObject({ topic: "finals", content: "first!" });
    const updates = (await pollEvents()).filter((e) => e.type === "update_message");
    expect(updates[0]).toMatchObject({ message_id: id, subject: "finals", orig_subject: "drafts", stream_id: denmark, message_ids: [id], rendered_content: "<p>first</p>", is_me_message: false });
    expect(updates[1]).toMatchObject({ message_id: dm, is_me_message: true });
    expect(updates[2]).toMatchObject({ message_id: id, rendered_content: "<p>first!</p>" });
    expect("subject" in updates[2]).toBe(false);
  });

  test("get_raw_message, get_message_history and get_stream_topics answer what it reads", async () => {
    const id = await sendStream("Denmark", "history", "version one");
    (await call("PATCH", `messages/${id}`, { message_id: id, content: "version two" })).success();
    expect(decoded(Z.RawMessageResponse, await call("GET", `messages/${id}`, { apply_markdown: true })).raw_content).toBe("version two");
    const history = decoded(Z.MessageHistoryResponse, await call("GET", `messages/${id}/history`)).message_history;
    expect(history.map((h: any) => [h.content, h.topic])).toEqual([
      ["version one", "history"],
      ["version two", "history"],
    ]);
    const topics = decoded(Z.StreamTopicsResponse, await call("GET", `users/me/${denmark}/topics`)).topics.map((t: any) => t.name);
    expect(topics).toEqual(expect.arrayContaining(["history", "greetings", "castle"]));
  });

  test("the stream info popup's get_stream_email_address (Model._fetch_stream_email_from_endpoint) reads `email`: \"\" as Zulip without an email gateway, and the channel and sender checked", async () => {
    expect(await call("GET", `streams/${denmark}/email_address`).then((r) => r.success())).toEqual({ result: "success", msg: "", email: "" });
    // Zulip's sender_id: the caller, or a bot they administer
    expect((await call("GET", `streams/${denmark}/email_address`, { sender_id: me.id })).success().email).toBe("");
    const bot = (await call("POST", "bots", { full_name: "Mailer", short_name: "mailer" })).success();
    expect((await call("GET", `streams/${denmark}/email_address`, { sender_id: bot.user_id })).success().email).toBe("");
    (await call("GET", `streams/${denmark}/email_address`, { sender_id: s.users.othello.id })).error("No such bot");
    // a private channel the caller is not in, and one that does not exist: Zulip's "Invalid channel ID"
    const secret = await createChannel(s, "hamlet", "Elsinore vault", { invite_only: true });
    (await call("GET", `streams/${secret}/email_address`)).error("Invalid channel ID");
    (await call("GET", "streams/99999/email_address")).error("Invalid channel ID");
  });

  test("send_typing_status_by_user_ids ({to, op}) works, and typing events carry the sender's email", async () => {
    await pollEvents();
    (await call("POST", "typing", { to: [s.users.othello.id], op: "start" })).success();
    (await s.users.othello.client.post("/typing", { to: [me.id], op: "start" })).success();
    (await s.users.othello.client.post("/typing", { to: [me.id], op: "stop" })).success();
    // no stream_typing_notifications capability: channel typing is not sent to it
    (await s.users.othello.client.post("/typing", { type: "channel", stream_id: denmark, topic: "greetings", op: "start" })).success();
    const typing = (await pollEvents()).filter((e) => e.type === "typing");
    expect(typing.map((e) => [e.op, e.sender.email])).toEqual([
      ["start", me.email],
      ["start", s.users.othello.email],
      ["stop", s.users.othello.email],
    ]);
  });
});

describe("zulip-terminal shows polls and to-do lists", () => {
  test("widget messages and their submessage events carry what widget.py reads (process_poll_widget, process_todo_widget)", async () => {
    await pollEvents();
    const poll = (await s.users.othello.client.post("/messages", { type: "stream", to: "Denmark", topic: "widgets", content: "/poll Lunch?\nPizza\nSushi" })).success().id;
    const todo = (await s.users.othello.client.post("/messages", { type: "stream", to: "Denmark", topic: "widgets", content: "/todo Chores\nDishes: tonight" })).success().id;
    (await s.users.cordelia.client.post("/submessage", { message_id: poll, msg_type: "widget", content: JSON.stringify({ type: "vote", key: "canned,0", vote: 1 }) })).success();
    (await s.users.cordelia.client.post("/submessage", { message_id: todo, msg_type: "widget", content: JSON.stringify({ type: "strike", key: "0,canned" }) })).success();
    const events = await pollEvents();
    expect(events.filter((e) => e.type === "message").map((e) => JSON.parse(e.message.submessages[0].content).widget_type)).toEqual(["poll", "todo"]);
    expect(events.filter((e) => e.type === "submessage").map((e) => [e.message_id, e.sender_id, JSON.parse(e.content).type])).toEqual([
      [poll, s.users.cordelia.id, "vote"],
      [todo, s.users.cordelia.id, "strike"],
    ]);
    // fetched again (core._narrow_to), the votes and strikes are on the messages
    const fetched = decoded(Z.GetMessagesResponse, await getMessages([["stream", "Denmark"], ["topic", "widgets"]], poll)).messages;
    expect(fetched.map((m: any) => [m.id, m.submessages.length])).toEqual([
      [poll, 2],
      [todo, 2],
    ]);
    expect(JSON.parse(fetched[1].submessages[0].content).extra_data).toMatchObject({ task_list_title: "Chores", tasks: [{ task: "Dishes", desc: "tonight" }] });
  });
});

describe("zulip-terminal follows changes", () => {
  test("toggle_stream_muted_status / pinned / visual notifications give subscription events it handles; peers too", async () => {
    await pollEvents();
    for (const [property, value] of [
      ["is_muted", true],
      ["pin_to_top", true],
      ["desktop_notifications", true],
    ] as const) (await call("POST", "users/me/subscriptions/properties", { subscription_data: [{ stream_id: denmark, property, value }] })).success();
    expect(await s.app.db.get("SELECT is_muted, pin_to_top, desktop_notifications FROM subscriptions WHERE user_id = ? AND stream_id = ?", [me.id, denmark])).toEqual({
      is_muted: 1,
      pin_to_top: 1,
      desktop_notifications: 1,
    });
    (await s.users.iago.client.post("/users/me/subscriptions", { subscriptions: [{ name: "Denmark" }] })).success();
    (await s.users.iago.client.delete("/users/me/subscriptions", { subscriptions: ["Denmark"] })).success();
    const subs = (await pollEvents()).filter((e) => e.type === "subscription");
    const updates = subs.filter((e) => e.op === "update").map((e) => [e.property, e.value]);
    for (const expected of [
      ["is_muted", true],
      ["in_home_view", false],
      ["pin_to_top", true],
      ["desktop_notifications", true],
    ])
      expect(updates).toContainEqual(expected);
    expect(subs.filter((e) => e.op !== "update").map((e) => [e.op, e.stream_ids, e.user_ids])).toEqual([
      ["peer_add", [denmark], [s.users.iago.id]],
      ["peer_remove", [denmark], [s.users.iago.id]],
    ]);
  });

  test("user settings, people and custom emoji changes reach its handlers with what they read", async () => {
    const field = (await s.users.desdemona.client.post("/realm/profile_fields", { name: "Phone", hint: "", field_type: 1 })).success().id;
    await pollEvents();
    (await call("PATCH", "settings", { twenty_four_hour_time: true })).success();
    (await s.users.othello.client.patch("/users/me/profile_data", { data: [{ id: field, value: "555-1234" }] })).success();
    (await s.users.desdemona.client.patch(`/users/${s.users.othello.id}`, { full_name: "Othello" })).success();
    const png = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
    (await s.users.desdemona.client.request("POST", "/realm/emoji/terminal_ok", { file: new File([png], "ok.png", { type: "image/png" }) })).success();
    const events = await pollEvents();
    expect(events.find((e) => e.type === "user_settings")).toMatchObject({ op: "update", property: "twenty_four_hour_time", value: true });
    const people = events.filter((e) => e.type === "realm_user").map((e) => e.person);
    expect(people).toContainEqual({ user_id: s.users.othello.id, custom_profile_field: { id: field, value: "555-1234", rendered_value: "<p>555-1234</p>" } });
    expect(people).toContainEqual({ user_id: s.users.othello.id, full_name: "Othello" });
    const emoji = events.find((e) => e.type === "realm_emoji");
    expect(Object.values(emoji.realm_emoji).map((e: any) => [e.name, e.deactivated])).toEqual([["terminal_ok", false]]);
    // the register answer has the new value too, and every profile_data key names a field
    decoded(Z.RegisterResponse, await call("POST", "register", REGISTER));
  });

  test("an idle long-poll ends with a heartbeat it skips by type, counting its id", async () => {
    await pollEvents();
    const events = await pollEvents();
    expect(events.map((e) => e.type)).toEqual(["heartbeat"]);
  });

  test("a queue that went away answers BAD_EVENT_QUEUE_ID, which makes it register again; deregister at exit", async () => {
    (await call("GET", "events", { queue_id: "gone", last_event_id: -1 })).error("Bad event queue ID: gone", "BAD_EVENT_QUEUE_ID");
    const reg = decoded(Z.RegisterResponse, await call("POST", "register", REGISTER));
    (await call("DELETE", "events", { queue_id: reg.queue_id })).success();
    expect(s.app.events.hasQueues(me.id)).toBe(true); // the first queue is still there
    (await call("GET", "events", { queue_id: reg.queue_id, last_event_id: -1 })).error(`Bad event queue ID: ${reg.queue_id}`, "BAD_EVENT_QUEUE_ID");
  });

  test("the tests above produced every event type it handles (Model.event_actions)", () => {
    expect(Z.HANDLED_EVENTS.filter((t) => !seenEvents.has(t))).toEqual([]);
  });
});
