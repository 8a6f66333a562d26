/** Polls and to-do lists as the web app reads them from submessages (assets/app/state/widgets.ts), by Zulip's rules. */
import { describe, expect, test } from "bun:test";
import { hasOption, hasTask, newOptionEvent, newTaskEvent, voteEvent, widgetOf, type Poll, type TaskList } from "../../assets/app/state/widgets";
import type { Message, Submessage } from "../../assets/app/state/types";

const AUTHOR = 4;
const OTHER = 5;
let nextId = 1;
const sub = (sender_id: number, content: unknown, msg_type = "widget"): Submessage => ({ id: nextId++, message_id: 1, sender_id, msg_type, content: JSON.stringify(content) });
const message = (submessages: Submessage[]): Message => ({
  id: 1,
  sender_id: AUTHOR,
  sender_full_name: "",
  sender_email: "",
  timestamp: 0,
  type: "stream",
  stream_id: 12,
  subject: "t",
  display_recipient: "general",
  content: "",
  flags: [],
  reactions: [],
  submessages,
  is_me_message: false,
});
const POLL = { widget_type: "poll", extra_data: { question: "Lunch?", options: ["Pizza", "Sushi", "Pizza"] } };
const TODO = { widget_type: "todo", extra_data: { task_list_title: "", tasks: [{ task: "Buy milk", desc: "two litres" }, { task: "Call mum", desc: "" }] } };
const poll = (events: Submessage[], me = AUTHOR) => widgetOf(message([sub(AUTHOR, POLL), ...events]), me) as Poll;
const todo = (events: Submessage[], me = AUTHOR) => widgetOf(message([sub(AUTHOR, TODO), ...events]), me) as TaskList;

describe("polls", () => {
  test("the declared options (duplicates once) carry canned keys; votes toggle; only the author changes the question", () => {
    const p = poll([
      sub(OTHER, { type: "vote", key: "canned,0", vote: 1 }),
      sub(AUTHOR, { type: "vote", key: "canned,0", vote: 1 }),
      sub(OTHER, { type: "vote", key: "canned,1", vote: 1 }),
      sub(OTHER, { type: "vote", key: "canned,0", vote: -1 }),
      sub(AUTHOR, { type: "question", question: "Dinner?" }),
      sub(OTHER, { type: "question", question: "Hijacked?" }),
      sub(OTHER, { type: "vote", key: "nope,9", vote: 1 }),
    ]);
    expect(p.question).toBe("Dinner?");
    expect(p.options).toEqual([
      { key: "canned,0", option: "Pizza", voters: [AUTHOR] },
      { key: "canned,1", option: "Sushi", voters: [OTHER] },
    ]);
    expect(p.isAuthor).toBe(true);
  });

  test("options added by readers are keyed by sender and index; a duplicate or an index out of range is ignored; the next index follows the person's own", () => {
    const events = [
      sub(OTHER, { type: "new_option", idx: 1, option: "Tacos" }),
      sub(AUTHOR, { type: "new_option", idx: 3, option: "Soup" }),
      sub(OTHER, { type: "new_option", idx: 2, option: "Sushi" }),
      sub(OTHER, { type: "new_option", idx: 1001, option: "Far" }),
      sub(OTHER, { type: "vote", key: `${OTHER},1`, vote: 1 }),
    ];
    const p = poll(events);
    expect(p.options.map((o) => [o.key, o.option, o.voters])).toEqual([
      ["canned,0", "Pizza", []],
      ["canned,1", "Sushi", []],
      [`${OTHER},1`, "Tacos", [OTHER]],
      [`${AUTHOR},3`, "Soup", []],
    ]);
    expect(p.nextIdx).toBe(4);
    expect(poll(events, OTHER).nextIdx).toBe(2);
    expect(newOptionEvent(p, "Curry")).toEqual({ type: "new_option", idx: 4, option: "Curry" });
    expect(hasOption(p, "Soup")).toBe(true);
  });

  test("a vote is 1, or -1 for an option the person already voted for", () => {
    const p = poll([sub(AUTHOR, { type: "vote", key: "canned,1", vote: 1 })]);
    expect(voteEvent(p, "canned,0", AUTHOR)).toEqual({ type: "vote", key: "canned,0", vote: 1 });
    expect(voteEvent(p, "canned,1", AUTHOR)).toEqual({ type: "vote", key: "canned,1", vote: -1 });
  });
});

describe("to-do lists", () => {
  test("tasks from the message, tasks added by readers (their names unique), strikes toggling, the title set by its author only", () => {
    const l = todo([
      sub(OTHER, { type: "new_task", key: 2, task: "Walk dog", desc: "", completed: false }),
      sub(OTHER, { type: "new_task", key: 3, task: "Buy milk", desc: "again", completed: false }),
      sub(OTHER, { type: "strike", key: "0,canned" }),
      sub(AUTHOR, { type: "strike", key: `2,${OTHER}` }),
      sub(OTHER, { type: "strike", key: `2,${OTHER}` }),
      sub(AUTHOR, { type: "new_task_list_title", title: "Chores" }),
      sub(OTHER, { type: "new_task_list_title", title: "Mine now" }),
    ]);
    expect(l.title).toBe("Chores");
    expect(l.tasks).toEqual([
      { key: "0,canned", task: "Buy milk", desc: "two litres", completed: true },
      { key: "1,canned", task: "Call mum", desc: "", completed: false },
      { key: `2,${OTHER}`, task: "Walk dog", desc: "", completed: false },
    ]);
    expect(hasTask(l, "Walk dog")).toBe(true);
  });

  test("an untitled list is Zulip's “Task list”; the person's next task takes Zulip's next key", () => {
    const l = todo([sub(AUTHOR, { type: "new_task", key: 2, task: "Plan", desc: "", completed: false })]);
    expect(l.title).toBe("Task list");
    expect(newTaskEvent(l, "Do", "now")).toEqual({ type: "new_task", key: 4, task: "Do", desc: "now", completed: false });
    expect(newTaskEvent(todo([]), "First", "")).toMatchObject({ key: 2 });
  });
});

test("an ordinary message, or one whose first submessage is not a widget, has no widget", () => {
  expect(widgetOf(message([]), AUTHOR)).toBeNull();
  expect(widgetOf(message([sub(AUTHOR, { widget_type: "zform", extra_data: {} })]), AUTHOR)).toBeNull();
  expect(widgetOf(message([sub(AUTHOR, POLL, "other")]), AUTHOR)).toBeNull();
});
