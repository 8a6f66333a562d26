/**
 * Autocomplete in the message text (see autocomplete.ts for the rules): the suggestions for the token at
 * the cursor, kept current as the person types and moves the cursor; arrows choose, Tab or Enter
 * picks, Esc closes. The text area stays a text box (aria-autocomplete, aria-activedescendant) and
 * the suggestions are a listbox beside it.
 */
import { signal } from "@preact/signals";
import { useEffect, useState } from "preact/hooks";
import { saveDraftSoon } from "./drafts";
import { compose, setContent } from "./state";
import { optionId, Suggestions } from "./Suggestions";
import { tokenAt } from "./token";

/** The suggestion code (suggest.tsx), loaded with the first token typed. */
const suggest = signal<typeof import("./suggest") | null>(null);
let loading = false;
function suggestModule() {
  const m = suggest.value;
  if (!m && !loading) {
    loading = true;
    import("./suggest").then(
      (mod) => (suggest.value = mod),
      () => (loading = false),
    );
  }
  return m;
}

const LIST_ID = "compose-suggestions";

export interface TextAutocomplete {
  /** the list to draw beside the text area (null when closed) */
  list: preact.JSX.Element | null;
  /** attributes for the text area */
  fieldProps: Record<string, string | undefined>;
  /** the cursor moved or the text changed */
  track(el: HTMLTextAreaElement): void;
  /** a key in the text area: true when the autocomplete took it */
  onKeyDown(e: KeyboardEvent, el: HTMLTextAreaElement): boolean;
}

/** `preferred`: who spoke in the conversation lately, most recent first (asked only while suggesting people). */
export function useTextAutocomplete(preferred: () => readonly number[]): TextAutocomplete {
  const [cursor, setCursor] = useState(0);
  const [active, setActive] = useState(0);
  const [closedFor, setClosedFor] = useState<string | null>(null);
  const text = compose.content.value;
  const token = compose.mode.value === "write" ? tokenAt(text, Math.min(cursor, text.length)) : null;
  const tokenKey = token ? `${token.kind}:${token.start}:${"query" in token ? token.query : ""}` : "";
  const mod = token ? suggestModule() : null;
  const suggestions = mod && token && closedFor !== `${text}|${cursor}` ? mod.suggestionsFor(token, preferred) : [];
  const open = suggestions.length > 0;
  // a new token starts at its first suggestion
  useEffect(() => setActive(0), [tokenKey]);
  const at = Math.min(active, Math.max(0, suggestions.length - 1));

  const pick = (i: number, el?: HTMLTextAreaElement | null) => {
    const s = suggestions[i];
    if (!s || !token || !mod) return;
    const next = mod.applySuggestion(text, cursor, token, s, mod.people());
    setContent(next.text, next.cursor);
    setCursor(next.cursor);
    saveDraftSoon();
    el?.focus();
  };

  const list = open ? (
    <Suggestions
      id={LIST_ID}
      label={token?.kind === "emoji" ? "Emoji" : token?.kind === "channel" ? "Channels" : token?.kind === "topic" ? "Topics" : "People and groups"}
      items={suggestions.map(mod!.itemOf)}
      active={at}
      onPick={(i) => pick(i, document.querySelector<HTMLTextAreaElement>(".compose-text"))}
      footer={token?.kind === "mention" && token.silent ? "This silent mention won't trigger notifications." : undefined}
    />
  ) : null;

  return {
    list,
    fieldProps: {
      "aria-autocomplete": "list",
      "aria-controls": open ? LIST_ID : undefined,
      "aria-activedescendant": open ? optionId(LIST_ID, at) : undefined,
    },
    track(el) {
      setCursor(el.selectionStart ?? el.value.length);
    },
    onKeyDown(e, el) {
      if (!open || e.isComposing) return false;
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        setActive((at + (e.key === "ArrowDown" ? 1 : -1) + suggestions.length) % suggestions.length);
        return true;
      }
      if ((e.key === "Enter" && !e.shiftKey) || (e.key === "Tab" && !e.shiftKey) || (e.key === ">" && token?.kind === "channel")) {
        e.preventDefault();
        pick(at, el);
        return true;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        if (token?.kind === "topic" && mod) {
          const next = mod.closeTopicToken(text, cursor, token);
          setContent(next.text, next.cursor);
          setCursor(next.cursor);
          saveDraftSoon();
        } else setClosedFor(`${text}|${cursor}`);
        return true;
      }
      return false;
    },
  };
}
