import { nowSecs, type App } from "../../app";
import { autoPrefs, policyAfterParticipation } from "../../domain/user-topics";
import { mayHaveSubmessages, widgetEventError, widgetTypeOf, WIDGET_MSG_TYPE } from "../../domain/widgets";
import { badRequest } from "../../errors";
import { findMessage, senderTopicState } from "../../store/messages";
import { findFirstSubmessage, insertSubmessage } from "../../store/submessages";
import { isSubscribed } from "../../store/subscriptions";
import { listHolders } from "../../store/user-messages";
import { setUserTopic } from "../../store/user-topics";
import type { UserRow } from "../../store/users";
import { publishUserTopic } from "../user-topics";
import { accessMessage, invalidMessage } from "./access";
import { actionAudience } from "./delete";
import { loadDirectory } from "./directory";

export interface SubmessageInput {
  messageId: number;
  msgType: string;
  /** the widget event, JSON-encoded (stored and sent on as given) */
  content: string;
}

/**
 * POST /submessage (Zulip's process_submessage and do_add_submessage): a vote, a new option or
 * question, a new task or a strike, on a widget message the user may read. Checked against the
 * widget's type as Zulip checks it; then stored, the user's topic followed or unmuted as their
 * participation settings say (like a reaction), and a submessage event sent to everyone who may
 * read the message.
 *
 * Where Parley differs from Zulip, for the official apps' sake: msg_type must be "widget" (the only
 * type the apps read); only widget messages take submessages (Zulip lets a message's sender attach
 * any JSON to their own plain message, which the mobile app then fails to read); a vote's key must
 * be an option key (widgets.ts); and the voter hears of their vote even without a row for the message.
 */
export async function addSubmessage(app: App, me: UserRow, input: SubmessageInput): Promise<void> {
  if (input.msgType !== WIDGET_MSG_TYPE) throw badRequest("Invalid msg_type");
  const d = await loadDirectory(app);
  const { row } = await accessMessage(app, d, me, input.messageId, app.db, { modifying: true });
  // only widget messages take submessages (see mayHaveSubmessages: reads rely on it)
  const widget = mayHaveSubmessages(row.content) ? await findFirstSubmessage(app.db, row.id, WIDGET_MSG_TYPE) : undefined;
  if (!widget) throw badRequest("You cannot attach a submessage to this message.");
  let data: unknown;
  try {
    data = JSON.parse(input.content);
  } catch {
    throw badRequest("Invalid json for submessage");
  }
  const error = widgetEventError(widgetTypeOf(widget.content), data, row.sender_id === me.id);
  if (error) throw badRequest(error);

  let policy: number | null = null;
  if (row.stream_id !== null && !me.is_bot && (await isSubscribed(app.db, me.id, row.stream_id))) {
    const state = await senderTopicState(app.db, me.id, row.stream_id, row.topic);
    policy = policyAfterParticipation(autoPrefs(d.users.get(me.id)?.prefs ?? {}), state.visibilityPolicy, state.streamMuted);
  }
  const now = Math.floor(nowSecs(app));
  const submessage = await app.db.tx(async (sql) => {
    // deleted since it was read: nothing to attach to
    if (!(await findMessage(sql, row.id))) throw invalidMessage();
    const s = await insertSubmessage(sql, { message_id: row.id, sender_id: me.id, msg_type: input.msgType, content: input.content });
    if (policy !== null) await setUserTopic(sql, { user_id: me.id, stream_id: row.stream_id!, topic: row.topic, visibility_policy: policy, last_updated: now });
    return s;
  });
  if (policy !== null) {
    await publishUserTopic(app, me.id, { stream_id: row.stream_id!, topic_name: row.topic, last_updated: now, visibility_policy: policy });
  }
  const holders = (await listHolders(app.db, row.id)).map((h) => h.user_id);
  // Zulip's audience (event_recipient_ids_for_action_on_messages) plus the voter, who may read the
  // message without a row for it (a public channel's history) and whose app waits for the event.
  const audience = new Set([...(await actionAudience(app, d, row, holders)), me.id]);
  app.events.publish(
    {
      type: "submessage",
      msg_type: submessage.msg_type,
      message_id: submessage.message_id,
      submessage_id: submessage.id,
      sender_id: submessage.sender_id,
      content: submessage.content,
    },
    audience,
  );
}
