/** Small shared pieces: unread counts, topic names, channel marks. */
import { realm } from "../state/store";
import type { Channel } from "../state/types";
import { LockIcon } from "./icons";

export function UnreadCount({ count, what = "unread", mention }: { count: number; what?: string; mention?: boolean }) {
  if (!count) return null;
  return (
    <span class={`unread-count ${mention ? "unread-mention" : ""}`} aria-label={`${count} ${what}`}>
      {count > 999 ? "999+" : count}
    </span>
  );
}

/** A topic's name; the empty topic shows the organization's name for it, in italics as Zulip does. */
export function TopicName({ topic }: { topic: string }) {
  return topic === "" ? <em class="empty-topic">{realm.value.empty_topic_display_name}</em> : <>{topic}</>;
}

export const topicText = (topic: string) => (topic === "" ? realm.value.empty_topic_display_name : topic);

/**
 * `#` for a public channel (drawn by the stylesheet: a screen of recipient bars has one each), a lock for a
 * private one, in the channel's colour; `inherit`: the colour is the element around it's (a recipient bar's).
 */
export function ChannelMark({ channel, color }: { channel: Channel | undefined; color?: string | "inherit" }) {
  const style = color && color !== "inherit" ? { "--channel-color": color } : undefined;
  const colored = color ? " colored" : "";
  return channel?.invite_only ? (
    <span class={`channel-mark${colored}`} style={style}>
      <LockIcon size={15} />
    </span>
  ) : (
    <span class={`channel-mark hash${colored}`} style={style} />
  );
}
