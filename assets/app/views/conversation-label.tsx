/** Where a draft or a scheduled message goes, as a line: "#channel › topic" or "You and Hamlet". */
import { dmTitle, dmKey } from "../state/people";
import { channels, me, subscriptions, users } from "../state/store";
import { ChannelMark, TopicName } from "./bits";
import { ChatIcon } from "./icons";

export function ConversationLabel({ type, to, topic }: { type: string; to: number | number[]; topic?: string }) {
  if (type === "stream") {
    const id = Array.isArray(to) ? to[0]! : to;
    const sub = subscriptions.value[id];
    return (
      <span class="conversation-label">
        <ChannelMark channel={channels.value[id]} color={sub?.color} />
        <span>{channels.value[id]?.name ?? "Unknown channel"}</span>
        <span class="muted-text"> › </span>
        <TopicName topic={topic ?? ""} />
      </span>
    );
  }
  const ids = Array.isArray(to) ? to : [to];
  if (type === "private" && ids.length) {
    const key = dmKey(me.value, ids);
    return (
      <span class="conversation-label">
        <ChatIcon size={15} />
        <span>{key === String(me.value) ? "Notes to yourself" : `You and ${dmTitle(users.value, key)}`}</span>
      </span>
    );
  }
  return <span class="conversation-label muted-text">No recipient yet</span>;
}
