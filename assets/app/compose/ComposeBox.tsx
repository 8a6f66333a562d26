/**
 * The compose box under a message view: to a channel and topic or to people, then the message. It
 * follows the view it sits under while it is empty, and keeps its own recipient once the person writes.
 * Enter sends (Shift+Enter is a new line) when the person's `enter_sends` setting is on; otherwise
 * Enter is a new line and Ctrl+Enter (⌘+Enter) sends. The toggle beside Send changes that setting.
 */
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { updateSetting } from "../api/calls";
import { keyIds } from "../state/people";
import type { Narrow } from "../state/narrow";
import { me, realm, settings, subscriptions, users } from "../state/store";
import { attempt } from "../views/menus";
import { SendIcon } from "../views/icons";
import { topicText } from "../views/bits";
import { channels } from "../state/store";
import { RecipientPicker } from "./RecipientPicker";
import { send } from "./send";
import { compose } from "./state";

/** Points the compose box at the view's conversation (when the person has not started writing). */
function follow(narrow: Narrow) {
  if (compose.content.peek().trim()) return;
  compose.error.value = null;
  if (narrow.kind === "channel" || narrow.kind === "topic") {
    compose.kind.value = "stream";
    compose.streamId.value = narrow.stream_id;
    compose.topic.value = narrow.kind === "topic" ? narrow.topic : "";
  } else if (narrow.kind === "dm") {
    compose.kind.value = "direct";
    const ids = keyIds(narrow.key);
    compose.recipients.value = ids.length === 1 && ids[0] === me.peek() ? [me.peek()] : ids;
  }
}

function placeholder(): string {
  if (compose.kind.value === "direct") {
    const names = compose.recipients.value.map((id) => (id === me.value ? "yourself" : users.value[id]?.full_name)).filter(Boolean);
    return names.length ? `Message ${names.join(", ")}` : "Message";
  }
  const ch = compose.streamId.value === null ? null : channels.value[compose.streamId.value];
  if (!ch) return "Message";
  return compose.topic.value ? `Message #${ch.name} › ${topicText(compose.topic.value)}` : `Message #${ch.name}`;
}

export function ComposeBox({ narrow }: { narrow: Narrow }) {
  const text = useRef<HTMLTextAreaElement>(null);
  const enterSends = settings.value.enter_sends;
  const subs = Object.values(subscriptions.value).sort((a, b) => a.name.localeCompare(b.name));

  useEffect(() => follow(narrow), [narrow]);
  useEffect(() => {
    if (compose.focusRequest.value) text.current?.focus();
  }, [compose.focusRequest.value]);
  // the text area grows with what is written, up to a limit the stylesheet sets
  useLayoutEffect(() => {
    const el = text.current!;
    el.style.height = "auto";
    el.style.height = `${el.scrollHeight + 2}px`;
  }, [compose.content.value]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== "Enter" || e.isComposing) return;
    const modified = e.ctrlKey || e.metaKey;
    if (modified || (enterSends && !e.shiftKey && !e.altKey)) {
      e.preventDefault();
      void send();
    }
  };

  const kind = compose.kind.value;
  return (
    <form
      class="compose"
      aria-label="Compose a message"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <div class="compose-to">
        <div class="segmented" role="group" aria-label="Send to">
          <button type="button" aria-pressed={kind === "stream"} onClick={() => (compose.kind.value = "stream")}>
            Channel
          </button>
          <button type="button" aria-pressed={kind === "direct"} onClick={() => (compose.kind.value = "direct")}>
            Direct message
          </button>
        </div>
        {kind === "stream" ? (
          <>
            <select
              class="compose-channel"
              aria-label="Channel"
              value={compose.streamId.value ?? ""}
              onChange={(e) => (compose.streamId.value = e.currentTarget.value ? Number(e.currentTarget.value) : null)}
            >
              <option value="">Choose a channel</option>
              {subs.map((s) => (
                <option value={s.stream_id} key={s.stream_id}>
                  #{s.name}
                </option>
              ))}
            </select>
            <span class="compose-sep" aria-hidden="true">
              ›
            </span>
            <input
              class="compose-topic"
              aria-label="Topic"
              placeholder={realm.value.mandatory_topics ? "Topic" : `Topic (or ${realm.value.empty_topic_display_name})`}
              maxLength={realm.value.max_topic_length}
              value={compose.topic.value}
              onInput={(e) => (compose.topic.value = e.currentTarget.value)}
            />
          </>
        ) : (
          <RecipientPicker />
        )}
      </div>
      <textarea
        ref={text}
        class="compose-text"
        aria-label="Message"
        placeholder={placeholder()}
        rows={2}
        value={compose.content.value}
        onInput={(e) => {
          compose.content.value = e.currentTarget.value;
          compose.error.value = null;
        }}
        onKeyDown={onKeyDown}
      />
      <div class="compose-foot">
        {compose.error.value ? (
          <p class="compose-error" role="alert">
            {compose.error.value}
          </p>
        ) : (
          <p class="compose-hint">{enterSends ? "Enter to send · Shift+Enter for a new line" : "Ctrl+Enter to send · Enter for a new line"}</p>
        )}
        <label class="enter-toggle">
          <input type="checkbox" checked={enterSends} onChange={attempt("change the setting", () => updateSetting("enter_sends", !enterSends))} />
          Enter sends
        </label>
        <button type="submit" class="button primary send-button" disabled={!compose.content.value.trim()}>
          <SendIcon size={16} /> Send
        </button>
      </div>
    </form>
  );
}
