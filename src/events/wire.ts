/**
 * Events on the wire. An event is serialized once per form (format.ts) into a fragment: its JSON
 * without the closing brace. Every queue that gets that form holds the same string, and a long-poll
 * answer is built by concatenation, each event closed with the queue's own `,"id":N}`. One channel
 * message to 1,000 pending long-polls is then one JSON.stringify of the message, not 1,000.
 */

/** An event's JSON without its closing brace, e.g. `{"type":"heartbeat"`. */
export type Fragment = string;

export const HEARTBEAT: Fragment = '{"type":"heartbeat"';

/**
 * The fragment of an event. `known` holds the JSON of sub-objects already serialized (a message
 * shared by the events of many users): reused, not serialized again. A top-level `id` is left out:
 * the queue's event id takes its place, as Zulip's does.
 */
export function fragmentOf(event: Record<string, unknown>, known?: ReadonlyMap<object, string>): Fragment {
  let out = "{";
  for (const key in event) {
    if (key === "id") continue;
    const value = event[key];
    const json = typeof value === "object" && value !== null ? (known?.get(value) ?? JSON.stringify(value)) : JSON.stringify(value);
    if (json === undefined) continue; // undefined, functions: left out, as JSON.stringify does
    out += (out.length > 1 ? "," : "") + JSON.stringify(key) + ":" + json;
  }
  return out;
}

/** One event of a queue, closed with its id. */
const closed = (f: Fragment, id: number) => (f.length > 1 ? `${f},"id":${id}}` : `{"id":${id}}`);

/** The event back as an object (tests, diagnostics). */
export function parseFragment(f: Fragment, id: number): { type: string; id: number; [key: string]: unknown } {
  return JSON.parse(closed(f, id));
}

/**
 * GET /events' success answer: the JSON of Params.success({ events, queue_id }), keys in the same
 * order, without serializing any event again.
 */
export function eventsAnswer(batch: { firstId: number; fragments: readonly Fragment[] }, queueId: string, ignored: readonly string[]): string {
  let out = '{"result":"success","msg":"","events":[';
  const { firstId, fragments } = batch;
  for (let i = 0; i < fragments.length; i++) out += (i ? "," : "") + closed(fragments[i]!, firstId + i);
  out += `],"queue_id":${JSON.stringify(queueId)}`;
  if (ignored.length) out += `,"ignored_parameters_unsupported":${JSON.stringify(ignored)}`;
  return out + "}";
}
