/**
 * The compose box under a message view: to a channel and topic or to people, then the message, with
 * autocomplete (people, groups, channels, topics, emoji), a preview, uploads, drafts, typing notices
 * and "send later". It follows the conversation the view shows: what was written to another one is
 * kept as that conversation's draft, and the new one's draft (if any) comes back.
 * Enter sends (Shift+Enter is a new line) when the person's `enter_sends` setting is on; otherwise
 * Enter is a new line and Ctrl+Enter (⌘+Enter) sends. The toggle beside Send changes that setting.
 */
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { updateSetting } from "../api/calls";
import { keyIds } from "../state/people";
import { narrowKey, type Narrow } from "../state/narrow";
import { lists, me, messages, settings, subscriptions, users } from "../state/store";
import { attempt } from "../views/menus";
import { SendIcon } from "../views/icons";
import { PaperclipIcon, SmileIcon } from "../views/icons-writing";
import { topicText } from "../views/bits";
import { channels } from "../state/store";
import { openEmojiPicker } from "../views/emoji-picker-host";
import { formatScheduled } from "./send-later";
import { RecipientPicker } from "./RecipientPicker";
import { TopicInput } from "./TopicInput";
import { Preview } from "./Preview";
import { UploadList } from "./UploadList";
import { SendLaterMenu } from "./SendLater";
import { draftFor, flushDraft, saveDraftSoon } from "./drafts";
import { scheduleCompose, stopEditingScheduled } from "./scheduled";
import { send } from "./send";
import { compose, composeTarget, pendingCursor, setContent, type ComposeTarget } from "./state";
import { useTextAutocomplete } from "./TextAutocomplete";
import { noteTyping, stopTyping } from "./typing";
import { uploadFiles } from "./uploads";

/** The last focus request served (see compose.focusRequest). */
let focusServed = 0;

/** The conversation a view shows, as the box addresses it (null for views of many conversations). */
function targetOf(narrow: Narrow): ComposeTarget | null {
  if (narrow.kind === "topic") return { type: "stream", stream_id: narrow.stream_id, topic: narrow.topic };
  if (narrow.kind === "channel") {
    // a channel view keeps the topic being written in that channel
    const topic = compose.kind.peek() === "stream" && compose.streamId.peek() === narrow.stream_id ? compose.topic.peek() : "";
    return { type: "stream", stream_id: narrow.stream_id, topic };
  }
  if (narrow.kind === "dm") {
    const ids = keyIds(narrow.key);
    return { type: "direct", user_ids: ids.length === 1 && ids[0] === me.peek() ? [me.peek()] : ids };
  }
  return null;
}

function sameTarget(a: ComposeTarget, b: ComposeTarget): boolean {
  if (a.type === "stream" && b.type === "stream") return a.stream_id === b.stream_id && a.topic.toLowerCase() === b.topic.toLowerCase();
  if (a.type === "direct" && b.type === "direct") return [...a.user_ids].sort().join() === [...b.user_ids].sort().join();
  return false;
}

/** Points the box at the view's conversation, keeping what was written elsewhere as a draft. */
function follow(narrow: Narrow) {
  const target = targetOf(narrow);
  if (!target) {
    if (!compose.content.peek().trim()) compose.error.value = null;
    return;
  }
  if (sameTarget(composeTarget(), target)) return;
  if (compose.scheduled.peek()) return; // a scheduled message being edited stays until it is rescheduled or dropped
  flushDraft();
  stopTyping();
  compose.error.value = null;
  compose.mode.value = "write";
  if (target.type === "stream") {
    compose.kind.value = "stream";
    compose.streamId.value = target.stream_id;
    compose.topic.value = target.topic;
  } else {
    compose.kind.value = "direct";
    compose.recipients.value = target.user_ids;
  }
  const draft = draftFor(target);
  compose.draftId.value = draft?.id ?? null;
  compose.content.value = draft?.content ?? "";
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

/** Who spoke in the view lately, most recent first (the mention autocomplete prefers them). */
function recentSenders(narrow: Narrow): number[] {
  const ids = lists.peek()[narrowKey(narrow)]?.ids ?? [];
  const cache = messages.peek();
  const out: number[] = [];
  for (let i = ids.length - 1; i >= 0 && out.length < 20; i--) {
    const sender = cache[ids[i]!]?.sender_id;
    if (sender !== undefined && !out.includes(sender)) out.push(sender);
  }
  return out;
}

export function ComposeBox({ narrow }: { narrow: Narrow }) {
  const text = useRef<HTMLTextAreaElement>(null);
  const files = useRef<HTMLInputElement>(null);
  const enterSends = settings.value.enter_sends;
  const subs = Object.values(subscriptions.value).sort((a, b) => a.name.localeCompare(b.name));
  const auto = useTextAutocomplete(() => recentSenders(narrow));
  const editing = compose.scheduled.value;
  const mode = compose.mode.value;

  // before the browser paints the new view, so its title never shows beside another conversation's text
  useLayoutEffect(() => follow(narrow), [narrow]);
  useEffect(() => {
    // a request is served once: a compose box drawn later (another view) does not take the focus again
    if (compose.focusRequest.value > focusServed) {
      compose.mode.value = "write";
      text.current?.focus();
    }
    focusServed = compose.focusRequest.value;
  }, [compose.focusRequest.value]);
  // the text area grows with what is written, up to a limit the stylesheet sets
  useLayoutEffect(() => {
    const el = text.current;
    if (!el) return;
    // empty, it has the height of its two rows (and the stylesheet's minimum): measuring it would make the
    // browser lay out the whole page in the middle of the first render, and once more when the list scrolls
    if (!compose.content.value) {
      el.style.height = "";
      return;
    }
    el.style.height = "auto";
    el.style.height = `${el.scrollHeight + 2}px`;
  }, [compose.content.value, mode]);
  // text put in by the box itself (an autocomplete pick, an upload link) places the cursor after it
  useLayoutEffect(() => {
    const at = pendingCursor.value;
    const el = text.current;
    if (at === null || !el) return;
    pendingCursor.value = null;
    el.setSelectionRange(at, at);
  }, [pendingCursor.value, compose.content.value]);

  const submit = () => void (editing ? scheduleCompose() : send());

  const onKeyDown = (e: KeyboardEvent) => {
    if (auto.onKeyDown(e, e.currentTarget as HTMLTextAreaElement)) return;
    if (e.key !== "Enter" || e.isComposing) return;
    const modified = e.ctrlKey || e.metaKey;
    if (modified || (enterSends && !e.shiftKey && !e.altKey)) {
      e.preventDefault();
      submit();
    }
  };

  const onPaste = (e: ClipboardEvent) => {
    const pasted = e.clipboardData;
    if (!pasted?.files.length || pasted.types.includes("text/plain")) return;
    e.preventDefault();
    uploadFiles(pasted.files);
  };

  const insertEmoji = (anchor: HTMLElement) =>
    openEmojiPicker({
      anchor,
      label: "Insert an emoji",
      onPick: (emoji) => {
        const el = text.current;
        const cur = compose.content.peek();
        const at = el ? el.selectionStart : cur.length;
        const lead = at > 0 && !/\s/.test(cur[at - 1]!) ? " " : "";
        const insert = `${lead}:${emoji.name}: `;
        setContent(cur.slice(0, at) + insert + cur.slice(at), at + insert.length);
        saveDraftSoon();
        compose.mode.value = "write";
        el?.focus();
      },
    });

  const kind = compose.kind.value;
  const empty = !compose.content.value.trim();
  return (
    <form
      class="compose"
      aria-label="Compose a message"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {editing && (
        <div class="compose-banner" role="status">
          <span>
            Editing a message scheduled for <strong>{formatScheduled(editing.at, settings.value.twenty_four_hour_time)}</strong>.
          </span>
          <button type="button" class="link-button" onClick={stopEditingScheduled}>
            Stop editing
          </button>
        </div>
      )}
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
              onChange={(e) => {
                compose.streamId.value = e.currentTarget.value ? Number(e.currentTarget.value) : null;
                saveDraftSoon();
              }}
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
            <TopicInput />
          </>
        ) : (
          <RecipientPicker />
        )}
      </div>
      <div class="tabs compose-tabs" role="tablist" aria-label="Message">
        <button type="button" role="tab" id="compose-write-tab" aria-selected={mode === "write"} aria-controls={mode === "write" ? "compose-write" : undefined} onClick={() => ((compose.mode.value = "write"), setTimeout(() => text.current?.focus()))}>
          Write
        </button>
        <button type="button" role="tab" id="compose-preview-tab" aria-selected={mode === "preview"} aria-controls={mode === "preview" ? "compose-preview" : undefined} onClick={() => ((compose.mode.value = "preview"), stopTyping())}>
          Preview
        </button>
      </div>
      {mode === "write" ? (
        <div key="write" class="compose-field" id="compose-write" role="tabpanel" aria-labelledby="compose-write-tab">
          <textarea
            ref={text}
            class="compose-text"
            aria-label="Message"
            placeholder={placeholder()}
            rows={2}
            value={compose.content.value}
            {...auto.fieldProps}
            onInput={(e) => {
              setContent(e.currentTarget.value);
              auto.track(e.currentTarget);
              noteTyping();
              saveDraftSoon();
            }}
            onKeyDown={onKeyDown}
            onKeyUp={(e) => auto.track(e.currentTarget)}
            onClick={(e) => auto.track(e.currentTarget)}
            onPaste={onPaste}
          />
          {auto.list}
        </div>
      ) : (
        <Preview key="preview" />
      )}
      <UploadList />
      <div class="compose-foot">
        <div class="compose-tools">
          <button type="button" class="icon-button" aria-label="Upload files" title="Upload files" onClick={() => files.current?.click()}>
            <PaperclipIcon size={18} />
          </button>
          <input
            ref={files}
            type="file"
            multiple
            hidden
            aria-hidden="true"
            tabIndex={-1}
            onChange={(e) => {
              const chosen = e.currentTarget.files;
              if (chosen?.length) {
                compose.mode.value = "write";
                uploadFiles([...chosen]);
              }
              e.currentTarget.value = "";
            }}
          />
          <button type="button" class="icon-button" aria-label="Add an emoji" title="Add an emoji" onClick={(e) => insertEmoji(e.currentTarget)}>
            <SmileIcon size={18} />
          </button>
        </div>
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
        <div class="send-group">
          <button type="submit" class="button primary send-button" disabled={empty}>
            <SendIcon size={16} /> {editing ? "Schedule" : "Send"}
          </button>
          <SendLaterMenu disabled={empty} />
        </div>
      </div>
    </form>
  );
}
