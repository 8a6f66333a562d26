/**
 * Starting a message from the message views and the keyboard: reply to a message (its topic or
 * conversation), quote it, a new topic in a channel (`c`), a new direct message (`x`). The compose
 * box keeps what was written; only where it goes changes.
 */
import { fetchMessageSource } from "../api/calls";
import { describeError } from "../api/http";
import { messageUrl } from "../nav/hash";
import { keyIds } from "../state/people";
import { state } from "../state/store";
import type { Message } from "../state/types";
import { showNotice } from "../views/Notice";
import { saveDraftSoon } from "./drafts";
import { withQuote, quoteText } from "./quote";
import { compose, focusCompose, setContent } from "./state";
import { stopTyping } from "./typing";

/** Focuses a field of the compose box: now when it is there, else once the recipient change drew it (a second at most). */
function focusField(selector: string, frames = 60): void {
  const el = document.querySelector<HTMLElement>(selector);
  if (el) el.focus();
  else if (frames > 0) requestAnimationFrame(() => focusField(selector, frames - 1));
}

/** Points the compose box at the message's topic or conversation (what was written stays, as in Zulip). */
export function aimAt(m: Message): void {
  const me = state.value!.me;
  stopTyping();
  compose.error.value = null;
  compose.mode.value = "write";
  if (m.type === "stream") {
    compose.kind.value = "stream";
    compose.streamId.value = m.stream_id!;
    compose.topic.value = m.subject;
  } else {
    const others = (m.display_recipient as { id: number }[]).map((r) => r.id).filter((id) => id !== me);
    compose.kind.value = "direct";
    compose.recipients.value = others.length ? others : [me];
  }
}

/** The focus in the message box: at once when it is drawn (what is typed next lands there), else when it is. */
function focusText(): void {
  const text = document.querySelector<HTMLTextAreaElement>(".compose-text");
  if (text) text.focus();
  else focusCompose();
}

export function replyTo(m: Message): void {
  aimAt(m);
  focusText();
}

/** Replies with the message quoted (its Markdown fetched from the server). */
export async function quoteAndReply(m: Message): Promise<void> {
  aimAt(m);
  focusText();
  try {
    const source = await fetchMessageSource(m.id);
    const s = state.value!;
    const name = s.users[m.sender_id]?.full_name ?? m.sender_full_name;
    const text = withQuote(compose.content.value, quoteText({ name, id: m.sender_id }, messageUrl(s, m, location.origin), source));
    setContent(text, text.length);
    saveDraftSoon();
    focusText();
  } catch (e) {
    showNotice(`Could not quote the message: ${describeError(e)}`);
  }
}

/** A new topic (`c`): in the channel shown, or one to choose; the topic field takes the focus. */
export function newTopic(streamId: number | null): void {
  compose.error.value = null;
  compose.kind.value = "stream";
  if (streamId !== null) compose.streamId.value = streamId;
  compose.topic.value = "";
  focusField(streamId === null && compose.streamId.value === null ? ".compose-channel" : ".compose-topic");
}

/** A new direct message (`x`): to the people of the conversation shown, or to people to choose. */
export function newDirectMessage(key: string | null): void {
  compose.error.value = null;
  compose.kind.value = "direct";
  compose.recipients.value = key ? keyIds(key) : [];
  focusField(key ? ".compose-text" : ".recipient-input");
}
