import type { App } from "../../app";
import { canAccessHistory, hasContentAccess } from "../../domain/channel-permissions";
import { badRequest } from "../../errors";
import type { Sql } from "../../store/db";
import { findMessage, type MessageRow } from "../../store/messages";
import { HISTORICAL_FLAGS } from "../../store/narrow";
import { isSubscribed } from "../../store/subscriptions";
import { findFlags } from "../../store/user-messages";
import type { UserRow } from "../../store/users";
import type { Directory } from "./directory";

export const invalidMessage = () => badRequest("Invalid message(s)");

/**
 * Zulip's has_message_access: the user received the message, or it is in a channel whose
 * content and history they may read (then it is "historical" for them).
 */
export async function canReadChannelHistory(app: App, d: Directory, me: Pick<UserRow, "id" | "role">, streamId: number, sql: Sql = app.db): Promise<boolean> {
  const stream = d.streams.get(streamId);
  if (!stream) return false;
  const access = { user: me, channel: stream, subscribed: await isSubscribed(sql, me.id, streamId), inGroup: (g: number) => app.groups.isMember(g, me.id) };
  return hasContentAccess(access) && canAccessHistory(access);
}

export interface AccessedMessage {
  row: MessageRow;
  /** the user's flags; historical (read) when they have no row */
  flags: number;
  /** whether the user has a user_messages row */
  received: boolean;
}

/** The message if `me` may read it, else "Invalid message(s)". */
export async function accessMessage(app: App, d: Directory, me: Pick<UserRow, "id" | "role">, messageId: number, sql: Sql = app.db): Promise<AccessedMessage> {
  const row = await findMessage(sql, messageId);
  if (!row) throw invalidMessage();
  const flags = await findFlags(sql, me.id, messageId);
  if (flags !== undefined) return { row, flags, received: true };
  if (row.stream_id !== null && (await canReadChannelHistory(app, d, me, row.stream_id, sql))) return { row, flags: HISTORICAL_FLAGS, received: false };
  throw invalidMessage();
}
