/**
 * Sending later: the compose box's message scheduled (POST /scheduled_messages), a scheduled message
 * opened again in the box to change and reschedule (PATCH), sent at once, or cancelled (DELETE). The
 * list of them comes from /register and `scheduled_messages` events (state.scheduled).
 */
import { deleteScheduledMessage, editScheduledMessage, scheduleMessage, type Destination } from "../api/calls";
import { describeError } from "../api/http";
import { navigate } from "../nav/router";
import { dmKey } from "../state/people";
import { me, settings } from "../state/store";
import type { ScheduledMessage } from "../state/types";
import { showNotice } from "../views/Notice";
import { flushDraft } from "./drafts";
import { clearCompose, destination, problem, sendNow } from "./send";
import { formatScheduled } from "./send-later";
import { compose, focusCompose } from "./state";

const when = (at: number) => formatScheduled(at, settings.peek().twenty_four_hour_time);

/** Schedules the box's message for `at` (seconds), or reschedules the one being edited (at its time if none is given). */
export async function scheduleCompose(at?: number): Promise<boolean> {
  const content = compose.content.value;
  const editing = compose.scheduled.value;
  const time = at ?? editing?.at;
  if (!content.trim() || time === undefined) return false;
  const why = problem();
  compose.error.value = why;
  if (why) return false;
  const to = destination();
  try {
    if (editing) await editScheduledMessage(editing.id, { to, content, at: time });
    else await scheduleMessage(to, content, time);
  } catch (e) {
    compose.error.value = `Your message was not scheduled: ${describeError(e)}`;
    return false;
  }
  clearCompose();
  showNotice(`Your message is scheduled for ${when(time)}.`);
  return true;
}

function destinationOf(m: ScheduledMessage): Destination {
  return m.type === "stream" ? { type: "stream", stream_id: m.to as number, topic: m.topic ?? "" } : { type: "direct", user_ids: m.to as number[] };
}

/** Opens a scheduled message in the compose box, in its conversation, to change it. */
export function editScheduled(m: ScheduledMessage): void {
  flushDraft();
  compose.draftId.value = null;
  compose.error.value = null;
  compose.mode.value = "write";
  const to = destinationOf(m);
  if (to.type === "stream") {
    compose.kind.value = "stream";
    compose.streamId.value = to.stream_id;
    compose.topic.value = to.topic;
    navigate({ kind: "narrow", narrow: { kind: "topic", stream_id: to.stream_id, topic: to.topic } });
  } else {
    compose.kind.value = "direct";
    compose.recipients.value = to.user_ids;
    navigate({ kind: "narrow", narrow: { kind: "dm", key: dmKey(me.peek(), to.user_ids) } });
  }
  compose.content.value = m.content;
  compose.scheduled.value = { id: m.scheduled_message_id, at: m.scheduled_delivery_timestamp };
  focusCompose();
}

/** Sends a scheduled message now: it leaves the schedule, then goes out (put back in the box if sending fails). */
export async function sendScheduledNow(m: ScheduledMessage): Promise<void> {
  try {
    await deleteScheduledMessage(m.scheduled_message_id);
  } catch (e) {
    showNotice(`Could not send it now: ${describeError(e)}`);
    return;
  }
  await sendNow(destinationOf(m), m.content);
}

/** The box's scheduled message, sent now rather than at its time. */
export async function sendEditedNow(): Promise<void> {
  const editing = compose.scheduled.value;
  if (!editing || !compose.content.value.trim()) return;
  const why = problem();
  compose.error.value = why;
  if (why) return;
  const to = destination();
  const content = compose.content.value;
  try {
    await deleteScheduledMessage(editing.id);
  } catch (e) {
    compose.error.value = `Could not send it now: ${describeError(e)}`;
    return;
  }
  clearCompose();
  await sendNow(to, content);
}

export const cancelScheduled = (id: number) =>
  deleteScheduledMessage(id).then(
    () => showNotice("The scheduled message was cancelled."),
    (e) => showNotice(`Could not cancel it: ${describeError(e)}`),
  );

/** Stops editing a scheduled message: it stays scheduled as it was, and the box empties. */
export function stopEditingScheduled(): void {
  compose.scheduled.value = null;
  compose.content.value = "";
  compose.error.value = null;
}
