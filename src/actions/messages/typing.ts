import type { App } from "../../app";
import { postRefusal } from "../../domain/channel-permissions";
import { badRequest } from "../../errors";
import type { UserRow } from "../../store/users";
import { accessChannelById } from "../channel-access";
import { loadDirectory } from "./directory";
import { emptyTopicName } from "./render";

/** Channels with more subscribers than this get no typing notifications (Zulip's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS). */
export const MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS = 100;

export interface TypingInput {
  /** "private" is no longer accepted (Zulip 8.0, feature level 215) */
  type: "direct" | "stream" | "channel";
  op: "start" | "stop";
  to?: number[];
  streamId?: number;
  topic?: string;
}

/** POST /typing: a typing event to the conversation's participants (or the channel's subscribers). */
export async function setTypingStatus(app: App, me: UserRow, input: TypingInput): Promise<void> {
  const kind = input.type === "channel" ? "stream" : input.type;
  const d = await loadDirectory(app);
  const sender = { user_id: me.id, email: me.email };
  const pref = (userId: number, name: string) => d.users.get(userId)?.prefs[name] !== false;
  if (kind === "stream") {
    if (input.streamId === undefined) throw badRequest("Missing 'stream_id' argument");
    if (input.topic === undefined) throw badRequest("Missing topic");
    if (!pref(me.id, "send_stream_typing_notifications")) throw badRequest("User has disabled typing notifications for channel messages");
    const { stream, access } = await accessChannelById(app, me, input.streamId);
    const refusal = postRefusal(access);
    if (refusal) throw badRequest(refusal);
    const subs = await d.subscriberIds(app.db, stream.id);
    if (subs.length > MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS) return;
    const topic = input.topic.trim() === "(no topic)" || input.topic.trim() === emptyTopicName(app) ? "" : input.topic.trim();
    app.events.publish({ type: "typing", op: input.op, message_type: "stream", sender, stream_id: stream.id, topic }, subs.filter((u) => pref(u, "receives_typing_notifications")));
    return;
  }
  if (input.to === undefined) throw badRequest("Missing 'to' argument");
  if (input.to.length === 0) throw badRequest("Empty 'to' list");
  if (!pref(me.id, "send_private_typing_notifications")) throw badRequest("User has disabled typing notifications for direct messages");
  const ids = [...new Set([...input.to, me.id])];
  const users = ids.map((id) => {
    const u = d.users.get(id);
    if (!u || u.realm_id !== me.realm_id) throw badRequest(`Invalid user ID ${id}`);
    return u;
  });
  app.events.publish(
    { type: "typing", op: input.op, message_type: "direct", sender, recipients: users.map((u) => ({ user_id: u.id, email: u.email })) },
    users.filter((u) => u.is_active && pref(u.id, "receives_typing_notifications")).map((u) => u.id),
  );
}
