/** The head of a message view: what it shows, and "mark all as read" for it with its menu. */
import { flagNarrow, markAllRead, markChannelRead, markTopicRead } from "../api/calls";
import { dmTitle, keyIds } from "../state/people";
import type { Narrow } from "../state/narrow";
import { placeKey } from "../state/user-topics";
import { channels, counts, me, state, subscriptions, users } from "../state/store";
import { termsText } from "../search/terms";
import { ChannelMark, TopicName, topicText } from "./bits";
import { AtIcon, ChatIcon, CheckIcon, ChevronIcon, FeedIcon, SearchIcon, StarIcon } from "./icons";
import { attempt, ChannelMenu, TopicMenu } from "./menus";

function unreadIn(n: Narrow): number {
  const c = counts.value;
  switch (n.kind) {
    case "feed":
    case "all":
      return c.total;
    case "mentioned":
      return c.mentions;
    case "dms":
      return c.dms;
    case "starred":
      return 0;
    case "channel":
      return c.byChannel[n.stream_id] ?? 0;
    case "topic":
      return c.byTopic[placeKey(n.stream_id, n.topic)] ?? 0;
    case "dm":
      return c.byDm[n.key] ?? 0;
    case "search":
      return 0;
  }
}

function markRead(n: Narrow): Promise<unknown> {
  if (n.kind === "feed" || n.kind === "all") return markAllRead();
  if (n.kind === "channel") return markChannelRead(n.stream_id);
  if (n.kind === "topic") return markTopicRead(n.stream_id, n.topic);
  return flagNarrow(n, "add");
}

function Title({ narrow }: { narrow: Narrow }) {
  switch (narrow.kind) {
    case "search":
      return (
        <>
          <SearchIcon /> Search results <span class="title-query">{termsText({ ...state.peek()!, channels: channels.value, users: users.value }, narrow.terms)}</span>
        </>
      );
    case "feed":
    case "all":
      return <><FeedIcon /> Combined feed</>;
    case "mentioned":
      return <><AtIcon /> Mentions</>;
    case "starred":
      return <><StarIcon /> Starred messages</>;
    case "dms":
      return <><ChatIcon /> Direct messages</>;
    case "dm": {
      const ids = keyIds(narrow.key);
      return <><ChatIcon /> {ids.length === 1 && ids[0] === me.value ? "Notes to yourself" : dmTitle(users.value, narrow.key)}</>;
    }
    case "channel":
    case "topic": {
      const ch = channels.value[narrow.stream_id];
      const color = subscriptions.value[narrow.stream_id]?.color;
      return (
        <>
          <ChannelMark channel={ch} color={color} />
          <span>{ch?.name ?? "Unknown channel"}</span>
          {narrow.kind === "topic" && (
            <>
              <ChevronIcon size={16} class="title-sep" />
              <span class="title-topic">
                <TopicName topic={narrow.topic} />
              </span>
            </>
          )}
        </>
      );
    }
  }
}

export function NarrowHeader({ narrow }: { narrow: Narrow }) {
  const unread = unreadIn(narrow);
  const description = narrow.kind === "channel" ? channels.value[narrow.stream_id]?.description : "";
  return (
    <header class="view-header">
      <h1 class="view-title">
        <Title narrow={narrow} />
      </h1>
      {description && <p class="view-description">{description}</p>}
      <div class="view-actions">
        {unread > 0 && (
          <button type="button" class="button subtle" onClick={attempt("mark these messages as read", () => markRead(narrow))}>
            <CheckIcon size={16} /> Mark all as read
          </button>
        )}
        {narrow.kind === "topic" && <TopicMenu streamId={narrow.stream_id} topic={narrow.topic} displayName={topicText(narrow.topic)} />}
        {narrow.kind === "channel" && <ChannelMenu streamId={narrow.stream_id} name={channels.value[narrow.stream_id]?.name ?? ""} />}
      </div>
    </header>
  );
}
