/**
 * The topic field, with the channel's topics suggested as the person types (a combobox): arrows
 * choose, Enter or Tab picks, Esc closes; the empty topic shows under the organization's name for it.
 */
import { useState } from "preact/hooks";
import { realm } from "../state/store";
import { matchRank } from "./match";
import { compose } from "./state";
import { optionId, Suggestions } from "./Suggestions";
import { topicNames } from "./topics";
import { noteTyping } from "./typing";
import { saveDraftSoon } from "./drafts";

const LIST_ID = "topic-suggestions";
const SHOWN = 8;

export function TopicInput() {
  const [focused, setFocused] = useState(false);
  const [active, setActive] = useState(0);
  const [closed, setClosed] = useState(true);
  const streamId = compose.streamId.value;
  const text = compose.topic.value;
  const names = streamId !== null && focused ? topicNames(streamId) : [];
  const q = text.trim();
  const matches = names
    .filter((t) => t !== text && (!q || matchRank(t, q, " -_/") >= 0))
    .sort((a, b) => (q ? matchRank(a, q, " -_/") - matchRank(b, q, " -_/") : 0))
    .slice(0, SHOWN);
  const open = focused && !closed && matches.length > 0;
  const at = Math.min(active, Math.max(0, matches.length - 1));

  const set = (value: string) => {
    compose.topic.value = value;
    compose.error.value = null;
    noteTyping();
    saveDraftSoon();
  };
  const pick = (i: number) => {
    const t = matches[i];
    if (t === undefined) return;
    set(t);
    setClosed(true);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" && closed) {
      e.preventDefault();
      setClosed(false);
      setActive(0);
      return;
    }
    if (!open) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setActive((at + (e.key === "ArrowDown" ? 1 : -1) + matches.length) % matches.length);
    } else if (e.key === "Enter" || (e.key === "Tab" && !e.shiftKey)) {
      e.preventDefault();
      pick(at);
      // on to the message, as Zulip's topic field does
      document.querySelector<HTMLTextAreaElement>(".compose-text")?.focus();
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      setClosed(true);
    }
  };

  return (
    <span class="topic-field">
      <input
        class="compose-topic"
        role="combobox"
        aria-label="Topic"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={open ? LIST_ID : undefined}
        aria-activedescendant={open ? optionId(LIST_ID, at) : undefined}
        autoComplete="off"
        placeholder={realm.value.mandatory_topics ? "Topic" : `Topic (or ${realm.value.empty_topic_display_name})`}
        maxLength={realm.value.max_topic_length}
        value={text}
        onInput={(e) => {
          set(e.currentTarget.value);
          setClosed(false);
          setActive(0);
        }}
        onFocus={() => setFocused(true)}
        onBlur={() => {
          setFocused(false);
          setClosed(true);
        }}
        onKeyDown={onKeyDown}
      />
      {open && <Suggestions id={LIST_ID} label="Topics" items={matches.map((t) => ({ key: t, content: <span class="suggestion-main">{t === "" ? realm.value.empty_topic_display_name : t}</span> }))} active={at} onPick={pick} />}
    </span>
  );
}
