import type { App } from "../../app";
import { ALL_FLAGS, FLAG, USER_SETTABLE_FLAGS, type StoredFlag } from "../../domain/flags";
import type { NarrowTerm } from "../../domain/narrow";
import { badRequest } from "../../errors";
import { insertUserMessages, listMessagesByIds } from "../../store/messages";
import { findRange, filterIds, firstUnread, type FoundRow } from "../../store/narrow";
import { changeFlag, listMessageDetails, mapFlags, markRead, topicExistsFor } from "../../store/user-messages";
import { listSubscribedStreamIds } from "../../store/subscriptions";

import type { UserRow } from "../../store/users";
import { accessChannelById } from "../channel-access";
import { accessMessage } from "./access";
import { loadDirectory } from "./directory";
import { NEWEST_ANCHOR, parseAnchor, resolveNarrow } from "./fetch";

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
 * Applies a flag change to the user's messages among `ids`: messages they never received but may
 * read get a historical row first; marking unread skips channels they are not subscribed to.
 */
async function applyFlag(app: App, me: UserRow, ids: number[], flag: StoredFlag, op: FlagOp): Promise<FlagChange> {
  const d = await loadDirectory(app);
  const unique = [...new Set(ids)];
  const have = await mapFlags(app.db, me.id, unique);
  const historical = unique.filter((id) => !have.has(id));
  for (const id of historical) await accessMessage(app, d, me, id);
  let targets = unique;
  let ignoredChannels: number[] | undefined;
  if (flag === "read" && op === "remove") {
    const subscribed = new Set(await listSubscribedStreamIds(app.db, me.id));
    const rows = await listMessagesByIds(app.db, unique);
    const skipped = rows.filter((r) => r.stream_id !== null && !subscribed.has(r.stream_id));
    ignoredChannels = [...new Set(skipped.map((r) => r.stream_id!))].sort((a, b) => a - b);
    const skip = new Set(skipped.map((r) => r.id));
    targets = unique.filter((id) => !skip.has(id));
  }
  const bit = FLAG[flag];
  const changed = await app.db.tx(async (sql) => {
    const creatable = historical.filter((id) => targets.includes(id));
    if (creatable.length) await insertUserMessages(sql, creatable.map((id) => ({ userId: me.id, messageId: id, flags: FLAG.read | FLAG.historical })));
    return changeFlag(sql, me.id, targets, bit, op === "add");
  });
  await publishFlags(app, me, flag, op, changed, false);
  return { changed, ignoredChannels };
}

/** The update_message_flags event; removing `read` carries each message's details for the unread counts. */
async function publishFlags(app: App, me: UserRow, flag: string, op: FlagOp, messages: number[], all: boolean) {
  const event: Record<string, unknown> = { type: "update_message_flags", op, operation: op, flag, messages, all };
  if (flag === "read" && op === "remove") {
    const flags = await mapFlags(app.db, me.id, messages);
    const details: Record<string, unknown> = {};
    for (const m of await listMessageDetails(app.db, messages)) {
      const mentioned = ((flags.get(m.id) ?? 0) & (FLAG.mentioned | FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned)) !== 0;
      const d: Record<string, unknown> =
        m.stream_id !== null
          ? { type: "stream", stream_id: m.stream_id, topic: m.topic, unmuted_stream_msg: true }
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

/** POST /messages/flags/narrow: a range of the user's messages in a narrow (at most 5000 per side). */
export async function updateMessageFlagsForNarrow(app: App, me: UserRow, input: FlagsNarrowInput) {
  const flag = checkFlag(input.flag);
  const op = checkOp(input.op);
  const numBefore = Math.min(input.numBefore, 5000);
  const numAfter = Math.min(input.numAfter, 5000);
  const d = await loadDirectory(app);
  const { narrow } = await resolveNarrow(app, d, me, input.narrow, { personalOnly: true });
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
  const r = ids.length ? await applyFlag(app, me, ids, flag, op) : { changed: [], ignoredChannels: [] as number[] };
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
export async function markTopicAsRead(app: App, me: UserRow, streamId: number, topic: string) {
  await accessChannelById(app, me, streamId, { allowArchived: true });
  if (!(await topicExistsFor(app.db, me.id, streamId, topic))) throw badRequest(`No such topic '${topic}'`);
  const changed = await app.db.tx((sql) => markRead(sql, me.id, { streamId, topic }));
  await publishFlags(app, me, "read", "add", changed, false);
}
