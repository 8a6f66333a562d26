/**
 * Editing a message in place: its Markdown (fetched from the server) in a text box, and its topic when
 * the person may move it, with which messages of the topic follow. Saving sends one PATCH; the new text
 * arrives as an update_message event like anyone else's edit. Escape cancels; Enter (or Ctrl+Enter,
 * as for sending) saves. A refusal from the server is shown under the box, which stays open.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { editMessage, fetchMessageSource, type MessageChange, type PropagateMode } from "../api/calls";
import { describeError } from "../api/http";
import { canEditContent, canEditTopic } from "../state/permissions";
import { realm, settings, state } from "../state/store";
import type { Message } from "../state/types";
import { editing, stopEditing } from "./editing-state";

/** Gives the focus back to the message (its row stays when the editor goes). */
function refocus(id: number) {
  document.querySelector<HTMLElement>(`.message-row[data-message-id="${id}"]`)?.focus();
}

export function MessageEditor({ m }: { m: Message }) {
  // what may be changed is decided when the editor opens; a later refusal comes from the server
  const [{ mayContent, mayTopic }] = useState(() => {
    const now = Date.now() / 1000;
    return { mayContent: canEditContent(state.peek()!, m, now), mayTopic: canEditTopic(state.peek()!, m, now) };
  });
  const focus = editing.peek()?.focus ?? "content";
  const [original, setOriginal] = useState<string | null>(null);
  const [text, setText] = useState("");
  const [topic, setTopic] = useState(m.subject);
  const [mode, setMode] = useState<PropagateMode>("change_later");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const topicInput = useRef<HTMLInputElement>(null);

  useLayoutEffect(() => {
    if (!mayContent) topicInput.current?.focus();
  }, []);

  useEffect(() => {
    if (!mayContent) return;
    let live = true;
    fetchMessageSource(m.id).then(
      (source) => {
        if (!live) return;
        setOriginal(source);
        setText(source);
      },
      (e) => live && setError(`The message's text could not be loaded: ${describeError(e)}`),
    );
    return () => {
      live = false;
    };
  }, [m.id]);

  // Escape cancels even when the focus is not in the editor yet (or was moved out of it); set up as
  // soon as the editor is drawn, so an Escape pressed at once is not lost
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      e.preventDefault();
      cancel();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  useLayoutEffect(() => {
    if (original === null) return;
    if (focus === "topic" && topicInput.current) topicInput.current.focus();
    else {
      const el = area.current!;
      el.focus();
      el.selectionStart = el.selectionEnd = el.value.length;
    }
  }, [original]);

  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight + 2, 480)}px`;
  }, [text]);

  const cancel = () => {
    stopEditing();
    refocus(m.id);
  };

  const save = () => {
    const change: MessageChange = {};
    if (mayContent && original !== null && text !== original) change.content = text;
    const newTopic = topic.trim();
    if (mayTopic && newTopic !== m.subject) {
      Object.assign(change, { topic: newTopic, propagate_mode: mode, send_notification_to_old_thread: false, send_notification_to_new_thread: true });
    }
    if (!Object.keys(change).length) return cancel();
    if (change.content !== undefined && change.content.length > realm.peek().max_message_length) {
      return setError(`The message is too long (${realm.peek().max_message_length} characters at most).`);
    }
    setBusy(true);
    setError(null);
    editMessage(m.id, change).then(
      () => {
        stopEditing();
        refocus(m.id);
      },
      (e) => {
        setBusy(false);
        setError(`Your edit was not saved: ${describeError(e)}`);
      },
    );
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      cancel();
    } else if (e.key === "Enter" && !e.isComposing) {
      const isText = e.target === area.current;
      const sends = e.ctrlKey || e.metaKey || !isText || (settings.peek().enter_sends && !e.shiftKey && !e.altKey);
      if (sends) {
        e.preventDefault();
        save();
      }
    }
  };

  const topicChanged = mayTopic && topic.trim() !== m.subject;
  return (
    <form
      class="message-editor"
      aria-label="Edit the message"
      onKeyDown={onKeyDown}
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      {mayTopic && (
        <div class="editor-topic">
          <label>
            <span class="editor-label">Topic</span>
            <input ref={topicInput} class="editor-topic-input" value={topic} maxLength={realm.value.max_topic_length} onInput={(e) => setTopic(e.currentTarget.value)} />
          </label>
          {topicChanged && (
            <select class="editor-propagate" aria-label="Which messages move to the new topic" value={mode} onChange={(e) => setMode(e.currentTarget.value as PropagateMode)}>
              <option value="change_one">Move only this message</option>
              <option value="change_later">Move this and all following messages in this topic</option>
              <option value="change_all">Move all messages in this topic</option>
            </select>
          )}
        </div>
      )}
      {mayContent && (
        <textarea
          ref={area}
          class="editor-text"
          aria-label="Message text"
          value={original === null ? "" : text}
          placeholder={original === null && !error ? "Loading…" : ""}
          disabled={original === null}
          onInput={(e) => setText(e.currentTarget.value)}
        />
      )}
      {error && (
        <p class="editor-error" role="alert">
          {error}
        </p>
      )}
      <div class="editor-foot">
        <button type="submit" class="button primary" disabled={busy || (mayContent && original === null && !mayTopic)}>
          {busy ? "Saving…" : "Save"}
        </button>
        <button type="button" class="button subtle" onClick={cancel}>
          Cancel
        </button>
        <span class="editor-hint">{settings.value.enter_sends ? "Enter to save" : "Ctrl+Enter to save"} · Esc to cancel</span>
      </div>
    </form>
  );
}
