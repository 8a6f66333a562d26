/** Sending what the compose box holds: checked first, shown at once (local echo), restored if it fails. */
import { sendMessage, type Destination } from "../api/calls";
import { describeError } from "../api/http";
import { realm } from "../state/store";
import { currentQueueId } from "../session";
import { discardDraft, saveDraftSoon } from "./drafts";
import { addPending, dropPending, nextLocalId, outbox } from "./outbox";
import { compose } from "./state";
import { stopTyping } from "./typing";

/** Why the message cannot be sent (or scheduled) as it is, or null. */
export function problem(): string | null {
  const content = compose.content.value;
  if (compose.kind.value === "stream") {
    if (compose.streamId.value === null) return "Choose a channel to send to.";
    if (realm.value.mandatory_topics && !compose.topic.value.trim()) return "Topics are required in this organization: give the message a topic.";
    if (compose.topic.value.length > realm.value.max_topic_length) return `The topic is too long (${realm.value.max_topic_length} characters at most).`;
  } else if (compose.recipients.value.length === 0) {
    return "Choose who to send the message to.";
  }
  if (content.length > realm.value.max_message_length) return `The message is too long (${realm.value.max_message_length} characters at most).`;
  return null;
}

export function destination(): Destination {
  return compose.kind.value === "stream"
    ? { type: "stream", stream_id: compose.streamId.value!, topic: compose.topic.value.trim() }
    : { type: "direct", user_ids: compose.recipients.value };
}

/** Empties the box once its message is on its way (its draft goes with it). */
export function clearCompose(): void {
  stopTyping();
  discardDraft();
  compose.content.value = "";
  compose.mode.value = "write";
  compose.scheduled.value = null;
}

/** Sends `content` to `to`, shown at once; a refusal puts the text back in the box with the reason. */
export async function sendNow(to: Destination, content: string): Promise<void> {
  const localId = nextLocalId();
  addPending({ localId, to, content, timestamp: Math.floor(Date.now() / 1000) });
  try {
    const { id } = await sendMessage(to, content, { queueId: currentQueueId(), localId });
    outbox.value = outbox.value.map((p) => (p.localId === localId ? { ...p, id } : p));
    // the message event normally arrived already; if the event stream is behind, the echo goes soon anyway
    setTimeout(() => dropPending(localId), 5000);
  } catch (e) {
    dropPending(localId);
    if (!compose.content.value) {
      compose.content.value = content;
      saveDraftSoon();
    }
    compose.error.value = `Your message was not sent: ${describeError(e)}`;
  }
}

export async function send(): Promise<void> {
  const content = compose.content.value;
  if (!content.trim()) return;
  const why = problem();
  compose.error.value = why;
  if (why) return;
  const to = destination();
  clearCompose();
  await sendNow(to, content);
}
