/**
 * A message's edit history (GET /messages/{id}/history), oldest first: the original, then each edit
 * with what it changed (the text with insertions and deletions marked, the topic, the channel) and who
 * did it when. The organization's policy decides what the server gives: everything, only moves, or
 * nothing. Loaded on first use.
 */
import { useEffect, useState } from "preact/hooks";
import { fetchMessageHistory, type HistoryEntry } from "../api/calls";
import { describeError } from "../api/http";
import { formatFull } from "../lib/time";
import { channels, users } from "../state/store";
import type { Message } from "../state/types";
import { Dialog } from "./Dialog";
import { MessageContent } from "./MessageContent";
import { topicText } from "./bits";

const who = (id: number | null) => (id === null ? "Someone" : (users.value[id]?.full_name ?? "Someone"));
const channelName = (id: number | undefined) => (id === undefined ? "" : `#${channels.value[id]?.name ?? "unknown channel"}`);

function Version({ entry, first }: { entry: HistoryEntry; first: boolean }) {
  const edited = entry.prev_content !== undefined;
  const movedTopic = entry.prev_topic !== undefined;
  const movedChannel = entry.prev_stream !== undefined;
  let what = "Posted by";
  if (!first) what = edited ? (movedTopic || movedChannel ? "Edited and moved by" : "Edited by") : "Moved by";
  const html = edited && entry.content_html_diff ? entry.content_html_diff : entry.rendered_content;
  return (
    <li class="history-version">
      <header class="history-head">
        <span class="history-what">
          {what} {who(entry.user_id)}
        </span>
        <time class="history-time" dateTime={new Date(entry.timestamp * 1000).toISOString()}>
          {formatFull(entry.timestamp)}
        </time>
      </header>
      {movedChannel && (
        <p class="history-move">
          Channel: <del>{channelName(entry.prev_stream)}</del> → <ins>{channelName(entry.stream)}</ins>
        </p>
      )}
      {movedTopic && (
        <p class="history-move">
          Topic: <del>{topicText(entry.prev_topic!)}</del> → <ins>{topicText(entry.topic)}</ins>
        </p>
      )}
      {first && <p class="history-move">Topic: {topicText(entry.topic)}</p>}
      {(first || edited) && html !== undefined && <MessageContent html={html} />}
    </li>
  );
}

export function EditHistory({ message }: { message: Message }) {
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    fetchMessageHistory(message.id).then(setEntries, (e) => setError(describeError(e)));
  }, [message.id]);
  return (
    <Dialog title="Message edit history" class="history-dialog" readable>
      {error ? (
        <p class="dialog-error" role="alert">
          The history could not be loaded: {error}
        </p>
      ) : !entries ? (
        <p class="muted-text">Loading…</p>
      ) : (
        <ol class="history-list" aria-label="Versions, oldest first">
          {entries.map((e, i) => (
            <Version key={i} entry={e} first={i === 0} />
          ))}
        </ol>
      )}
    </Dialog>
  );
}
