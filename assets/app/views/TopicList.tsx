/** The topics of the open channel, newest first, with unread counts; muted topics dimmed. */
import { useEffect, useState } from "preact/hooks";
import { fetchTopics } from "../api/calls";
import { hrefOf, view } from "../nav/router";
import { topicsFetched } from "../state/fetched";
import { counts, subscriptions, topics, topicsOutdated, update, userTopics } from "../state/store";
import { isTopicMuted, placeKey, POLICY, topicPolicy } from "../state/user-topics";
import { TopicName, UnreadCount, topicText } from "./bits";
import { FollowIcon } from "./icons";
import { TopicMenu } from "./menus";

const SHOWN = 8;

export function TopicList({ streamId }: { streamId: number }) {
  const [all, setAll] = useState(false);
  const [failed, setFailed] = useState(false);
  // fetched again whenever the list went out of date (a topic's newest message deleted or moved away)
  const outdated = topicsOutdated.value[streamId] ?? 0;
  useEffect(() => setAll(false), [streamId]);
  useEffect(() => {
    // once the page is idle: the server answers in turn, and a big channel's topic list (a scan of its
    // messages) would hold up the messages of the view being opened
    let live = true;
    const idle = requestIdleCallback(
      () =>
        fetchTopics(streamId).then(
          // (an answer overtaken by a later fetch is dropped)
          (t) => live && update((s) => topicsFetched(s, streamId, t)),
          () => live && setFailed(true),
        ),
      { timeout: 1000 },
    );
    return () => {
      live = false;
      cancelIdleCallback(idle);
    };
  }, [streamId, outdated]);
  const list = topics.value[streamId];
  if (!list) return failed ? <p class="sidebar-empty">Topics could not be loaded.</p> : null;
  const settingsOf = { user_topics: userTopics.value, subscriptions: subscriptions.value };
  const v = view.value;
  const currentTopic = v.kind === "narrow" && v.narrow.kind === "topic" && v.narrow.stream_id === streamId ? v.narrow.topic.toLowerCase() : null;
  const c = counts.value;
  // the current topic and topics with unread messages stay in view even past the first few
  const shown = all ? list : list.filter((t, i) => i < SHOWN || t.name.toLowerCase() === currentTopic || (c.byTopic[placeKey(streamId, t.name)] ?? 0) > 0);
  return (
    <ul class="topic-list" aria-label="Topics">
      {list.length === 0 && <li class="sidebar-empty">No topics yet.</li>}
      {shown.map((t) => {
        const current = t.name.toLowerCase() === currentTopic;
        const muted = isTopicMuted(settingsOf, streamId, t.name);
        const followed = topicPolicy(settingsOf, streamId, t.name) === POLICY.followed;
        return (
          <li key={t.name} class={`topic-item ${muted ? "muted" : ""}`}>
            <div class={`nav-row topic-row ${current ? "current" : ""}`}>
              <a class="row-link" href={hrefOf({ kind: "narrow", narrow: { kind: "topic", stream_id: streamId, topic: t.name } })} aria-current={current ? "page" : undefined}>
                <span class="nav-label">
                  <TopicName topic={t.name} />
                </span>
                {followed && (
                  <span class="topic-followed" title="You follow this topic" role="img" aria-label="followed">
                    <FollowIcon size={14} />
                  </span>
                )}
                <UnreadCount count={c.byTopic[placeKey(streamId, t.name)] ?? 0} />
              </a>
              <TopicMenu streamId={streamId} topic={t.name} displayName={topicText(t.name)} />
            </div>
          </li>
        );
      })}
      {shown.length < list.length && (
        <li>
          <button type="button" class="link-button more-topics" onClick={() => setAll(true)}>
            Show all {list.length} topics
          </button>
        </li>
      )}
    </ul>
  );
}
