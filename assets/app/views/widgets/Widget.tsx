/** A poll or a to-do list in place of its message's text (Zulip's widgets), acting through POST /submessage. */
import { useRef } from "preact/hooks";
import { sendWidgetEvent } from "../../api/calls";
import { describeError } from "../../api/http";
import { me } from "../../state/store";
import type { Message } from "../../state/types";
import { widgetOf, type Widget } from "../../state/widgets";
import { MessageContent } from "../MessageContent";
import { showNotice } from "../Notice";
import { PollWidget } from "./Poll";
import { TodoWidget } from "./Todo";

export type Send = (data: object) => void;

/** The widget of a message whose first submessage declares one (an unknown kind shows the message's text). */
export function MessageWidget({ m }: { m: Message }) {
  const widget = widgetOf(m, me.value);
  return widget ? <WidgetView m={m} widget={widget} /> : <MessageContent html={m.content} />;
}

export function WidgetView({ m, widget }: { m: Message; widget: Widget }) {
  const send: Send = (data) => void sendWidgetEvent(m.id, data).catch((e) => showNotice(`Could not update the ${widget.kind === "poll" ? "poll" : "to-do list"}: ${describeError(e)}`));
  return widget.kind === "poll" ? <PollWidget m={m} poll={widget} send={send} /> : <TodoWidget m={m} list={widget} send={send} />;
}

/**
 * The next index for something the person adds: one past the state's, and past what they added but
 * the server has not confirmed yet (two quick additions must not share a key).
 */
export function useNextIndex(fromState: number): () => number {
  const used = useRef(0);
  return () => {
    const idx = Math.max(fromState, used.current + 1);
    used.current = idx;
    return idx;
  };
}

/** A ref that focuses a field when it appears (one function, so it runs once, not at every render). */
export const focusOnMount = (el: HTMLInputElement | null) => el?.focus();
