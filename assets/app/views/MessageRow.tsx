/** One message: the sender (where it changes), the time, the content, edited and moved marks, its menu. */
import { useContext } from "preact/hooks";
import { formatFull, formatTime } from "../lib/time";
import { memo } from "../lib/memo";
import { settings, users } from "../state/store";
import { lazy } from "../lib/lazy";
import type { Message } from "../state/types";
import { MenuButton } from "./Menu";
import { MessageContent } from "./MessageContent";
import { messageActions, ViewContext } from "./message-actions";
import { Avatar } from "./people-bits";
import { openReactionPicker, Reactions } from "./Reactions";
import { AddReactionIcon } from "./icons-writing";

/** A poll or a to-do list (its code loads with the first one shown); the message's text until then. */
const Widget = lazy(
  () => import("./widgets/Widget").then((m) => m.MessageWidget),
  ({ m }: { m: Message }) => <MessageContent html={m.content} />,
);

function Marks({ m }: { m: Message }) {
  const edited = m.last_edit_timestamp !== undefined;
  const moved = m.last_moved_timestamp !== undefined;
  if (!edited && !moved) return null;
  const when = formatFull((edited ? m.last_edit_timestamp : m.last_moved_timestamp)!);
  return (
    <span class="edit-mark" title={`${edited ? "Edited" : "Moved"} ${when}`}>
      {edited ? "EDITED" : "MOVED"}
    </span>
  );
}

function Row({ m, showSender, pending }: { m: Message; showSender: boolean; pending?: boolean }) {
  const view = useContext(ViewContext);
  const twentyFourHour = settings.value.twenty_four_hour_time;
  const name = users.value[m.sender_id]?.full_name ?? m.sender_full_name;
  const unread = !pending && !m.flags.includes("read");
  const time = formatTime(m.timestamp, twentyFourHour);
  const widget = m.submessages.length > 0 && m.submessages[0]!.msg_type === "widget";
  const mentioned = m.flags.some((f) => f === "mentioned" || f === "stream_wildcard_mentioned" || f === "topic_wildcard_mentioned");
  const classes = ["message-row", showSender ? "first" : "", unread ? "unread" : "", mentioned ? "mentioned" : "", pending ? "pending" : "", m.is_me_message ? "me-message" : ""].join(" ");
  return (
    <article class={classes} data-message-id={pending ? undefined : m.id} aria-label={`${name}, ${time}${unread ? ", unread" : ""}`}>
      <div class="message-gutter">{showSender ? <Avatar userId={m.sender_id} name={name} /> : <time class="hover-time" dateTime={new Date(m.timestamp * 1000).toISOString()}>{time}</time>}</div>
      <div class="message-main">
        {showSender && (
          <header class="message-header">
            <span class="sender-name">{name}</span>
            <time class="message-time" dateTime={new Date(m.timestamp * 1000).toISOString()} title={formatFull(m.timestamp)}>
              {time}
            </time>
            <Marks m={m} />
          </header>
        )}
        {widget ? <Widget m={m} /> : <MessageContent html={m.content} />}
        {!showSender && <Marks m={m} />}
        {!pending && <Reactions m={m} />}
        {pending && <span class="pending-note">Sending…</span>}
      </div>
      {view && !pending && (
        <div class="message-controls">
          <button type="button" class="icon-button menu-button add-reaction" aria-label="Add emoji reaction" title="Add emoji reaction" onClick={(e) => openReactionPicker(m, e.currentTarget)}>
            <AddReactionIcon size={16} />
          </button>
          <MenuButton label="Message actions" items={() => messageActions(m, view)} alignEnd />
        </div>
      )}
    </article>
  );
}

export const MessageRow = memo(Row);
