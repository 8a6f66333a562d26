/**
 * Alert words (Zulip's alert_words_ui): words and phrases that notify the person like a mention. Added
 * with POST and removed with DELETE /users/me/alert_words; the alert_words event updates the list.
 */
import { useState } from "preact/hooks";
import { api } from "../../../api/http";
import { state } from "../../../state/store";
import { SaveError, SaveStatus, useId, useSaver } from "../controls";

/** Zulip's longest alert word. */
export const MAX_ALERT_WORD_LENGTH = 100;

function WordRow({ word }: { word: string }) {
  const saver = useSaver();
  return (
    <li>
      <span>{word}</span>
      <SaveStatus state={saver.state} />
      <SaveError state={saver.state} />
      <button type="button" class="button subtle" aria-label={`Remove the alert word ${word}`} disabled={saver.state.kind === "saving"} onClick={() => void saver.run(() => api("DELETE", "/users/me/alert_words", { alert_words: [word] }))}>
        Remove
      </button>
    </li>
  );
}

export function AlertWords() {
  const words = state.value!.alert_words;
  const saver = useSaver();
  const id = useId("alert-word");
  const [text, setText] = useState("");
  const add = async (e: Event) => {
    e.preventDefault();
    const word = text.trim();
    if (!word) return saver.refuse("Enter a word or phrase.");
    if (await saver.run(() => api("POST", "/users/me/alert_words", { alert_words: [word] }))) setText("");
  };
  return (
    <div class="settings-section">
      <p class="setting-hint">A message with one of these words or phrases notifies you as if it mentioned you.</p>
      <form class="setting" onSubmit={(e) => void add(e)}>
        <label for={id}>New alert word</label>
        <div class="setting-row">
          <input id={id} type="text" value={text} maxLength={MAX_ALERT_WORD_LENGTH} onInput={(e) => setText(e.currentTarget.value)} />
          <button type="submit" class="button" disabled={saver.state.kind === "saving"}>
            Add
          </button>
          <SaveStatus state={saver.state} />
        </div>
        <SaveError state={saver.state} />
      </form>
      {words.length ? (
        <ul class="settings-list" aria-label="Your alert words">
          {[...words].sort((a, b) => a.localeCompare(b)).map((w) => (
            <WordRow key={w} word={w} />
          ))}
        </ul>
      ) : (
        <p class="muted-text">You have no alert words.</p>
      )}
    </div>
  );
}
