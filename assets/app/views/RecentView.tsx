/** Recent conversations: the latest topics and direct-message conversations, newest first, with who spoke. */
import { useLayoutEffect, useState } from "preact/hooks";
import { fetchMessages, recentFetch } from "../api/calls";
import { newerThanEarly } from "../api/first-messages";
import { describeError } from "../api/http";
import { hrefOf } from "../nav/router";
import { messagesFetched } from "../state/fetched";
import { dmTitle, keyIds } from "../state/people";
import { isTopicMuted, placeKey } from "../state/user-topics";
import { counts, lists, me, messages, settings, subscriptions, update, userTopics, users, channels } from "../state/store";
import type { Narrow } from "../state/narrow";
import { formatWhen } from "../lib/time";
import { recipientOf, type Recipient } from "./blocks";
import { ChannelMark, TopicName, UnreadCount } from "./bits";
import { ChatIcon, ClockIcon } from "./icons";
import { Avatar } from "./people-bits";

const ALL: Narrow = { kind: "all" };

interface Conversation {
  key: string;
  recipient: Recipient;
  newest: number;
  timestamp: number;
  senders: number[];
}

export function RecentView() {
  const [error, setError] = useState<string | null>(null);
  const list = lists.value.all;
  // as MessageView's: an answer already here is drawn in the view's first frame
  useLayoutEffect(() => {
    if (lists.peek().all?.found_newest) return;
    fetchMessages(...recentFetch()).then(
      (answer) => {
        update((s) => messagesFetched(s, ALL, answer, "replace"));
        // asked for at start-up, before the event queue existed: whatever came meanwhile is fetched now
        const after = newerThanEarly(answer);
        if (after !== null) void fetchMessages(ALL, after, 0, 400, false).then((more) => update((s) => messagesFetched(s, ALL, more, "newer")), (e) => setError(describeError(e)));
      },
      (e) => setError(describeError(e)),
    );
  }, []);
  const cache = messages.value;
  const muting = { user_topics: userTopics.value, subscriptions: subscriptions.value };
  const c = counts.value;
  const byKey = new Map<string, Conversation>();
  for (const id of list?.ids ?? []) {
    const m = cache[id];
    if (!m) continue;
    const r = recipientOf(me.value, m);
    if (r.kind === "channel" && isTopicMuted(muting, r.stream_id, r.topic)) continue;
    const key = r.kind === "channel" ? placeKey(r.stream_id, r.topic) : `dm:${r.key}`;
    const conv = byKey.get(key) ?? { key, recipient: r, newest: 0, timestamp: 0, senders: [] };
    byKey.set(key, conv);
    if (m.id > conv.newest) Object.assign(conv, { newest: m.id, timestamp: m.timestamp });
    conv.senders = [m.sender_id, ...conv.senders.filter((s) => s !== m.sender_id)];
  }
  const convos = [...byKey.values()].sort((a, b) => b.newest - a.newest);
  const twentyFour = settings.value.twenty_four_hour_time;

  return (
    <div class="overview">
      <header class="view-header">
        <h1 class="view-title">
          <ClockIcon /> Recent conversations
        </h1>
      </header>
      <div class="overview-scroller">
        {error && (
          <p class="list-error" role="alert">
            Recent conversations could not be loaded: {error}
          </p>
        )}
        {!list && !error && <p class="list-loading">Loading…</p>}
        {list && convos.length === 0 && (
          <div class="overview-empty">
            <p class="overview-empty-title">No conversations yet.</p>
            <p>Open a channel on the left and start one.</p>
          </div>
        )}
        {convos.length > 0 && (
          <table class="recent-table">
            <thead>
              <tr>
                <th scope="col">Conversation</th>
                <th scope="col" class="recent-people-col">Participants</th>
                <th scope="col" class="recent-time-col">Time</th>
              </tr>
            </thead>
            <tbody>
              {convos.map((cv) => {
                const r = cv.recipient;
                const narrow: Narrow = r.kind === "channel" ? { kind: "topic", stream_id: r.stream_id, topic: r.topic } : { kind: "dm", key: r.key };
                const count = r.kind === "channel" ? (c.byTopic[placeKey(r.stream_id, r.topic)] ?? 0) : (c.byDm[r.key] ?? 0);
                return (
                  <tr key={cv.key} class={count ? "has-unread" : ""}>
                    <td>
                      <a class="recent-link" href={hrefOf({ kind: "narrow", narrow })}>
                        {r.kind === "channel" ? (
                          <>
                            <span class="recent-channel">
                              <ChannelMark channel={channels.value[r.stream_id]} color={subscriptions.value[r.stream_id]?.color} />
                              {channels.value[r.stream_id]?.name ?? "Unknown channel"}
                            </span>
                            <span class="recent-topic">
                              <TopicName topic={r.topic} />
                            </span>
                          </>
                        ) : (
                          <>
                            <ChatIcon size={16} class="recent-dm-icon" />
                            <span class="recent-topic">{keyIds(r.key).length === 1 && keyIds(r.key)[0] === me.value ? "Notes to yourself" : dmTitle(users.value, r.key)}</span>
                          </>
                        )}
                        <UnreadCount count={count} />
                      </a>
                    </td>
                    <td class="recent-people-col">
                      <span class="avatar-stack">
                        {cv.senders.slice(0, 4).map((id) => (
                          <span key={id} title={users.value[id]?.full_name}>
                            <Avatar userId={id} size={24} />
                          </span>
                        ))}
                      </span>
                    </td>
                    <td class="recent-time-col">
                      <time dateTime={new Date(cv.timestamp * 1000).toISOString()}>{formatWhen(cv.timestamp, twentyFour)}</time>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
