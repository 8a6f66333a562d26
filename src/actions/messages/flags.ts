import type { App } from "../../app";
import { ALL_FLAGS, FLAG, USER_SETTABLE_FLAGS, type StoredFlag } from "../../domain/flags";
import type { NarrowTerm } from "../../domain/narrow";
import { badRequest } from "../../errors";
import { insertUserMessages, listMessagesByIds } from "../../store/messages";
import { findRange, filterIds, firstUnread, HISTORICAL_FLAGS, type FoundRow } from "../../store/narrow";
import { changeFlag, listMessageDetails, mapFlags, markRead, topicExistsFor } from "../../store/user-messages";
import { listSubscribedStreamIds, listUserSubscriptionRows } from "../../store/subscriptions";

import type { UserRow } from "../../store/users";
import { accessChannelById } from "../channel-access";
import { accessMessage } from "./access";
import { loadDirectory } from "./directory";
import { NEWEST_ANCHOR, parseAnchor, resolveNarrow } from "./fetch";
import { emptyTopicName } from "./render";

export type FlagOp = "add" | "remove";

/** Zulip's checks on the flag name: known, and changeable by the user. */
export function checkFlag(flag: string): StoredFlag {
  if (!ALL_FLAGS.includes(flag)) throw badRequest(`Invalid flag: '${flag}'`);
  if (!USER_SETTABLE_FLAGS.includes(flag as StoredFlag)) throw badRequest(`Flag not editable: '${flag}'`);
  return flag as StoredFlag;
}

export function checkOp(op: string): FlagOp {
  if (op !== "add" && op !== "remove") throw badRequest(`Invalid message flag operation: '${op}'`);
  return op;
}

interface FlagChange {
  changed: number[];
  ignoredChannels?: number[];
}

/**
 * Zulip's do_update_message_flags: sets or clears a flag on `ids`, answering the ids whose value
 * changed. Marking unread skips channels the user is not subscribed to (unread messages must be in
 * subscribed channels). A message without the user's row counts as read, not starred, not
 * collapsed (its historical flags); when that differs from the wanted value, the user must be able
 * to read the message ("Invalid message(s)") and gets a historical row. `accessChecked`: the ids
 * come from a narrow the user may read.
 */
async function applyFlag(app: App, me: UserRow, ids: number[], flag: StoredFlag, op: FlagOp, opts: { accessChecked?: boolean } = {}): Promise<FlagChange> {
  const d = await loadDirectory(app);
  const add = op === "add";
  const bit = FLAG[flag];
  let targets = [...new Set(ids)];
  const have = await mapFlags(app.db, me.id, targets);
  let ignoredChannels: number[] | undefined;
  if (flag === "read" && !add) {
    const subscribed = new Set(await listSubscribedStreamIds(app.db, me.id));
    const skipped = (await listMessagesByIds(app.db, targets)).filter((r) => r.stream_id !== null && !subscribed.has(r.stream_id));
    // A channel is named only through a message the user may read.
    if (!opts.accessChecked) for (const r of skipped) if (!have.has(r.id)) await accessMessage(app, d, me, r.id);
    ignoredChannels = [...new Set(skipped.map((r) => r.stream_id!))].sort((a, b) => a - b);
    const skip = new Set(skipped.map((r) => r.id));
    targets = targets.filter((id) => !skip.has(id));
  }
  targets = targets.filter((id) => (((have.get(id) ?? HISTORICAL_FLAGS) & bit) !== 0) !== add);
  const historical = targets.filter((id) => !have.has(id));
  if (!opts.accessChecked) for (const id of historical) await accessMessage(app, d, me, id);
  const changed = await app.db.tx(async (sql) => {
    const flags = add ? HISTORICAL_FLAGS | bit : HISTORICAL_FLAGS & ~bit;
    if (historical.length) await insertUserMessages(sql, historical.map((id) => ({ userId: me.id, messageId: id, flags })));
    const updated = await changeFlag(sql, me.id, targets.filter((id) => have.has(id)), bit, add);
    return [...updated, ...historical].sort((a, b) => a - b);
  });
  await publishFlags(app, me, flag, op, changed, false);
  return { changed, ignoredChannels };
}

/** The update_message_flags event; removing `read` carries each message's details for the unread counts. */
async function publishFlags(app: App, me: UserRow, flag: string, op: FlagOp, messages: number[], all: boolean) {
  const event: Record<string, unknown> = { type: "update_message_flags", op, operation: op, flag, messages, all };
  if (flag === "read" && op === "remove") {
    const flags = await mapFlags(app.db, me.id, messages);
    const muted = new Set((await listUserSubscriptionRows(app.db, me.id)).filter((r) => r.is_muted).map((r) => r.stream_id));
    const details: Record<string, unknown> = {};
    for (const m of await listMessageDetails(app.db, messages)) {
      const mentioned = ((flags.get(m.id) ?? 0) & (FLAG.mentioned | FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned)) !== 0;
      const d: Record<string, unknown> =
        m.stream_id !== null
          ? { type: "stream", stream_id: m.stream_id, topic: m.topic, unmuted_stream_msg: !muted.has(m.stream_id) }
          : { type: "private", user_ids: m.dm_key!.split(",").map(Number).filter((id) => id !== me.id) };
      if (mentioned) d.mentioned = true;
      details[m.id] = d;
    }
    event.message_details = details;
  }
  app.events.publish(event as any, [me.id]);
}

/** POST /messages/flags. */
export async function updateMessageFlags(app: App, me: UserRow, messageIds: number[], opRaw: string, flagRaw: string) {
  const flag = checkFlag(flagRaw);
  const op = checkOp(opRaw);
  const r = await applyFlag(app, me, messageIds, flag, op);
  const out: Record<string, unknown> = { messages: r.changed };
  if (flag === "read" && op === "remove") out.ignored_because_not_subscribed_channels = r.ignoredChannels ?? [];
  return out;
}

export interface FlagsNarrowInput {
  anchor: string;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
  narrow: NarrowTerm[];
  op: string;
  flag: string;
}

/** Zulip's MAX_MESSAGES_PER_UPDATE: num_before + num_after is clamped to this. */
const MAX_MESSAGES_PER_UPDATE = 5000;

/**
 * POST /messages/flags/narrow: a range of the messages a narrow shows the user (a channel's history
 * included, as GET /messages would), at most 5000 in all.
 */
export async function updateMessageFlagsForNarrow(app: App, me: UserRow, input: FlagsNarrowInput) {
  const flag = checkFlag(input.flag);
  const op = checkOp(input.op);
  if (input.numBefore > 0 && input.numAfter > 0 && !input.includeAnchor) throw badRequest("The anchor can only be excluded at an end of the range");
  const numBefore = Math.min(input.numBefore, Math.max(MAX_MESSAGES_PER_UPDATE - input.numAfter, MAX_MESSAGES_PER_UPDATE / 2));
  const numAfter = Math.min(input.numAfter, MAX_MESSAGES_PER_UPDATE - numBefore);
  const d = await loadDirectory(app);
  const { narrow } = await resolveNarrow(app, d, me, input.narrow);
  const spec = parseAnchor(input.anchor);
  let anchor: number;
  if (spec === "newest") anchor = NEWEST_ANCHOR;
  else if (spec === "oldest") anchor = 0;
  else if (spec === "first_unread") {
    anchor = (await firstUnread(app.db, narrow)) ?? NEWEST_ANCHOR;
  } else anchor = spec;
  const anchoredLeft = anchor === 0;
  const anchoredRight = anchor >= NEWEST_ANCHOR;
  const before: FoundRow[] = numBefore > 0 && !anchoredLeft ? await findRange(app.db, narrow, "before", anchor, false, numBefore) : [];
  const at: FoundRow[] = input.includeAnchor && !anchoredLeft && !anchoredRight ? await filterIds(app.db, narrow, [anchor]) : [];
  const after: FoundRow[] = numAfter > 0 && !anchoredRight ? await findRange(app.db, narrow, "after", anchor, false, numAfter) : [];
  const ids = [...before, ...at, ...after].map((r) => r.id);
  const r = ids.length ? await applyFlag(app, me, ids, flag, op, { accessChecked: true }) : { changed: [], ignoredChannels: [] as number[] };
  const out: Record<string, unknown> = {
    processed_count: ids.length,
    updated_count: r.changed.length,
    first_processed_id: ids[0] ?? null,
    last_processed_id: ids[ids.length - 1] ?? null,
    found_oldest: anchoredLeft || before.length < numBefore,
    found_newest: anchoredRight || after.length < numAfter,
  };
  if (flag === "read" && op === "remove") out.ignored_because_not_subscribed_channels = r.ignoredChannels ?? [];
  return out;
}

/** POST /mark_all_as_read. */
export async function markAllAsRead(app: App, me: UserRow) {
  await app.db.tx((sql) => markRead(sql, me.id));
  await publishFlags(app, me, "read", "add", [], true);
  return { complete: true };
}

/** POST /mark_stream_as_read. */
export async function markStreamAsRead(app: App, me: UserRow, streamId: number) {
  await accessChannelById(app, me, streamId, { allowArchived: true });
  const changed = await app.db.tx((sql) => markRead(sql, me.id, { streamId }));
  await publishFlags(app, me, "read", "add", changed, false);
}

/** POST /mark_topic_as_read. */
export async function markTopicAsRead(app: App, me: UserRow, streamId: number, topicName: string) {
  await accessChannelById(app, me, streamId, { allowArchived: true });
  const topic = topicName === emptyTopicName(app) ? "" : topicName;
  if (topicName !== "" && !(await topicExistsFor(app.db, me.id, streamId, topic))) throw badRequest(`No such topic '${topic}'`);
  const changed = await app.db.tx((sql) => markRead(sql, me.id, { streamId, topic }));
  await publishFlags(app, me, "read", "add", changed, false);
}
