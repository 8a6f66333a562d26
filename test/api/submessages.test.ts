import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, CAST, type CastName, type TestServer } from "../helpers/server";
import { deliverDueScheduledMessages } from "../../src/actions/scheduled-delivery";
import { createChannel } from "../helpers/channels";
import { queueEvents, registerQueue, sendDm, sendStream } from "../helpers/messages";
import {
  flutterHandleSubmessageEvent,
  flutterPoll,
  flutterSubmessage,
  terminalHandleSubmessageEvent,
  terminalPoll,
  terminalTodo,
  terminalWidgetType,
} from "../helpers/widget-readers";

let s: TestServer;
let verona: number;
beforeAll(async () => {
  s = await startServer();
  verona = await createChannel(s, "iago", "Verona", { subscribers: ["hamlet", "othello", "cordelia"] });
});
afterAll(() => s.close());

const ALL = Object.keys(CAST) as CastName[];
/** The cast members who received any event. */
const recipients = (ev: Awaited<ReturnType<TestServer["captureEvents"]>>) => ALL.filter((n) => ev.of(n).length > 0).sort();

const post = (who: CastName, messageId: number, data: unknown, msgType = "widget") =>
  s.users[who].client.post("/submessage", { message_id: messageId, msg_type: msgType, content: typeof data === "string" ? data : JSON.stringify(data) });
const stored = (messageId: number) => s.app.db.all<any>("SELECT id, message_id, sender_id, msg_type, content FROM submessages WHERE message_id = ? ORDER BY id", [messageId]);
const fetched = async (who: CastName, id: number) => (await s.users[who].client.get(`/messages/${id}`)).success().message;
const id = (who: CastName) => s.users[who].id;

function submessageEvent(who: CastName, messageId: number, submessageId: number, content: string) {
  return { type: "submessage", msg_type: "widget", message_id: messageId, submessage_id: submessageId, sender_id: id(who), content };
}

describe("sending /poll and /todo creates the widget", () => {
  test("a /poll message gets its poll submessage, shown on the message object and in the message event", async () => {
    const content = "/poll What is your favorite color?\n\nRed\nGreen  \n\n   Blue\n - Yellow";
    let messageId = 0;
    const ev = await s.captureEvents(async () => {
      messageId = await sendStream(s, "cordelia", "Verona", "polls", content);
    });
    const rows = await stored(messageId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ message_id: messageId, sender_id: id("cordelia"), msg_type: "widget" });
    expect(JSON.parse(rows[0].content)).toEqual({
      widget_type: "poll",
      extra_data: { question: "What is your favorite color?", options: ["Red", "Green", "Blue", "Yellow"] },
    });
    const expected = [{ id: rows[0].id, message_id: messageId, sender_id: id("cordelia"), msg_type: "widget", content: rows[0].content }];
    // the message keeps its content and is rendered as any other message
    const m = await fetched("hamlet", messageId);
    expect(m.submessages).toEqual(expected);
    expect((await s.users.hamlet.client.get(`/messages/${messageId}`, { apply_markdown: false })).success().message.content).toBe(content);
    // every recipient's message event carries the widget
    for (const who of ["cordelia", "hamlet", "othello", "iago"] as const) {
      const events = ev.of(who).filter((e) => e.type === "message");
      expect(events).toHaveLength(1);
      expect((events[0]!.message as any).submessages).toEqual(expected);
    }
  });

  test("a /todo message gets its task list, with each task's description after ': '", async () => {
    const messageId = await sendStream(s, "cordelia", "Verona", "todos", "/todo School Work\nchemistry homework: assignment 2\n- study for english test: pages 56-67");
    const [row] = await stored(messageId);
    expect(JSON.parse(row.content)).toEqual({
      widget_type: "todo",
      extra_data: {
        task_list_title: "School Work",
        tasks: [
          { task: "chemistry homework", desc: "assignment 2" },
          { task: "study for english test", desc: "pages 56-67" },
        ],
      },
    });
    expect((await fetched("othello", messageId)).submessages).toEqual([{ id: row.id, message_id: messageId, sender_id: id("cordelia"), msg_type: "widget", content: row.content }]);
  });

  test("bare /poll and /todo are widgets too; a direct message can be one", async () => {
    const poll = await sendDm(s, "hamlet", ["othello"], "/poll");
    const todo = await sendStream(s, "hamlet", "Verona", "todos", "/todo");
    expect(JSON.parse((await stored(poll))[0].content)).toEqual({ widget_type: "poll", extra_data: { question: "", options: [] } });
    expect(JSON.parse((await stored(todo))[0].content)).toEqual({ widget_type: "todo", extra_data: { task_list_title: "", tasks: [] } });
    expect((await fetched("othello", poll)).submessages).toHaveLength(1);
  });

  test("other messages have an empty submessages list everywhere, and nothing stored", async () => {
    let ids: number[] = [];
    const ev = await s.captureEvents(async () => {
      for (const content of ["use /poll", "/polls are fun", "/me shrugs", "/bogus_command x"]) ids.push(await sendStream(s, "hamlet", "Verona", "plain", content));
    });
    for (const messageId of ids) {
      expect(await stored(messageId)).toEqual([]);
      expect((await fetched("othello", messageId)).submessages).toEqual([]);
    }
    const events = ev.of("othello").filter((e) => e.type === "message");
    expect(events.map((e) => (e.message as any).submessages)).toEqual([[], [], [], []]);
  });

  test("a scheduled /poll becomes a poll when it is delivered", async () => {
    const at = Math.floor(s.clock.now() / 1000) + 60;
    (await s.users.othello.client.post("/scheduled_messages", { type: "stream", to: verona, topic: "later", content: "/poll Later?\nyes\nno", scheduled_delivery_timestamp: at })).success();
    s.clock.advance(60_000);
    let delivered = 0;
    const ev = await s.captureEvents(async () => {
      delivered = await deliverDueScheduledMessages(s.app);
    });
    expect(delivered).toBe(1);
    const event = ev.of("hamlet").find((e) => e.type === "message")!;
    const messageId = (event.message as any).id;
    const rows = await stored(messageId);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0].content)).toEqual({ widget_type: "poll", extra_data: { question: "Later?", options: ["yes", "no"] } });
    expect((event.message as any).submessages).toEqual(rows);
  });

  test("GET /messages attaches to each message its own submessages, in id order", async () => {
    const a = await sendStream(s, "othello", "Verona", "fetch", "/poll A or B?\nA\nB");
    const plain = await sendStream(s, "othello", "Verona", "fetch", "just words");
    const b = await sendStream(s, "othello", "Verona", "fetch", "/todo Chores");
    (await post("hamlet", a, { type: "vote", key: "canned,1", vote: 1 })).success();
    (await post("hamlet", b, { type: "new_task", key: 0, task: "dishes", desc: "", completed: false })).success();
    (await post("cordelia", a, { type: "vote", key: "canned,0", vote: 1 })).success();
    const r = (await s.users.iago.client.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "topic", operand: "fetch" }] })).success();
    const byId = new Map<number, any>(r.messages.map((m: any) => [m.id, m]));
    expect(byId.get(a).submessages).toEqual(await stored(a));
    expect(byId.get(a).submessages.map((x: any) => x.sender_id)).toEqual([id("othello"), id("hamlet"), id("cordelia")]);
    expect(byId.get(b).submessages).toEqual(await stored(b));
    expect(byId.get(b).submessages).toHaveLength(2);
    expect(byId.get(plain).submessages).toEqual([]);
  });
});

describe("POST /submessage", () => {
  let poll: number;
  let pollWidget: any;
  beforeAll(async () => {
    poll = await sendStream(s, "cordelia", "Verona", "lunch", "/poll Lunch?\nPizza\nSoup");
    [pollWidget] = await stored(poll);
  });

  test("a vote is stored and sent to everyone who may read the message, as the apps read it", async () => {
    const content = JSON.stringify({ type: "vote", key: "canned,0", vote: 1 });
    let r: any;
    const ev = await s.captureEvents(async () => {
      r = (await s.users.hamlet.client.post("/submessage", { message_id: poll, msg_type: "widget", content })).success();
    });
    expect(r).toEqual({ result: "success", msg: "" });
    const rows = await stored(poll);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual({ id: rows[1].id, message_id: poll, sender_id: id("hamlet"), msg_type: "widget", content });
    expect(rows[1].id).toBeGreaterThan(pollWidget.id);
    const expected = submessageEvent("hamlet", poll, rows[1].id, content);
    for (const who of ["cordelia", "hamlet", "othello", "iago"] as const) expect(ev.of(who)).toEqual([expected]);
    expect(recipients(ev)).toEqual(["cordelia", "hamlet", "iago", "othello"]);
    expect((await fetched("othello", poll)).submessages).toEqual(rows);
  });

  test("new options, votes for them, vote removal and the author's new question all count in both apps", async () => {
    (await post("othello", poll, { type: "new_option", idx: 1, option: "Salad" })).success();
    (await post("othello", poll, { type: "vote", key: `${id("othello")},1`, vote: 1 })).success();
    (await post("iago", poll, { type: "vote", key: "canned,1", vote: 1 })).success();
    (await post("iago", poll, { type: "vote", key: "canned,1", vote: -1 })).success();
    (await post("cordelia", poll, { type: "question", question: "Lunch on Friday?" })).success();
    const m = await fetched("hamlet", poll);
    const flutter = flutterPoll(m)!;
    expect(flutter.question).toBe("Lunch on Friday?");
    expect([...flutter.options.entries()].map(([k, o]) => [k, o.text, [...o.voters]])).toEqual([
      ["canned,0", "Pizza", [id("hamlet")]],
      ["canned,1", "Soup", []],
      [`${id("othello")},1`, "Salad", [id("othello")]],
    ]);
    expect(terminalWidgetType(m.submessages)).toBe("poll");
    const terminal = terminalPoll(m.submessages);
    expect(terminal.question).toBe("Lunch on Friday?");
    expect([...terminal.options.entries()]).toEqual([
      ["canned,0", { option: "Pizza", votes: [id("hamlet")] }],
      ["canned,1", { option: "Soup", votes: [] }],
      [`${id("othello")},1`, { option: "Salad", votes: [id("othello")] }],
    ]);
  });

  test("through a real event queue, the new poll's message event carries its widget (checked against Zulip's OpenAPI when present)", async () => {
    const queue = await registerQueue(s, "othello", { event_types: ["message", "submessage"] });
    const messageId = await sendStream(s, "hamlet", "Verona", "queued", "/poll Queue?\nyes");
    const events = await queueEvents(s, "othello", queue);
    expect(events.map((e) => e.type)).toEqual(["message"]);
    expect(events[0].message.submessages).toEqual(await stored(messageId));
    expect(flutterPoll(events[0].message)!.question).toBe("Queue?");
    expect(terminalPoll(events[0].message.submessages).options.get("canned,0")).toEqual({ option: "yes", votes: [] });
  });

  test("a live vote event updates the poll in zulip-flutter and zulip-terminal", async () => {
    const before = await fetched("othello", poll);
    const queue = await registerQueue(s, "othello", { event_types: ["submessage"] });
    (await post("cordelia", poll, { type: "vote", key: "canned,0", vote: 1 })).success();
    const events = await queueEvents(s, "othello", queue); // checked against Zulip's OpenAPI when present
    expect(events).toHaveLength(1);
    const event = events[0];
    expect(event).toMatchObject({ type: "submessage", msg_type: "widget", message_id: poll, sender_id: id("cordelia") });
    const flutter = flutterPoll(before)!;
    expect(flutterHandleSubmessageEvent(flutter, before.sender_id, event)).toMatchObject({ messageId: poll, submessageId: event.submessage_id });
    expect([...flutter.options.get("canned,0")!.voters]).toEqual([id("hamlet"), id("cordelia")]);
    terminalHandleSubmessageEvent(before, event);
    expect(terminalPoll(before.submessages).options.get("canned,0")!.votes).toEqual([id("hamlet"), id("cordelia")]);
    expect(before.submessages.at(-1)).toMatchObject({ submessage_id: event.submessage_id, content: event.content });
  });

  test("only the poll's author may change its question; nothing is stored or sent otherwise", async () => {
    const count = (await stored(poll)).length;
    const ev = await s.captureEvents(async () => {
      (await post("hamlet", poll, { type: "question", question: "Tabs or spaces?" })).error("You can't edit a question unless you are the author.");
    });
    expect(ev.types()).toEqual([]);
    expect(await stored(poll)).toHaveLength(count);
  });

  test("to-do lists: new tasks, strikes and the author's title, read by zulip-terminal (the mobile app shows no poll)", async () => {
    const todo = await sendStream(s, "cordelia", "Verona", "chores", "/todo Chores\nlaundry\ndishes: by hand");
    const newTask = JSON.stringify({ type: "new_task", key: 2, task: "sweep", desc: "kitchen", completed: false });
    let ev = await s.captureEvents(async () => {
      (await post("hamlet", todo, newTask)).success();
    });
    const rows = await stored(todo);
    expect(ev.of("othello")).toEqual([submessageEvent("hamlet", todo, rows[1].id, newTask)]);
    (await post("othello", todo, { type: "strike", key: "1,canned" })).success();
    (await post("othello", todo, { type: "strike", key: `2,${id("hamlet")}` })).success();
    (await post("iago", todo, { type: "strike", key: `2,${id("hamlet")}` })).success();
    (await post("cordelia", todo, { type: "new_task_list_title", title: "Weekend chores" })).success();
    ev = await s.captureEvents(async () => {
      (await post("hamlet", todo, { type: "new_task_list_title", title: "Mine now" })).error("You can't edit the task list title unless you are the author.");
    });
    expect(ev.types()).toEqual([]);
    const m = await fetched("hamlet", todo);
    expect(m.submessages).toHaveLength(6);
    expect(terminalWidgetType(m.submessages)).toBe("todo");
    const { title, tasks } = terminalTodo(m.submessages);
    expect(title).toBe("Weekend chores");
    expect([...tasks.entries()]).toEqual([
      ["0,canned", { task: "laundry", desc: "", completed: false }],
      ["1,canned", { task: "dishes", desc: "by hand", completed: true }],
      [`2,${id("hamlet")}`, { task: "sweep", desc: "kitchen", completed: false }],
    ]);
    expect(flutterPoll(m)).toBeNull();
    expect(m.submessages.map(flutterSubmessage).map((x: any) => x.msgType)).toEqual(Array(6).fill("widget"));
  });

  test("a poll in a direct message: the participants vote and only they hear of it", async () => {
    const dm = await sendDm(s, "hamlet", ["othello", "cordelia"], "/poll Meet when?\nMonday\nTuesday");
    const ev = await s.captureEvents(async () => {
      (await post("othello", dm, { type: "vote", key: "canned,1", vote: 1 })).success();
    });
    expect(recipients(ev)).toEqual(["cordelia", "hamlet", "othello"]);
    (await post("iago", dm, { type: "vote", key: "canned,1", vote: 1 })).error("Invalid message(s)");
    expect(await stored(dm)).toHaveLength(2);
  });

  test("users who may no longer read the message are not told of its votes", async () => {
    await createChannel(s, "iago", "Vault", { invite_only: true, history_public_to_subscribers: false, subscribers: ["hamlet", "othello"] });
    const vaulted = await sendStream(s, "othello", "Vault", "t", "/poll Secret?\nyes\nno");
    (await s.users.iago.client.delete("/users/me/subscriptions", { subscriptions: ["Vault"], principals: [s.users.hamlet.id] })).success();
    const ev = await s.captureEvents(async () => {
      (await post("othello", vaulted, { type: "vote", key: "canned,0", vote: 1 })).success();
    });
    expect(recipients(ev)).toEqual(["iago", "othello"]);
    (await post("hamlet", vaulted, { type: "vote", key: "canned,0", vote: 1 })).error("Invalid message(s)");
    // a public channel: a guest who is not subscribed neither votes nor hears of votes
    await createChannel(s, "iago", "Plaza", { subscribers: ["cordelia"] });
    const plaza = await sendStream(s, "cordelia", "Plaza", "t", "/poll Plaza?\nyes");
    const plazaEv = await s.captureEvents(async () => {
      (await post("polonius", plaza, { type: "vote", key: "canned,0", vote: 1 })).error("Invalid message(s)");
      (await post("hamlet", plaza, { type: "vote", key: "canned,0", vote: 1 })).success();
    });
    // hamlet may read the public channel's history without a subscription; he is told along with its subscribers
    expect(recipients(plazaEv)).toEqual(["cordelia", "hamlet", "iago"]);
    expect(plazaEv.of("polonius")).toEqual([]);
    expect((await stored(plaza)).map((r) => r.sender_id)).toEqual([id("cordelia"), id("hamlet")]);
  });

  test("refused requests store nothing and send nothing", async () => {
    const plain = await sendStream(s, "cordelia", "Verona", "plain", "not a widget");
    const dm = await sendDm(s, "hamlet", ["othello"], "/poll private?");
    const secret = await createChannel(s, "iago", "Secret", { invite_only: true, subscribers: ["hamlet"] });
    const secretPoll = await sendStream(s, "hamlet", "Secret", "t", "/poll hidden?\nyes");
    const attic = await createChannel(s, "iago", "Attic", { subscribers: ["hamlet"] });
    const atticPoll = await sendStream(s, "hamlet", "Attic", "t", "/poll dusty?\nyes");
    (await s.users.iago.client.delete(`/streams/${attic}`)).success();
    const gone = await sendStream(s, "cordelia", "Verona", "t", "/poll soon gone?\nyes");
    (await s.users.cordelia.client.delete(`/messages/${gone}`)).success();
    const vote = { type: "vote", key: "canned,0", vote: 1 };
    const before = (await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM submessages"))!.n;
    const ev = await s.captureEvents(async () => {
      const c = s.users.hamlet.client;
      (await c.post("/submessage", {})).error("Missing 'content' argument", "REQUEST_VARIABLE_MISSING");
      (await c.post("/submessage", { content: "{}", msg_type: "widget" })).error("Missing 'message_id' argument", "REQUEST_VARIABLE_MISSING");
      (await c.post("/submessage", { content: "{}", message_id: poll })).error("Missing 'msg_type' argument", "REQUEST_VARIABLE_MISSING");
      (await c.post("/submessage", { content: "{}", message_id: "abc", msg_type: "widget" })).error("message_id is not valid JSON");
      (await post("hamlet", poll, vote, "whatever")).error("Invalid msg_type");
      (await post("hamlet", poll, "bogus")).error("Invalid json for submessage");
      (await post("hamlet", poll, '""')).error("poll data is not a dict");
      (await post("hamlet", poll, "[]")).error("poll data is not a dict");
      (await post("hamlet", poll, { type: "bogus" })).error("Unknown type for poll data: bogus");
      (await post("hamlet", poll, { type: "vote" })).error("key key is missing from poll data");
      (await post("hamlet", poll, { type: "vote", key: "1,1,", vote: 99 })).error('Invalid poll data["key"]');
      (await post("hamlet", poll, { type: "vote", key: "1,1", vote: 99 })).error('Invalid poll data["vote"]');
      (await post("hamlet", poll, { type: "new_option", idx: 1001, option: "pizza" })).error('poll data["idx"] is too large');
      (await post("hamlet", poll, { type: "vote", key: "canned,0", vote: 1, x: 1 })).error("Unexpected arguments: x");
      (await post("hamlet", 999999, vote)).error("Invalid message(s)");
      (await post("hamlet", plain, vote)).error("You cannot attach a submessage to this message.");
      (await post("cordelia", plain, { widget_type: "poll", extra_data: {} })).error("You cannot attach a submessage to this message.");
      (await post("cordelia", dm, vote)).error("Invalid message(s)");
      (await post("othello", secretPoll, vote)).error("Invalid message(s)");
      (await post("polonius", poll, vote)).error("Invalid message(s)");
      (await post("hamlet", atticPoll, vote)).error("Invalid message(s)");
      (await post("cordelia", gone, vote)).error("Invalid message(s)");
    });
    expect(ev.types()).toEqual([]);
    expect((await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM submessages"))!.n).toBe(before);
    void secret;
  });

  test("to-do events are checked against the to-do shapes", async () => {
    const todo = await sendStream(s, "cordelia", "Verona", "chores", "/todo");
    (await post("hamlet", todo, { type: "bogus" })).error("Unknown type for todo data: bogus");
    (await post("hamlet", todo, { type: "vote", key: "canned,0", vote: 1 })).error("Unknown type for todo data: vote");
    (await post("hamlet", todo, { type: "new_task" })).error("key key is missing from todo data");
    (await post("hamlet", todo, { type: "new_task", key: 7, task: 7, desc: "", completed: false })).error('todo data["task"] is not a string');
    (await post("hamlet", todo, { type: "new_task", key: -1, task: "eat", desc: "", completed: false })).error('todo data["key"] is too small');
    (await post("hamlet", todo, { type: "strike", key: 999 })).error('todo data["key"] is not a string');
    expect(await stored(todo)).toHaveLength(1);
  });

  test("a vote follows the topic for users who follow topics they take part in", async () => {
    (await s.users.othello.client.patch("/settings", { automatically_follow_topics_policy: 1 })).success();
    const p = await sendStream(s, "cordelia", "Verona", "follow me", "/poll Follow?\nyes");
    const ev = await s.captureEvents(async () => {
      (await post("othello", p, { type: "vote", key: "canned,0", vote: 1 })).success();
    });
    expect(ev.of("othello").map((e) => e.type)).toEqual(["muted_topics", "user_topic", "submessage"]);
    expect(ev.of("othello")[1]).toMatchObject({ type: "user_topic", stream_id: verona, topic_name: "follow me", visibility_policy: 3 });
    const row = await s.app.db.get<any>("SELECT visibility_policy FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic = ?", [id("othello"), verona, "follow me"]);
    expect(row.visibility_policy).toBe(3);
    // already followed: the next vote changes nothing more
    const again = await s.captureEvents(async () => {
      (await post("othello", p, { type: "vote", key: "canned,0", vote: -1 })).success();
    });
    expect(again.of("othello").map((e) => e.type)).toEqual(["submessage"]);
    (await s.users.othello.client.patch("/settings", { automatically_follow_topics_policy: 3 })).success();
  });
});

describe("widgets and edits, moves and deletions", () => {
  test("a widget's content cannot be edited (Zulip), and nothing changes", async () => {
    const p = await sendStream(s, "cordelia", "Verona", "edits", "/poll Which?\nA\nB");
    const ev = await s.captureEvents(async () => {
      (await s.users.cordelia.client.patch(`/messages/${p}`, { content: "/poll Which one?\nA\nB\nC" })).error("Widgets cannot be edited.");
    });
    expect(ev.types()).toEqual([]);
    const m = await fetched("cordelia", p);
    expect(m.content).toBe("<p>/poll Which?<br>\nA<br>\nB</p>");
    expect(m.submessages).toHaveLength(1);
  });

  test("editing a plain message into '/poll ...' does not make it a widget (Zulip only makes them on send)", async () => {
    const p = await sendStream(s, "cordelia", "Verona", "edits", "soon a poll?");
    (await s.users.cordelia.client.patch(`/messages/${p}`, { content: "/poll Now?\nyes" })).success();
    expect(await stored(p)).toEqual([]);
    expect((await fetched("hamlet", p)).submessages).toEqual([]);
    (await post("cordelia", p, { type: "vote", key: "canned,0", vote: 1 })).error("You cannot attach a submessage to this message.");
  });

  test("a widget moves with its message to another topic, votes and all", async () => {
    const p = await sendStream(s, "cordelia", "Verona", "before move", "/poll Move?\nyes");
    (await post("hamlet", p, { type: "vote", key: "canned,0", vote: 1 })).success();
    (await s.users.cordelia.client.patch(`/messages/${p}`, { topic: "after move" })).success();
    const m = await fetched("othello", p);
    expect(m.subject).toBe("after move");
    expect(m.submessages).toEqual(await stored(p));
    expect(m.submessages).toHaveLength(2);
  });

  test("deleting a widget message deletes its submessages", async () => {
    const p = await sendStream(s, "cordelia", "Verona", "doomed", "/poll Delete me?\nyes");
    (await post("hamlet", p, { type: "vote", key: "canned,0", vote: 1 })).success();
    expect(await stored(p)).toHaveLength(2);
    (await s.users.cordelia.client.delete(`/messages/${p}`)).success();
    expect(await stored(p)).toEqual([]);
    (await post("hamlet", p, { type: "vote", key: "canned,0", vote: -1 })).error("Invalid message(s)");
  });
});
