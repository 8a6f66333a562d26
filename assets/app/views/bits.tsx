/** Small shared pieces: unread counts, topic names, channel marks. */
import { realm } from "../state/store";
import type { Channel } from "../state/types";
import { HashIcon, LockIcon } from "./icons";

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

/** `#` for a public channel, a lock for a private one, in the channel's colour. */
export function ChannelMark({ channel, color }: { channel: Channel | undefined; color?: string }) {
  const style = color ? { "--channel-color": color } : undefined;
  return <span class="channel-mark" style={style}>{channel?.invite_only ? <LockIcon size={15} /> : <HashIcon size={15} />}</span>;
}
