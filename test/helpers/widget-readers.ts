/**
 * How the official apps read widgets, restated from their public source so tests can check that
 * what Parley stores and sends decodes there, and that votes count. Each reader is as strict as the
 * app: where the app's decoder would throw, these throw.
 */

const need = <T>(ok: boolean, value: T, what: string): T => {
  if (!ok) throw new Error(`cannot decode: ${what}`);
  return value;
};
const int = (v: unknown, what: string) => need(typeof v === "number" && Number.isInteger(v), v as number, `${what} is not an int`);
const str = (v: unknown, what: string) => need(typeof v === "string", v as string, `${what} is not a String`);
const map = (v: unknown, what: string) => need(typeof v === "object" && v !== null && !Array.isArray(v), v as Record<string, unknown>, `${what} is not a Map`);

export interface FlutterPoll {
  question: string;
  /** option key → [text, voter ids] in the order the options appeared */
  options: Map<string, { text: string; voters: Set<number> }>;
}

/** zulip-flutter's Submessage.fromJson (lib/api/model/submessage.dart): sender_id, msg_type, content. */
export function flutterSubmessage(json: unknown) {
  const m = map(json, "submessage");
  return { senderId: int(m.sender_id, "sender_id"), msgType: str(m.msg_type, "msg_type") === "widget" ? "widget" : "unknown", content: str(m.content, "content") };
}

type FlutterPollEvent =
  | { type: "new_option"; option: string; idx: number }
  | { type: "question"; question: string }
  | { type: "vote"; key: string; op: "add" | "remove" | "unknown" };

/** A poll event submessage as zulip-flutter's PollEventSubmessage.fromJson reads it (an unknown type throws). */
function flutterPollEvent(json: unknown): FlutterPollEvent {
  const m = map(json, "poll event");
  const type = str(m.type, "type");
  if (type === "new_option") return { type, option: str(m.option, "option"), idx: int(m.idx, "idx") };
  if (type === "question") return { type, question: str(m.question, "question") };
  if (type === "vote") {
    const key = str(m.key, "key");
    // PollVoteEventSubmessage.fromJson: exactly two parts, "canned" or an int, then an int
    const parts = key.split(",");
    need(parts.length === 2, null, `vote key ${key}`);
    need(parts[0] === "canned" || /^[+-]?\d+$/.test(parts[0]!), null, `vote key ${key}`);
    need(/^[+-]?\d+$/.test(parts[1]!), null, `vote key ${key}`);
    return { type, key, op: m.vote === 1 ? "add" : m.vote === -1 ? "remove" : "unknown" };
  }
  throw new Error(`cannot decode: poll event type ${type}`);
}

function applyFlutterPollEvent(poll: FlutterPoll, messageSenderId: number, senderId: number, e: FlutterPollEvent) {
  if (e.type === "new_option") addFlutterOption(poll, `${senderId},${e.idx}`, e.idx, e.option);
  else if (e.type === "question") {
    if (senderId === messageSenderId) poll.question = e.question;
  } else {
    const option = poll.options.get(e.key);
    if (!option) return;
    if (e.op === "add") option.voters.add(senderId);
    else if (e.op === "remove") option.voters.delete(senderId);
  }
}

function addFlutterOption(poll: FlutterPoll, key: string, idx: number, text: string) {
  if (idx > 1000 || idx < 0) return;
  if ([...poll.options.values()].some((o) => o.text === text)) return;
  poll.options.set(key, { text, voters: new Set() });
}

/**
 * zulip-flutter's Message.poll: Submessage.parseSubmessagesJson over the message's `submessages`
 * (null when there are none or the widget is not a poll, such as a to-do list).
 */
export function flutterPoll(message: Record<string, unknown>): FlutterPoll | null {
  const list = need(Array.isArray(message.submessages ?? []), (message.submessages ?? []) as unknown[], "submessages is not a List");
  const submessages = list.map(flutterSubmessage);
  if (!submessages.length) return null;
  const widget = map(JSON.parse(submessages[0]!.content), "widget data");
  if (str(widget.widget_type, "widget_type") !== "poll") return null;
  const extra = map(widget.extra_data, "extra_data");
  const poll: FlutterPoll = { question: extra.question === undefined ? "" : str(extra.question, "question"), options: new Map() };
  const options = (extra.options ?? []) as unknown[];
  options.forEach((o, i) => addFlutterOption(poll, `canned,${i}`, i, str(o, "option")));
  for (const s of submessages.slice(1)) applyFlutterPollEvent(poll, message.sender_id as number, s.senderId, flutterPollEvent(JSON.parse(s.content)));
  return poll;
}

/** zulip-flutter's SubmessageEvent.fromJson, then Poll.handleSubmessageEvent on the message's poll. */
export function flutterHandleSubmessageEvent(poll: FlutterPoll, messageSenderId: number, event: Record<string, unknown>) {
  const e = { msgType: str(event.msg_type, "msg_type"), content: str(event.content, "content"), messageId: int(event.message_id, "message_id"), senderId: int(event.sender_id, "sender_id"), submessageId: int(event.submessage_id, "submessage_id") };
  applyFlutterPollEvent(poll, messageSenderId, e.senderId, flutterPollEvent(JSON.parse(e.content)));
  return e;
}

/** zulip-terminal's find_widget_type (zulipterminal/widget.py). */
export function terminalWidgetType(submessages: Record<string, unknown>[]): string {
  if (!submessages.length || !("content" in submessages[0]!)) return "unknown";
  const content = submessages[0]!.content;
  if (typeof content !== "string") return "unknown";
  try {
    return (JSON.parse(content).widget_type as string | undefined) ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** zulip-terminal's process_poll_widget: the question and each option's text and voters. */
export function terminalPoll(submessages: Record<string, unknown>[]) {
  let question = "";
  const options = new Map<string, { option: string; votes: number[] }>();
  for (const entry of submessages) {
    const content = entry.content;
    const senderId = entry.sender_id as number;
    if (entry.msg_type !== "widget" || typeof content !== "string") continue;
    const w = JSON.parse(content);
    if (w.widget_type === "poll") {
      question = w.extra_data.question;
      (w.extra_data.options as string[]).forEach((o, i) => options.set(`canned,${i}`, { option: o, votes: [] }));
    } else if (w.type === "question") question = w.question;
    else if (w.type === "vote") {
      const o = options.get(w.key);
      if (!o) continue;
      if (w.vote === 1 && !o.votes.includes(senderId)) o.votes.push(senderId);
      else if (w.vote === -1 && o.votes.includes(senderId)) o.votes.splice(o.votes.indexOf(senderId), 1);
    } else if (w.type === "new_option") options.set(`${senderId},${w.idx}`, { option: w.option, votes: [] });
  }
  return { question, options };
}

/** zulip-terminal's process_todo_widget: the title and each task's text, description and state. */
export function terminalTodo(submessages: Record<string, unknown>[]) {
  let title = "";
  const tasks = new Map<string, { task: string; desc: string; completed: boolean }>();
  for (const entry of submessages) {
    const content = entry.content;
    const senderId = entry.sender_id as number;
    if (entry.msg_type !== "widget" || typeof content !== "string") continue;
    const w = JSON.parse(content);
    if (w.widget_type === "todo") {
      if (w.extra_data != null) {
        title = w.extra_data.task_list_title ?? "";
        if (title === "") title = "Task list";
        (w.extra_data.tasks ?? []).forEach((t: any, i: number) => tasks.set(`${i},canned`, { task: t.task, desc: t.desc ?? "", completed: false }));
      }
    } else if (w.type === "new_task") tasks.set(`${w.key},${senderId}`, { task: w.task, desc: w.desc ?? "", completed: false });
    else if (w.type === "strike") {
      const t = tasks.get(w.key);
      if (t) t.completed = !t.completed;
    } else if (w.type === "new_task_list_title") title = w.title;
  }
  return { title, tasks };
}

/** zulip-terminal's _handle_submessage_event: appended to the message's `submessages` (which must exist). */
export function terminalHandleSubmessageEvent(message: Record<string, unknown>, event: Record<string, unknown>) {
  const list = message.submessages as Record<string, unknown>[] | undefined;
  if (!Array.isArray(list)) throw new Error("cannot handle: message has no submessages list");
  list.push({ type: event.type, msg_type: event.msg_type, message_id: event.message_id, submessage_id: event.submessage_id, sender_id: event.sender_id, content: event.content });
}
