/**
 * One message: the sender (where it changes), the time, the content, edited and moved marks, and its
 * actions in the row's last column: on hover or focus a reaction, the star and the menu of everything
 * else (a starred message keeps its star shown). The selected message (keyboard cursor) is outlined; a
 * message being edited shows its editor in place. The actions and the hover time are drawn only on a row in
 * use (row-activity.ts), the selected one and a starred one: the other rows would only hide them.
 */
import { useContext } from "preact/hooks";
import { formatFull, formatTime } from "../lib/time";
import { memo } from "../lib/memo";
import { lazy } from "../lib/lazy";
import { settings, users } from "../state/store";
import type { Highlight, Message } from "../state/types";
import { StarIcon } from "./icons";
import { MenuButton } from "./Menu";
import { MessageContent } from "./MessageContent";
import { isStarred, messageActions, toggleStar, ViewContext } from "./message-actions";
import { Editor } from "./editing";
import { Avatar } from "./people-bits";
import { openReactionPicker, Reactions } from "./Reactions";
import { AddReactionIcon } from "./icons-writing";
import { useRowActivity } from "./row-activity";

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

interface Props {
  m: Message;
  showSender: boolean;
  pending?: boolean;
  /** the keyboard's current message */
  selected?: boolean;
  /** editing it in place */
  editing?: boolean;
  /** a search result's highlighted content */
  highlight?: Highlight;
}

function Row({ m, showSender, pending, selected, editing, highlight }: Props) {
  const view = useContext(ViewContext);
  const { hovered, active, handlers } = useRowActivity();
  const twentyFourHour = settings.value.twenty_four_hour_time;
  const name = users.value[m.sender_id]?.full_name ?? m.sender_full_name;
  const unread = !pending && !m.flags.includes("read");
  const starred = isStarred(m);
  const time = formatTime(m.timestamp, twentyFourHour);
  const widget = m.submessages.length > 0 && m.submessages[0]!.msg_type === "widget";
  const mentioned = m.flags.some((f) => f === "mentioned" || f === "stream_wildcard_mentioned" || f === "topic_wildcard_mentioned");
  const actions = !!view && !pending && !editing;
  const classes = ["message-row", showSender ? "first" : "", unread ? "unread" : "", mentioned ? "mentioned" : "", pending ? "pending" : "", m.is_me_message ? "me-message" : "", selected ? "selected" : "", starred ? "starred" : "", actions ? "has-actions" : ""].join(" ");
  return (
    <article class={classes} data-message-id={pending ? undefined : m.id} tabIndex={-1} aria-label={`${name}, ${time}${unread ? ", unread" : ""}${starred ? ", starred" : ""}`} {...handlers}>
      <div class="message-gutter">{showSender ? <Avatar userId={m.sender_id} name={name} /> : hovered && <time class="hover-time" dateTime={new Date(m.timestamp * 1000).toISOString()}>{time}</time>}</div>
      <div class="message-main">
        {showSender && (
          <header class="message-header">
            <span class="sender-name">{name}</span>
            {/* the full date is a pointer's tooltip: written once the row is under the pointer (a screen of rows formats none) */}
            <time class="message-time" dateTime={new Date(m.timestamp * 1000).toISOString()} title={hovered ? formatFull(m.timestamp) : undefined}>
              {time}
            </time>
            <Marks m={m} />
          </header>
        )}
        {editing ? <Editor m={m} /> : widget ? <Widget m={m} /> : <MessageContent html={highlight?.content ?? m.content} />}
        {!showSender && <Marks m={m} />}
        {!pending && <Reactions m={m} />}
        {pending && <span class="pending-note">Sending…</span>}
      </div>
      {actions && (active || selected || starred) && (
        <div class="message-controls">
          <button type="button" class="icon-button menu-button add-reaction" aria-label="Add emoji reaction" title="Add emoji reaction" onClick={(e) => openReactionPicker(m, e.currentTarget)}>
            <AddReactionIcon size={16} />
          </button>
          <button type="button" class={`icon-button message-star ${starred ? "on" : ""}`} aria-label={starred ? "Unstar message" : "Star message"} aria-pressed={starred} title={starred ? "Unstar (*)" : "Star (*)"} onClick={() => toggleStar(m)}>
            <StarIcon size={16} />
          </button>
          <MenuButton label="Message actions" items={() => messageActions(m, view)} alignEnd />
        </div>
      )}
    </article>
  );
}

export const MessageRow = memo(Row);
