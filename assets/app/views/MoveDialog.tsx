/**
 * Moving messages (Zulip's "Move messages" and "Move topic"): to another topic, or another channel when
 * the person may, with which messages of the topic go (only this one, this and later ones, all), and
 * whether the Notification Bot leaves a notice in the old and the new topic. Loaded on first use.
 */
import { useState } from "preact/hooks";
import { editMessage, latestInTopic, type MessageChange, type PropagateMode } from "../api/calls";
import { describeError } from "../api/http";
import { canEditTopic, canMoveChannel, canMoveOut, canMoveWithin } from "../state/permissions";
import { messages, realm, state, subscriptions } from "../state/store";
import type { Message } from "../state/types";
import { closeDialog, FormDialog } from "./Dialog";
import { showNotice } from "./Notice";
import { followMovedTopic } from "../nav/router";
import { topicText } from "./bits";

interface Props {
  streamId: number;
  topic: string;
  /** moving from a message: it and, by the choice, others of its topic; without one, the whole topic */
  message?: Message;
}

/** Zulip's default choice by where the message sits in its topic: the last alone, the first with all, else with the later ones. */
function defaultMode(m: Message): PropagateMode {
  const ids = Object.values(messages.peek())
    .filter((x) => x.type === "stream" && x.stream_id === m.stream_id && x.subject.toLowerCase() === m.subject.toLowerCase())
    .map((x) => x.id)
    .sort((a, b) => a - b);
  if (ids.at(-1) === m.id) return "change_one";
  if (ids[0] === m.id) return "change_all";
  return "change_later";
}

export function MoveDialog({ streamId, topic, message }: Props) {
  const s = state.peek()!;
  const now = Date.now() / 1000;
  const mayChannel = message ? canMoveChannel(s, message, now) : canMoveOut(s, streamId);
  const mayTopic = message ? canEditTopic(s, message, now) : canMoveWithin(s, streamId);
  const [target, setTarget] = useState(streamId);
  const [name, setName] = useState(topic);
  const [mode, setMode] = useState<PropagateMode>(message ? defaultMode(message) : "change_all");
  const [notifyNew, setNotifyNew] = useState(true);
  const [notifyOld, setNotifyOld] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const channelsToChoose = Object.values(subscriptions.value)
    .filter((c) => !c.is_archived)
    .sort((a, b) => a.name.localeCompare(b.name));

  const title = message ? "Move messages" : mayChannel ? "Move topic" : "Rename topic";

  const submit = async () => {
    const change: MessageChange = {};
    const newName = name.trim();
    if (target !== streamId) change.stream_id = target;
    if (newName !== topic) change.topic = newName;
    if (change.stream_id === undefined && change.topic === undefined) return setError("Choose another topic or channel to move to.");
    Object.assign(change, { propagate_mode: message ? mode : "change_all", send_notification_to_new_thread: notifyNew, send_notification_to_old_thread: notifyOld });
    setBusy(true);
    setError(null);
    try {
      const id = message?.id ?? (await latestInTopic(streamId, topic));
      if (id === null) throw new Error("The topic has no messages.");
      await editMessage(id, change);
      closeDialog();
      if (change.propagate_mode === "change_all") followMovedTopic({ stream_id: streamId, topic }, { stream_id: target, topic: newName });
      const where = `${change.stream_id !== undefined ? `#${s.channels[target]?.name ?? "channel"} › ` : ""}${topicText(newName)}`;
      showNotice(`Moved to ${where}.`);
    } catch (e) {
      setBusy(false);
      setError(describeError(e));
    }
  };

  return (
    <FormDialog
      title={title}
      class="move-dialog"
      initialFocus=".move-topic-input"
      formId="move-form"
      submitLabel="Confirm"
      busyLabel="Moving…"
      busy={busy}
      error={error}
      onSubmit={() => void submit()}
    >
      <p class="dialog-lead">
        From <strong>#{s.channels[streamId]?.name ?? "channel"}</strong> › <strong>{topicText(topic)}</strong>
      </p>
      {mayChannel && (
        <label class="field">
          <span>Channel</span>
          <select class="move-channel" value={target} onChange={(e) => setTarget(Number(e.currentTarget.value))}>
            {!subscriptions.value[streamId] && <option value={streamId}>#{s.channels[streamId]?.name}</option>}
            {channelsToChoose.map((c) => (
              <option key={c.stream_id} value={c.stream_id}>
                #{c.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <label class="field">
        <span>Topic</span>
        <input
          class="move-topic-input"
          value={name}
          maxLength={realm.value.max_topic_length}
          disabled={!mayTopic && !mayChannel}
          placeholder={realm.value.empty_topic_display_name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
      </label>
      {message && (
        <label class="field">
          <span>Which messages should be moved?</span>
          <select class="move-mode" value={mode} onChange={(e) => setMode(e.currentTarget.value as PropagateMode)}>
            <option value="change_one">Move only this message</option>
            <option value="change_later">Move this and all following messages in this topic</option>
            <option value="change_all">Move all messages in this topic</option>
          </select>
        </label>
      )}
      <label class="check">
        <input type="checkbox" checked={notifyNew} onChange={(e) => setNotifyNew(e.currentTarget.checked)} />
        Send automated notice to new topic
      </label>
      <label class="check">
        <input type="checkbox" checked={notifyOld} onChange={(e) => setNotifyOld(e.currentTarget.checked)} />
        Send automated notice to old topic
      </label>
    </FormDialog>
  );
}
