/**
 * Topics (Zulip's topic settings): the topics the person muted, unmuted in a muted channel, or follows,
 * each with a way back to the channel's default (POST /user_topics with visibility_policy 0).
 */
import { api } from "../../../api/http";
import { hrefOf } from "../../../nav/router";
import { channels, userTopics } from "../../../state/store";
import { POLICY } from "../../../state/user-topics";
import { topicText } from "../../bits";
import { SaveError, SaveStatus, useSaver } from "../controls";

const POLICY_NAME: Record<number, string> = { [POLICY.muted]: "Muted", [POLICY.unmuted]: "Unmuted", [POLICY.followed]: "Followed" };
const UNDO: Record<number, string> = { [POLICY.muted]: "Unmute", [POLICY.unmuted]: "Mute again", [POLICY.followed]: "Unfollow" };

function TopicRow({ streamId, topic, policy }: { streamId: number; topic: string; policy: number }) {
  const saver = useSaver();
  const channel = channels.value[streamId]?.name ?? "unknown channel";
  const shown = topicText(topic);
  return (
    <li>
      <a href={hrefOf({ kind: "narrow", narrow: { kind: "topic", stream_id: streamId, topic } })}>
        #{channel} › {shown}
      </a>
      <span class="topic-policy">{POLICY_NAME[policy]}</span>
      <SaveStatus state={saver.state} />
      <SaveError state={saver.state} />
      <button
        type="button"
        class="button subtle"
        aria-label={`${UNDO[policy]} #${channel} › ${shown}`}
        disabled={saver.state.kind === "saving"}
        onClick={() => void saver.run(() => api("POST", "/user_topics", { stream_id: streamId, topic, visibility_policy: POLICY.inherit }))}
      >
        {UNDO[policy]}
      </button>
    </li>
  );
}

export function Topics() {
  const rows = Object.values(userTopics.value)
    .filter((t) => t.policy !== POLICY.inherit && channels.value[t.stream_id])
    .sort((a, b) => a.policy - b.policy || channels.value[a.stream_id]!.name.localeCompare(channels.value[b.stream_id]!.name) || a.topic.localeCompare(b.topic));
  return (
    <div class="settings-section">
      <p class="setting-hint">Mute, unmute or follow a topic from its menu; the topics you did are listed here.</p>
      {rows.length ? (
        <ul class="settings-list" aria-label="Topics you muted or follow">
          {rows.map((t) => (
            <TopicRow key={`${t.stream_id}:${t.topic}`} streamId={t.stream_id} topic={t.topic} policy={t.policy} />
          ))}
        </ul>
      ) : (
        <p class="muted-text">You have not muted or followed any topic.</p>
      )}
    </div>
  );
}
