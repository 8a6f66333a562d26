import { nowSecs, realmOf, type App } from "../app";
import { badRequest, notFound } from "../errors";
import {
  deleteScheduledMessage as deleteRow,
  findScheduledMessage,
  insertScheduledMessage,
  listUndeliveredScheduledMessages,
  updateScheduledMessage,
  type ScheduledMessageChanges,
  type ScheduledMessageRow,
} from "../store/scheduled-messages";
import type { UserRow } from "../store/users";
import { loadDirectory } from "./messages/directory";
import { checkMessageContent, checkMessageRecipient, defaultReadBySender, messageKind, type Addressee } from "./messages/send";

/** Zulip's record of a scheduled message (GET /scheduled_messages, events, /register). */
export function scheduledMessageDict(r: ScheduledMessageRow): Record<string, unknown> {
  const stream = r.type === "stream";
  return {
    scheduled_message_id: r.id,
    type: r.type,
    to: stream ? r.stream_id : (JSON.parse(r.to_user_ids ?? "[]") as number[]),
    ...(stream ? { topic: r.topic } : {}),
    content: r.content,
    rendered_content: r.rendered_content,
    scheduled_delivery_timestamp: r.scheduled_timestamp,
    failed: r.failed === 1,
  };
}

export const scheduledMessageNotFound = () => notFound("Scheduled message does not exist");

const notInFuture = () => badRequest("Scheduled delivery time must be in the future.");

/** Zulip's extract_stream_id: the channel is one integer (Python's int() of the raw value). */
function parseStreamId(to: unknown): number {
  if (typeof to === "number" && Number.isInteger(to)) return to;
  if (typeof to === "string" && /^\s*[+-]?\d+\s*$/.test(to)) return Number(to.trim());
  throw badRequest("Invalid data type for channel ID");
}

/** Zulip's extract_direct_message_recipient_ids: a JSON list of integer user ids. */
function parseUserIds(to: unknown): number[] {
  let data = to;
  if (typeof to === "string") {
    try {
      data = JSON.parse(to);
    } catch {
      data = to;
    }
  }
  if (!Array.isArray(data)) throw badRequest("Invalid data type for recipients");
  if (data.some((x) => typeof x !== "number" || !Number.isInteger(x))) throw badRequest("Recipient list may only contain user IDs");
  return [...new Set(data as number[])];
}

interface Checked {
  addressee: Addressee;
  content: string;
  html: string;
}

/** The same recipient, topic, content and permission checks as sending. */
async function checkScheduled(app: App, sender: UserRow, kind: "stream" | "direct", to: unknown, topic: string | null | undefined, content: string): Promise<Checked> {
  const d = await loadDirectory(app);
  const target = kind === "stream" ? parseStreamId(to) : parseUserIds(to);
  const addressee = await checkMessageRecipient(app, sender, { type: kind, to: target, topic }, d);
  const c = await checkMessageContent(app, d, sender, addressee, content);
  return { addressee, content: c.content, html: c.rendered.html };
}

/** The stored form of a checked target: Zulip's `to` lists the other participants (or just the sender). */
function targetFields(sender: UserRow, a: Addressee) {
  if (a.kind === "stream") return { type: "stream", stream_id: a.stream.id, to_user_ids: null, topic: a.topic };
  const others = a.users.map((u) => u.id).filter((id) => id !== sender.id);
  return { type: "private", stream_id: null, to_user_ids: JSON.stringify(others.length ? others : [sender.id]), topic: "" };
}

const isToSelf = (sender: UserRow, a: Addressee) => a.kind === "direct" && a.users.every((u) => u.id === sender.id);

function publishChange(app: App, userId: number, event: Record<string, unknown>) {
  app.events.publish({ type: "scheduled_messages", ...event }, [userId]);
}

/** GET /scheduled_messages and /register: the caller's undelivered scheduled messages, soonest first. */
export async function listScheduledMessages(app: App, me: UserRow) {
  return (await listUndeliveredScheduledMessages(app.db, me.id)).map(scheduledMessageDict);
}

export interface NewScheduledMessage {
  type: string;
  to: unknown;
  topic?: string | null;
  content: string;
  deliverAt: number;
  readBySender?: boolean | null;
}

/** POST /scheduled_messages: checked like a send, stored, `add` event to the sender's clients. */
export async function createScheduledMessage(app: App, me: UserRow, input: NewScheduledMessage, clientName: string): Promise<number> {
  const kind = messageKind(input.type);
  if (input.deliverAt <= nowSecs(app)) throw notInFuture();
  const c = await checkScheduled(app, me, kind, input.to, input.topic, input.content);
  // Zulip's default: read for full clients, except a note to oneself
  const readBySender = input.readBySender ?? (defaultReadBySender(clientName) && !isToSelf(me, c.addressee));
  const row = {
    realm_id: realmOf(app).id,
    sender_id: me.id,
    ...targetFields(me, c.addressee),
    content: c.content,
    rendered_content: c.html,
    scheduled_timestamp: input.deliverAt,
    read_by_sender: readBySender ? 1 : 0,
    client: clientName,
    created: nowSecs(app),
  };
  const id = await app.db.tx((sql) => insertScheduledMessage(sql, row));
  publishChange(app, me.id, { op: "add", scheduled_messages: [scheduledMessageDict({ ...row, id, delivered: 0, delivered_message_id: null, failed: 0, failure_message: null })] });
  return id;
}

export interface ScheduledMessageEdit {
  type?: string;
  to?: unknown;
  topic?: string;
  content?: string;
  deliverAt?: number;
}

/** PATCH /scheduled_messages/{id}: any field, rescheduling included; a failed message needs a new time. */
export async function editScheduledMessage(app: App, me: UserRow, id: number, input: ScheduledMessageEdit, clientName: string): Promise<void> {
  const { type, to, topic, content, deliverAt } = input;
  if ([type, to, topic, content, deliverAt].every((v) => v === undefined)) throw badRequest("Nothing to change");
  let kind: "stream" | "direct" | undefined;
  if (type !== undefined) {
    if (to === undefined) throw badRequest("Recipient required when updating type of scheduled message.");
    kind = messageKind(type);
    if (kind === "stream" && topic === undefined) throw badRequest("Topic required when updating scheduled message type to stream.");
  }
  if (deliverAt !== undefined && deliverAt <= nowSecs(app)) throw notInFuture();
  const row = await findScheduledMessage(app.db, me.id, id);
  if (!row) throw scheduledMessageNotFound();
  if (row.delivered) throw badRequest("Scheduled message was already sent");
  if (row.failed && deliverAt === undefined) throw notInFuture();
  const changes: ScheduledMessageChanges = { client: clientName };
  if (type !== undefined || to !== undefined || topic !== undefined || content !== undefined) {
    const k = kind ?? messageKind(row.type);
    const target = to ?? (row.type === "stream" ? row.stream_id : row.to_user_ids);
    const c = await checkScheduled(app, me, k, target, topic ?? row.topic, content ?? row.content);
    Object.assign(changes, targetFields(me, c.addressee), { content: c.content, rendered_content: c.html });
  }
  if (deliverAt !== undefined) changes.scheduled_timestamp = deliverAt;
  if (row.failed) Object.assign(changes, { failed: 0, failure_message: null });
  const updated = await app.db.tx(async (sql) => ((await updateScheduledMessage(sql, row.id, changes)) ? findScheduledMessage(sql, me.id, row.id) : undefined));
  if (!updated) throw badRequest("Scheduled message was already sent");
  publishChange(app, me.id, { op: "update", scheduled_message: scheduledMessageDict(updated) });
}

/** DELETE /scheduled_messages/{id}: cancels it. */
export async function deleteScheduledMessage(app: App, me: UserRow, id: number): Promise<void> {
  const deleted = await app.db.tx(async (sql) => {
    const row = await findScheduledMessage(sql, me.id, id);
    if (row) await deleteRow(sql, row.id);
    return row !== undefined;
  });
  if (!deleted) throw scheduledMessageNotFound();
  publishChange(app, me.id, { op: "remove", scheduled_message_id: id });
}

