/** Inbox: every conversation with unread messages, direct messages first, then by channel. */
import { hrefOf } from "../nav/router";
import { dmTitle, keyIds } from "../state/people";
import { isTopicMuted, placeKey } from "../state/user-topics";
import { counts, me, subscriptions, unread, userTopics, users } from "../state/store";
import { ChannelMark, TopicName, UnreadCount, topicText } from "./bits";
import { AtIcon, ChatIcon, CheckIcon, InboxIcon } from "./icons";
import { attempt, ChannelMenu, TopicMenu } from "./menus";
import { markAllRead } from "../api/calls";
import { PresenceDot } from "./people-bits";

interface TopicEntry {
  topic: string;
  count: number;
  mentioned: boolean;
  newest: number;
}

export function Inbox() {
  const u = unread.value;
  const c = counts.value;
  const subs = subscriptions.value;
  const muting = { user_topics: userTopics.value, subscriptions: subs };
  const mentions = new Set(u.mentions);
  const dms = new Map<string, { count: number; newest: number; mentioned: boolean }>();
  const byChannel = new Map<number, Map<string, TopicEntry>>();
  for (const [idText, place] of Object.entries(u.messages)) {
    const id = Number(idText);
    if (place.kind === "dm") {
      const d = dms.get(place.key) ?? { count: 0, newest: 0, mentioned: false };
      dms.set(place.key, { count: d.count + 1, newest: Math.max(d.newest, id), mentioned: d.mentioned || mentions.has(id) });
      continue;
    }
    if (!subs[place.stream_id] || isTopicMuted(muting, place.stream_id, place.topic)) continue;
    const topicsOf = byChannel.get(place.stream_id) ?? new Map<string, TopicEntry>();
    byChannel.set(place.stream_id, topicsOf);
    const key = place.topic.toLowerCase();
    const t = topicsOf.get(key) ?? { topic: place.topic, count: 0, mentioned: false, newest: 0 };
    topicsOf.set(key, { ...t, count: t.count + 1, mentioned: t.mentioned || mentions.has(id), newest: Math.max(t.newest, id) });
  }
  const channelIds = [...byChannel.keys()].sort((a, b) => Number(subs[b]!.pin_to_top) - Number(subs[a]!.pin_to_top) || subs[a]!.name.localeCompare(subs[b]!.name));
  const nothing = dms.size === 0 && channelIds.length === 0;

  return (
    <div class="overview">
      <header class="view-header">
        <h1 class="view-title">
          <InboxIcon /> Inbox
        </h1>
        <div class="view-actions">
          {c.total > 0 && (
            <button type="button" class="button subtle" onClick={attempt("mark all messages as read", markAllRead)}>
              <CheckIcon size={16} /> Mark all as read
            </button>
          )}
        </div>
      </header>
      <div class="overview-scroller">
        {nothing && (
          <div class="overview-empty">
            <p class="overview-empty-title">You're all caught up.</p>
            <p>New messages in your channels and direct messages will show up here.</p>
          </div>
        )}
        {dms.size > 0 && (
          <section class="inbox-group" aria-label="Direct messages">
            <div class="inbox-group-head">
              <ChatIcon size={16} />
              <span class="inbox-group-name">Direct messages</span>
              <UnreadCount count={c.dms} />
            </div>
            <ul class="inbox-rows">
              {[...dms.entries()]
                .sort((a, b) => b[1].newest - a[1].newest)
                .map(([key, d]) => {
                  const ids = keyIds(key);
                  return (
                    <li key={key}>
                      <a class="inbox-row" href={hrefOf({ kind: "narrow", narrow: { kind: "dm", key } })}>
                        {ids.length === 1 && <PresenceDot userId={ids[0]!} />}
                        <span class="inbox-row-name">{ids.length === 1 && ids[0] === me.value ? "Notes to yourself" : dmTitle(users.value, key)}</span>
                        {d.mentioned && <AtIcon size={14} class="mention-mark" />}
                        <UnreadCount count={d.count} />
                      </a>
                    </li>
                  );
                })}
            </ul>
          </section>
        )}
        {channelIds.map((id) => {
          const sub = subs[id]!;
          const entries = [...byChannel.get(id)!.values()].sort((a, b) => b.newest - a.newest);
          return (
            <section class="inbox-group" key={id} aria-label={`#${sub.name}`}>
              <div class="inbox-group-head" style={{ "--channel-color": sub.color }}>
                <a class="inbox-channel" href={hrefOf({ kind: "narrow", narrow: { kind: "channel", stream_id: id } })}>
                  <ChannelMark channel={sub} color={sub.color} />
                  <span class="inbox-group-name">{sub.name}</span>
                </a>
                <UnreadCount count={c.byChannel[id] ?? 0} />
                <ChannelMenu streamId={id} name={sub.name} />
              </div>
              <ul class="inbox-rows">
                {entries.map((t) => (
                  <li key={placeKey(id, t.topic)} class="inbox-topic">
                    <a class="inbox-row" href={hrefOf({ kind: "narrow", narrow: { kind: "topic", stream_id: id, topic: t.topic } })}>
                      <span class="inbox-row-name">
                        <TopicName topic={t.topic} />
                      </span>
                      {t.mentioned && <AtIcon size={14} class="mention-mark" />}
                      <UnreadCount count={t.count} />
                    </a>
                    <TopicMenu streamId={id} topic={t.topic} displayName={topicText(t.topic)} />
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </div>
  );
}
