/**
 * Zulip's message widgets, polls and to-do lists, read from a message's submessages: the first declares
 * the widget (`{widget_type, extra_data}`), each later one is an event a reader sent. The rules are
 * Zulip's (web/shared/src/poll_data.ts, web/src/todo_widget.ts): option and task keys, who may change
 * the question or title, duplicates ignored, votes toggled. Pure: the same submessages give the same widget.
 */
import type { Message, Submessage } from "./types";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const MAX_IDX = 1000;

export interface PollOption {
  key: string;
  option: string;
  /** voters' ids, in the order they voted */
  voters: number[];
}

export interface Poll {
  kind: "poll";
  question: string;
  options: PollOption[];
  /** the index the person's next new option takes */
  nextIdx: number;
  isAuthor: boolean;
}

export interface Task {
  key: string;
  task: string;
  desc: string;
  completed: boolean;
}

export interface TaskList {
  kind: "todo";
  title: string;
  tasks: Task[];
  /** the person's last task index (Zulip sends this plus one with the next task) */
  lastIdx: number;
  isAuthor: boolean;
}

export type Widget = Poll | TaskList;

function parse(s: Submessage): Json {
  try {
    return JSON.parse(s.content);
  } catch {
    return null;
  }
}

function pollFrom(extra: Json, m: Message, me: number, events: Submessage[]): Poll {
  const options = new Map<string, PollOption>();
  const poll: Poll = { kind: "poll", question: typeof extra?.question === "string" ? extra.question : "", options: [], nextIdx: 1, isAuthor: m.sender_id === me };
  const addOption = (sender: number | "canned", idx: number, option: string) => {
    if ([...options.values()].some((o) => o.option === option) || idx < 0 || idx > MAX_IDX) return;
    options.set(`${sender},${idx}`, { key: `${sender},${idx}`, option, voters: [] });
    if (sender === me && poll.nextIdx <= idx) poll.nextIdx = idx + 1;
  };
  const canned: unknown[] = Array.isArray(extra?.options) ? extra.options : [];
  canned.forEach((o, i) => typeof o === "string" && addOption("canned", i, o));
  for (const s of events) {
    const d = parse(s);
    if (d?.type === "new_option" && typeof d.option === "string" && Number.isInteger(d.idx)) addOption(s.sender_id, d.idx, d.option);
    else if (d?.type === "question" && typeof d.question === "string" && s.sender_id === m.sender_id) poll.question = d.question;
    else if (d?.type === "vote" && typeof d.key === "string") {
      const o = options.get(d.key);
      if (!o) continue;
      if (d.vote === 1 && !o.voters.includes(s.sender_id)) o.voters = [...o.voters, s.sender_id];
      else if (d.vote === -1) o.voters = o.voters.filter((v) => v !== s.sender_id);
    }
  }
  poll.options = [...options.values()];
  return poll;
}

function taskListFrom(extra: Json, m: Message, me: number, events: Submessage[]): TaskList {
  const tasks = new Map<string, Task>();
  const list: TaskList = { kind: "todo", title: typeof extra?.task_list_title === "string" && extra.task_list_title ? extra.task_list_title : "Task list", tasks: [], lastIdx: 1, isAuthor: m.sender_id === me };
  const addTask = (sender: number | "canned", idx: number, task: string, desc: string, completed: boolean) => {
    if (idx < 0 || idx > MAX_IDX) return;
    if (![...tasks.values()].some((t) => t.task === task)) tasks.set(`${idx},${sender}`, { key: `${idx},${sender}`, task, desc, completed });
    if (sender === me && list.lastIdx <= idx) list.lastIdx = idx + 1;
  };
  const canned: Json[] = Array.isArray(extra?.tasks) ? extra.tasks : [];
  canned.forEach((t, i) => typeof t?.task === "string" && addTask("canned", i, t.task, typeof t.desc === "string" ? t.desc : "", false));
  for (const s of events) {
    const d = parse(s);
    if (d?.type === "new_task" && Number.isInteger(d.key) && typeof d.task === "string" && typeof d.desc === "string" && typeof d.completed === "boolean") {
      addTask(s.sender_id, d.key, d.task, d.desc, d.completed);
    } else if (d?.type === "strike" && typeof d.key === "string") {
      const t = tasks.get(d.key);
      if (t) tasks.set(d.key, { ...t, completed: !t.completed });
    } else if (d?.type === "new_task_list_title" && typeof d.title === "string" && s.sender_id === m.sender_id) {
      list.title = d.title;
    }
  }
  list.tasks = [...tasks.values()];
  return list;
}

/** The widget a message carries, as it stands after every submessage; null for an ordinary message. */
export function widgetOf(m: Message, me: number): Widget | null {
  const [first, ...events] = m.submessages ?? [];
  if (!first || first.msg_type !== "widget") return null;
  const declared = parse(first);
  const widgetEvents = events.filter((s) => s.msg_type === "widget");
  if (declared?.widget_type === "poll") return pollFrom(declared.extra_data, m, me, widgetEvents);
  if (declared?.widget_type === "todo") return taskListFrom(declared.extra_data, m, me, widgetEvents);
  return null;
}

// What the person's actions send (POST /submessage content), in Zulip's shapes.

/** A vote for an option, or taking one's vote back. */
export const voteEvent = (poll: Poll, key: string, me: number) => ({ type: "vote", key, vote: poll.options.find((o) => o.key === key)?.voters.includes(me) ? -1 : 1 });

export const newOptionEvent = (poll: Poll, option: string) => ({ type: "new_option", idx: poll.nextIdx, option });

export const questionEvent = (question: string) => ({ type: "question", question });

export const newTaskEvent = (list: TaskList, task: string, desc: string) => ({ type: "new_task", key: list.lastIdx + 1, task, desc, completed: false });

export const strikeEvent = (key: string) => ({ type: "strike", key });

export const titleEvent = (title: string) => ({ type: "new_task_list_title", title });

/** Whether a poll already has this option, or a list this task (Zulip refuses duplicates). */
export const hasOption = (poll: Poll, option: string) => poll.options.some((o) => o.option === option);
export const hasTask = (list: TaskList, task: string) => list.tasks.some((t) => t.task === task);
