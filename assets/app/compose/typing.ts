/** The compose box's typing notices: where the person is writing, told to the server with Zulip's timing. */
import { setTyping } from "../api/calls";
import { me, realm, settings } from "../state/store";
import { compose } from "./state";
import { TypingStatus, type TypingRecipient } from "./typing-status";

const status = new TypingStatus(
  {
    now: () => Date.now(),
    setTimeout: (f, ms) => setTimeout(f, ms),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    notify: (op, to) => void setTyping(op, to.type === "stream" ? to : { type: "direct", to: to.to }).catch(() => {}),
  },
  () => ({ startedWaitMs: realm.peek().typing_started_wait_ms, stoppedWaitMs: realm.peek().typing_stopped_wait_ms }),
);

/** Where the box's text goes, when there is text, a full address, and the person shares their typing there. */
function recipient(): TypingRecipient | null {
  if (!compose.content.peek().trim() || compose.mode.peek() === "preview") return null;
  const s = settings.peek();
  if (compose.kind.peek() === "stream") {
    const id = compose.streamId.peek();
    return id !== null && s.send_stream_typing_notifications ? { type: "stream", stream_id: id, topic: compose.topic.peek().trim() } : null;
  }
  const to = compose.recipients.peek().filter((id) => id !== me.peek());
  // nobody else to tell in a note to oneself
  return to.length && s.send_private_typing_notifications ? { type: "direct", to: [...to].sort((a, b) => a - b) } : null;
}

/** After each change to the text or the address. */
export const noteTyping = () => status.update(recipient());

/** Sent, cleared, or gone elsewhere. */
export const stopTyping = () => status.stop();
