/**
 * The search bar in the top bar: Zulip's operators and free text, with suggestions as the person types
 * (arrows to pick, Enter to search, Tab to complete, Escape to close or clear). A search is a view with
 * its own `#narrow/...` URL; the bar shows the terms of the search being looked at. `/` focuses it.
 */
import { signal } from "@preact/signals";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { fetchTopics } from "../api/calls";
import { navigate, view } from "../nav/router";
import { topicsFetched } from "../state/fetched";
import { state, topics, update } from "../state/store";
import type { Suggestion } from "../search/suggest";
import { channelId, parseQuery, termsOfNarrow, termsText, viewForQuery } from "../search/terms";
import { CloseIcon, SearchIcon } from "./icons";
import { showNotice } from "./Notice";

/** Puts the focus in the bar (the `/` key), at once, so what is typed next lands there. */
export const focusSearch = () => document.querySelector<HTMLInputElement>(".search-input")?.focus();

/** The suggestions' code, loaded when the bar is first used. */
const suggester = signal<typeof import("../search/suggest") | null>(null);
const loadSuggester = () => {
  if (!suggester.peek()) import("../search/suggest").then((m) => (suggester.value = m), () => {});
};

export function SearchBar() {
  const v = view.value;
  const searching = v.kind === "narrow" && v.narrow.kind === "search" ? v.narrow : null;
  const shownQuery = searching ? termsText(state.peek()!, searching.terms) : "";
  const [text, setText] = useState(shownQuery);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  /** the bar was just filled with the view's terms: a click that focused it must not put the caret inside them */
  const justFilled = useRef(false);
  const topicLists = topics.value;

  // the bar follows the view: a search shows its terms, any other view an empty bar
  useEffect(() => {
    if (document.activeElement !== input.current) setText(shownQuery);
  }, [shownQuery]);

  const suggest = suggester.value?.suggest;
  const suggestions: Suggestion[] = useMemo(() => (open && suggest ? suggest(state.peek()!, text) : []), [open, text, topicLists, suggest]);

  // "topic:" after a channel: its topics, fetched once when they are not known yet
  useEffect(() => {
    if (!open || !/(^|\s)-?topic:\S*$/.test(text)) return;
    const channel = parseQuery(text).find((t) => t.operator === "channel" && !t.negated);
    const id = channel ? channelId(state.peek()!, channel.operand) : null;
    if (id === null || state.peek()!.topics[id]) return;
    fetchTopics(id).then(
      (t) => update((s) => topicsFetched(s, id, t)),
      () => {},
    );
  }, [open, text]);

  const run = (query: string) => {
    const found = viewForQuery(state.peek()!, query);
    if (!found) return;
    if ("error" in found) return showNotice(found.error);
    setOpen(false);
    setActive(-1);
    input.current?.blur();
    navigate({ kind: "narrow", ...found });
  };

  const choose = (s: Suggestion) => {
    if (s.complete) {
      setText(s.query);
      run(s.query);
    } else {
      setText(s.query);
      setActive(-1);
      input.current?.focus();
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const n = suggestions.length;
    if (e.key === "ArrowDown" && n) {
      e.preventDefault();
      setOpen(true);
      setActive((active + 1) % n);
    } else if (e.key === "ArrowUp" && n) {
      e.preventDefault();
      setActive(active <= 0 ? n - 1 : active - 1);
    } else if (e.key === "Enter") {
      e.preventDefault();
      const s = active >= 0 ? suggestions[active] : undefined;
      if (s) choose(s);
      else run(text);
    } else if (e.key === "Tab" && active >= 0 && suggestions[active] && !e.shiftKey) {
      e.preventDefault();
      const s = suggestions[active]!;
      setText(s.complete ? `${s.query} ` : s.query);
      setActive(-1);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      if (open && n) {
        setOpen(false);
        setActive(-1);
      } else {
        setText(shownQuery);
        input.current?.blur();
      }
    }
  };

  const onFocus = () => {
    loadSuggester();
    setOpen(true);
    // searching from a channel, topic or conversation starts within it, as in Zulip
    if (!text && v.kind === "narrow" && v.narrow.kind !== "search") {
      const terms = termsOfNarrow(v.narrow);
      if (terms.length) {
        const prefill = `${termsText(state.peek()!, terms)} `;
        // the caret after the terms, wherever the click put it
        const el = input.current!;
        el.value = prefill;
        el.setSelectionRange(prefill.length, prefill.length);
        justFilled.current = true;
        setText(prefill);
      }
    }
  };

  const listId = "search-suggestions";
  const showList = open && suggestions.length > 0;
  return (
    <form
      class="search-bar"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        run(text);
      }}
    >
      <SearchIcon size={16} class="search-icon" />
      <input
        ref={input}
        class="search-input"
        type="text"
        role="combobox"
        aria-label="Search messages"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? `search-option-${active}` : undefined}
        placeholder="Search"
        autocomplete="off"
        spellcheck={false}
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={onFocus}
        onClick={(e) => {
          if (!justFilled.current) return;
          justFilled.current = false;
          const el = e.currentTarget;
          el.setSelectionRange(el.value.length, el.value.length);
        }}
        onBlur={() => {
          setOpen(false);
          justFilled.current = false;
        }}
        onKeyDown={onKeyDown}
      />
      {text && (
        <button
          type="button"
          class="icon-button search-clear"
          aria-label="Clear the search"
          onPointerDown={(e) => e.preventDefault()}
          onClick={() => {
            setText("");
            setActive(-1);
            input.current?.focus();
          }}
        >
          <CloseIcon size={14} />
        </button>
      )}
      {showList && (
        <ul id={listId} class="search-suggestions" role="listbox" aria-label="Suggestions">
          {suggestions.map((s, i) => (
            <li
              id={`search-option-${i}`}
              key={s.query + s.description}
              role="option"
              aria-selected={i === active}
              class={i === active ? "active" : ""}
              onPointerDown={(e) => {
                e.preventDefault();
                choose(s);
              }}
            >
              <span class="suggestion-query">{s.shown}</span>
              <span class="suggestion-description">{s.description}</span>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
