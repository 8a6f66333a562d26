import type { App } from "../../app";
import { canReadChannelMessage } from "../../domain/channel-permissions";
import { badRequest } from "../../errors";
import type { Sql } from "../../store/db";
import { findMessage, type MessageRow } from "../../store/messages";
import { HISTORICAL_FLAGS } from "../../store/narrow";
import { isSubscribed } from "../../store/subscriptions";
import { findFlags } from "../../store/user-messages";
import type { UserRow } from "../../store/users";
import type { Directory } from "./directory";

export const invalidMessage = () => badRequest("Invalid message(s)");

export interface AccessedMessage {
  row: MessageRow;
  /** the user's flags; historical (read) when they have no row */
  flags: number;
  /** whether the user has a user_messages row */
  received: boolean;
}

export interface MessageAccessOptions {
  /** the caller is about to change the message (react, edit, delete): archived channels refuse it */
  modifying?: boolean;
}

/**
 * The message if `me` may read it, else "Invalid message(s)" (Zulip's access_message and
 * has_message_access): a direct message only for those who received it; a channel message needs
 * content access to the channel now (a row kept from an earlier subscription is not enough), and
 * either a row or access to the channel's history (then it is "historical" for them). Messages in
 * archived channels can be read but not changed.
 */
export async function accessMessage(
  app: App,
  d: Directory,
  me: Pick<UserRow, "id" | "role">,
  messageId: number,
  sql: Sql = app.db,
  opts: MessageAccessOptions = {},
): Promise<AccessedMessage> {
  const row = await findMessage(sql, messageId);
  if (!row) throw invalidMessage();
  const flags = await findFlags(sql, me.id, messageId);
  if (row.stream_id === null) {
    if (flags === undefined) throw invalidMessage();
    return { row, flags, received: true };
  }
  const stream = d.streams.get(row.stream_id);
  if (!stream || (opts.modifying && stream.is_archived)) throw invalidMessage();
  const access = { user: me, channel: stream, subscribed: await isSubscribed(sql, me.id, stream.id), inGroup: (g: number) => app.groups.isMember(g, me.id) };
  const received = flags !== undefined;
  if (!canReadChannelMessage(access, received)) throw invalidMessage();
  return received ? { row, flags, received } : { row, flags: HISTORICAL_FLAGS, received };
}
