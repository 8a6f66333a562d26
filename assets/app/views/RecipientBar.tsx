/** The bar above a block of messages: where they are (channel › topic, or the people of a conversation) and the day. */
import { hrefOf } from "../nav/router";
import { formatDay } from "../lib/time";
import { dmTitle, keyIds } from "../state/people";
import { channels, me, subscriptions, users } from "../state/store";
import type { Recipient } from "./blocks";
import { ChannelMark, TopicName, topicText } from "./bits";
import { TopicMenu } from "./menus";
import { useRowActivity } from "./row-activity";

/** `subjectHtml`: a search result's topic with its matches marked (the server's match_subject, escaped HTML). */
export function RecipientBar({ recipient, timestamp, subjectHtml }: { recipient: Recipient; timestamp: number; subjectHtml?: string }) {
  // the topic's menu shows only on a bar hovered or holding the focus (messages.css): only then is it
  // drawn, an empty slot of its width keeping its place (a list with many topics has a bar per message)
  const { active, handlers } = useRowActivity();
  const day = <span class="recipient-day">{formatDay(timestamp)}</span>;
  if (recipient.kind === "dm") {
    const ids = keyIds(recipient.key);
    const self = ids.length === 1 && ids[0] === me.value;
    return (
      <div class="recipient-bar dm-bar">
        <a class="recipient-link" href={hrefOf({ kind: "narrow", narrow: { kind: "dm", key: recipient.key } })}>
          {self ? "You (a note to yourself)" : `You and ${dmTitle(users.value, recipient.key)}`}
        </a>
        {day}
      </div>
    );
  }
  const ch = channels.value[recipient.stream_id];
  const sub = subscriptions.value[recipient.stream_id];
  const color = sub?.color ?? "#b0b7c3";
  return (
    <div class="recipient-bar channel-bar" style={{ "--channel-color": color }} {...handlers}>
      <a class="recipient-channel" href={hrefOf({ kind: "narrow", narrow: { kind: "channel", stream_id: recipient.stream_id } })}>
        <ChannelMark channel={ch} color="inherit" />
        {ch?.name ?? "Unknown channel"}
      </a>
      <a class="recipient-topic recipient-sep" href={hrefOf({ kind: "narrow", narrow: { kind: "topic", stream_id: recipient.stream_id, topic: recipient.topic } })}>
        {subjectHtml && recipient.topic !== "" ? <span dangerouslySetInnerHTML={{ __html: subjectHtml }} /> : <TopicName topic={recipient.topic} />}
      </a>
      {active ? <TopicMenu streamId={recipient.stream_id} topic={recipient.topic} displayName={topicText(recipient.topic)} /> : <span class="row-menu-slot" />}
      {day}
    </div>
  );
}
