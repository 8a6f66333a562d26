import type { Event, EventQueue } from "./queue";
import { formatForQueue, formatMessage, outsideNarrow } from "./format";
import { fragmentOf, type Fragment } from "./wire";

type Message = Record<string, unknown>;

/**
 * One publish call's formatting: each event is formatted and serialized once per queue shape
 * (queue.ts shapeKey), and a message dict shared by the events of many users (each with their own
 * flags) once per shape too. Queues then hold the same fragment strings.
 */
export class Fanout {
  /** source message dict → shape → the dict as that shape sees it */
  private readonly messages = new Map<object, Map<string, Message>>();
  /** formatted message dicts → their JSON */
  private readonly json = new Map<object, string>();

  constructor(private readonly emptyTopicName: string) {}

  /** A memo for one event: call fragments() with the same memo for every queue that gets it. */
  static memo(): Map<string, Fragment[] | null> {
    return new Map();
  }

  /** The event as queue `q` receives it (null: not at all), serialized. */
  fragments(event: Event, q: EventQueue, memo: Map<string, Fragment[] | null>): Fragment[] | null {
    if (outsideNarrow(event, q.options)) return null;
    let f = memo.get(q.shape);
    if (f === undefined) {
      const formatted = this.format(event, q);
      f = formatted === null ? null : formatted.map((e) => fragmentOf(e, this.json));
      memo.set(q.shape, f);
    }
    return f;
  }

  /** The event for `q` with per-queue fields added (the sender's local_message_id): serialized for it alone. */
  fragmentsWith(event: Event, q: EventQueue, extra: Record<string, unknown>): Fragment[] | null {
    if (outsideNarrow(event, q.options)) return null;
    return this.format(event, q)?.map((e) => fragmentOf({ ...e, ...extra }, this.json)) ?? null;
  }

  private format(event: Event, q: EventQueue): Event[] | null {
    const formatted = formatForQueue(event, q.options, this.emptyTopicName, (m) => this.message(m, q));
    return formatted === null ? null : Array.isArray(formatted) ? formatted : [formatted];
  }

  private message(source: Message, q: EventQueue): Message {
    let byShape = this.messages.get(source);
    if (!byShape) this.messages.set(source, (byShape = new Map()));
    let out = byShape.get(q.shape);
    if (!out) {
      out = formatMessage(source, q.options, this.emptyTopicName);
      byShape.set(q.shape, out);
      this.json.set(out, JSON.stringify(out));
    }
    return out;
  }
}
