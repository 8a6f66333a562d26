/**
 * Zulip's message widgets (polls and to-do lists): a message whose content starts with `/poll` or
 * `/todo` declares one (zerver/lib/widget.py), and the readers act on it with submessages whose
 * content Zulip checks by widget type (validate_poll_data, validate_todo_data in
 * zerver/lib/validator.py). Pure functions: what a message declares, and what is wrong with a
 * submessage (Zulip's error text), or null.
 */

export type WidgetType = "poll" | "todo";

export interface PollExtraData {
  question: string;
  options: string[];
}

export interface TaskListExtraData {
  task_list_title: string;
  tasks: { task: string; desc: string }[];
}

export type Widget = { widget_type: "poll"; extra_data: PollExtraData } | { widget_type: "todo"; extra_data: TaskListExtraData };

/** The submessage type of every widget submessage (the only one Zulip's apps know). */
export const WIDGET_MSG_TYPE = "widget";

/** Zulip's MAX_IDX: the highest option or task index a widget event may name. */
export const MAX_IDX = 1000;

const SLASH = 47;

/** The widget command a content starts with: its first token (up to whitespace) is `/poll` or `/todo`. */
function commandOf(content: string): WidgetType | null {
  // a content not starting with "/" costs one character comparison: ordinary messages pay nothing more
  if (content.charCodeAt(0) !== SLASH) return null;
  const type = content.startsWith("/poll") ? "poll" : content.startsWith("/todo") ? "todo" : null;
  return type && (content.length === 5 || /\s/.test(content[5]!)) ? type : null;
}

/** The widget a message's content declares (Zulip's get_widget_data), or null. */
export function widgetOf(content: string): Widget | null {
  const type = commandOf(content);
  if (type === null) return null;
  const rest = content.slice(5);
  return type === "poll" ? { widget_type: "poll", extra_data: pollExtraData(rest) } : { widget_type: "todo", extra_data: taskListExtraData(rest) };
}

/**
 * Whether a message may have submessages: only widget messages do. A message becomes one when it is
 * sent with a widget command; its content can never be edited after (Zulip's rule), and other
 * messages take no submessages (POST /submessage). So a message whose content does not start with a
 * widget command has none, and reading it needs no submessage query.
 */
export const mayHaveSubmessages = (content: string) => commandOf(content) !== null;

/** Python's str.splitlines(): no empty last line for a trailing line break, [] for "". */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** An option or task line without a leading list marker ("- ", "* "). */
const unlisted = (line: string) => line.trim().replace(/^\s*[-*]?\s*/, "");

/** The first line (when not empty) is the heading; the other non-empty lines are the items. */
function headingAndItems(text: string): { heading: string; items: string[] } {
  const lines = splitLines(text);
  let heading = "";
  if (lines.length && lines[0]) heading = lines.shift()!.trim();
  return { heading, items: lines.map(unlisted).filter((l) => l.length > 0) };
}

/** `/poll Question` then one option per line (Zulip's parse_poll_extra_data). */
export function pollExtraData(text: string): PollExtraData {
  const { heading, items } = headingAndItems(text);
  return { question: heading, options: items };
}

/** `/todo Title` then one task per line, "task: description" (Zulip's parse_todo_extra_data). */
export function taskListExtraData(text: string): TaskListExtraData {
  const { heading, items } = headingAndItems(text);
  const tasks = items.map((item) => {
    const at = item.indexOf(": ");
    return at < 0 ? { task: item.trim(), desc: "" } : { task: item.slice(0, at).trim(), desc: item.slice(at + 2).trim() };
  });
  return { task_list_title: heading, tasks };
}

/** The widget type of a widget submessage's content (Zulip's get_widget_type), or null. */
export function widgetTypeOf(content: string): string | null {
  try {
    const data = JSON.parse(content);
    return data && typeof data === "object" && typeof data.widget_type === "string" ? data.widget_type : null;
  } catch {
    return null;
  }
}

// Zulip's validators (zerver/lib/validator.py), each answering its error text or null.
type Check = (name: string, value: unknown) => string | null;

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
// JSON booleans are not integers here (Python's are): the mobile app reads an index as a number.
const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);

const checkString: Check = (name, v) => (typeof v === "string" ? null : `${name} is not a string`);
const checkBool: Check = (name, v) => (typeof v === "boolean" ? null : `${name} is not a boolean`);
const checkInt: Check = (name, v) => (isInt(v) ? null : `${name} is not an integer`);
const checkIntIn =
  (allowed: number[]): Check =>
  (name, v) =>
    checkInt(name, v) ?? (allowed.includes(v as number) ? null : `Invalid ${name}`);
const checkIntRange =
  (low: number, high: number): Check =>
  (name, v) =>
    checkInt(name, v) ?? ((v as number) < low ? `${name} is too small` : (v as number) > high ? `${name} is too large` : null);

/**
 * A poll option's key: "canned,<index>" for the options the message declared, "<sender id>,<index>"
 * for added ones. Zulip takes any string; the mobile app (PollVoteEventSubmessage.fromJson) parses
 * both parts as integers and fails to read the whole message otherwise, so Parley refuses others.
 */
const checkOptionKey: Check = (name, v) => checkString(name, v) ?? (/^(?:canned|\d{1,15}),\d{1,15}$/.test(v as string) ? null : `Invalid ${name}`);

/** Zulip's check_dict_only: exactly these keys, in this order of checking. */
function checkDictOnly(name: string, data: Record<string, unknown>, keys: [string, Check][]): string | null {
  for (const [key, check] of keys) {
    if (!(key in data)) return `${key} key is missing from ${name}`;
    const error = check(`${name}["${key}"]`, data[key]);
    if (error) return error;
  }
  const extra = Object.keys(data).filter((k) => !keys.some(([key]) => key === k));
  return extra.length ? `Unexpected arguments: ${extra.join(", ")}` : null;
}

/** The "type" every widget event carries (Zulip's check_dict([("type", check_string)])). */
function checkEventType(name: string, data: unknown): string | null {
  if (!isDict(data)) return `${name} is not a dict`;
  if (!("type" in data)) return `type key is missing from ${name}`;
  return checkString(`${name}["type"]`, data.type);
}

/** Zulip's validate_poll_data: a vote, a new option, or (the poll's author only) a new question. */
export function pollEventError(data: unknown, isAuthor: boolean): string | null {
  const name = "poll data";
  const typeError = checkEventType(name, data);
  if (typeError) return typeError;
  const d = data as Record<string, unknown>;
  switch (d.type) {
    case "vote":
      return checkDictOnly(name, d, [["type", checkString], ["key", checkOptionKey], ["vote", checkIntIn([1, -1])]]);
    case "question":
      if (!isAuthor) return "You can't edit a question unless you are the author.";
      return checkDictOnly(name, d, [["type", checkString], ["question", checkString]]);
    case "new_option":
      return checkDictOnly(name, d, [["type", checkString], ["option", checkString], ["idx", checkIntRange(0, MAX_IDX)]]);
  }
  return `Unknown type for poll data: ${d.type}`;
}

/** Zulip's validate_todo_data: a new task, a strike (toggle), or (the author only) a new title. */
export function taskListEventError(data: unknown, isAuthor: boolean): string | null {
  const name = "todo data";
  const typeError = checkEventType(name, data);
  if (typeError) return typeError;
  const d = data as Record<string, unknown>;
  switch (d.type) {
    case "new_task":
      return checkDictOnly(name, d, [
        ["type", checkString],
        ["key", checkIntRange(0, MAX_IDX)],
        ["task", checkString],
        ["desc", checkString],
        ["completed", checkBool],
      ]);
    case "strike":
      return checkDictOnly(name, d, [["type", checkString], ["key", checkString]]);
    case "new_task_list_title":
      if (!isAuthor) return "You can't edit the task list title unless you are the author.";
      return checkDictOnly(name, d, [["type", checkString], ["title", checkString]]);
  }
  return `Unknown type for todo data: ${d.type}`;
}

/** What is wrong with a widget event for a widget of this type (other types: nothing Zulip checks). */
export function widgetEventError(widgetType: string | null, data: unknown, isAuthor: boolean): string | null {
  if (widgetType === "poll") return pollEventError(data, isAuthor);
  if (widgetType === "todo") return taskListEventError(data, isAuthor);
  return null;
}
