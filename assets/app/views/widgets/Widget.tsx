/** A poll or a to-do list in place of its message's text (Zulip's widgets), acting through POST /submessage. */
import { sendWidgetEvent } from "../../api/calls";
import { describeError } from "../../api/http";
import { me } from "../../state/store";
import type { Message } from "../../state/types";
import { widgetOf, type Widget } from "../../state/widgets";
import { MessageContent } from "../MessageContent";
import { showNotice } from "../Notice";
import { PollWidget } from "./Poll";
import { TodoWidget } from "./Todo";
import type { Send } from "./widget-bits";

/** The widget of a message whose first submessage declares one (an unknown kind shows the message's text). */
export function MessageWidget({ m }: { m: Message }) {
  const widget = widgetOf(m, me.value);
  return widget ? <WidgetView m={m} widget={widget} /> : <MessageContent html={m.content} />;
}

export function WidgetView({ m, widget }: { m: Message; widget: Widget }) {
  const send: Send = (data) => void sendWidgetEvent(m.id, data).catch((e) => showNotice(`Could not update the ${widget.kind === "poll" ? "poll" : "to-do list"}: ${describeError(e)}`));
  return widget.kind === "poll" ? <PollWidget m={m} poll={widget} send={send} /> : <TodoWidget m={m} list={widget} send={send} />;
}
