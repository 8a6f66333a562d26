/**
 * The emoji picker (loaded on first use): a search by Zulip's emoji names, the person's frequently used
 * emoji first, the organization's custom emoji, then every emoji. The search field keeps the focus; the
 * arrow keys move through the grid, Enter picks, Esc closes.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { emojiNames, frequentRow, noteEmojiUse } from "../lib/emoji";
import { emojiEntries, emojiSuggestions, type EmojiEntry } from "../lib/emoji-match";
import { me, realmEmoji } from "../state/store";
import { EmojiGlyph } from "./EmojiGlyph";

export interface EmojiPickerProps {
  label: string;
  onPick(e: EmojiEntry): void;
  onClose(): void;
}

const COLUMNS = 8;

interface Section {
  title: string;
  emoji: EmojiEntry[];
}

/** Smileys first (Zulip's data has no categories), then the rest by code point. */
const order = (code: string) => {
  const first = parseInt(code, 16);
  return first >= 0x1f600 && first <= 0x1f64f ? first - 0x100000 : first;
};

export function EmojiPicker({ label, onPick, onClose }: EmojiPickerProps) {
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const search = useRef<HTMLInputElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const names = emojiNames.value;
  const custom = realmEmoji.value;
  const myId = me.value;

  const all = useMemo(() => (names ? emojiEntries(names, custom) : []), [names, custom]);
  const sections: Section[] = useMemo(() => {
    if (!names) return [];
    const q = query.trim();
    if (q) return [{ title: "Search results", emoji: emojiSuggestions(q, all, 200) }];
    const customs = all.filter((e) => e.reaction_type === "realm_emoji");
    const unicode = Object.entries(names)
      .map(([code, n]) => ({ name: n[0]!, code, reaction_type: "unicode_emoji" as const }))
      .sort((a, b) => order(a.code) - order(b.code));
    const out: Section[] = [{ title: "Frequently used", emoji: frequentRow(myId, names, custom) }];
    if (customs.length) out.push({ title: "Custom emoji", emoji: customs });
    out.push({ title: "All emoji", emoji: unicode });
    return out;
  }, [names, custom, all, query, myId]);
  const flat = sections.flatMap((s) => s.emoji);
  const at = Math.min(active, Math.max(0, flat.length - 1));
  const current = flat[at];

  useEffect(() => search.current?.focus(), []);
  useEffect(() => setActive(0), [query]);
  useEffect(() => {
    grid.current?.querySelector(`#emoji-option-${at}`)?.scrollIntoView({ block: "nearest" });
  }, [at]);

  const pick = (e: EmojiEntry | undefined) => {
    if (!e) return;
    noteEmojiUse(myId, e);
    onPick(e);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: COLUMNS, ArrowUp: -COLUMNS };
    const step = moves[e.key];
    // left and right stay in the search text while there is text to move through
    if (step !== undefined && !((e.key === "ArrowLeft" || e.key === "ArrowRight") && query)) {
      e.preventDefault();
      setActive(Math.min(flat.length - 1, Math.max(0, at + step)));
    } else if (e.key === "Enter") {
      e.preventDefault();
      pick(current);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    } else if (e.key === "Tab") {
      e.preventDefault();
    }
  };

  let index = 0;
  return (
    <div class="emoji-picker" role="dialog" aria-label={label} onKeyDown={onKeyDown}>
      <input
        ref={search}
        class="emoji-search"
        role="combobox"
        aria-label="Search emoji"
        aria-expanded="true"
        aria-controls="emoji-grid"
        aria-activedescendant={current ? `emoji-option-${at}` : undefined}
        placeholder="Search emoji"
        autoComplete="off"
        value={query}
        onInput={(e) => setQuery(e.currentTarget.value)}
      />
      <div ref={grid} id="emoji-grid" class="emoji-grid" role="listbox" aria-label="Emoji">
        {!names && <p class="emoji-empty">Loading emoji…</p>}
        {names && flat.length === 0 && <p class="emoji-empty">No emoji match “{query}”.</p>}
        {sections.map((s) =>
          s.emoji.length ? (
            <div role="group" aria-label={s.title} key={s.title}>
              <div class="emoji-section-title" aria-hidden="true">
                {s.title}
              </div>
              <div class="emoji-row">
                {s.emoji.map((e) => {
                  const i = index++;
                  return (
                    <div
                      key={`${s.title}:${e.reaction_type}:${e.code}:${e.name}`}
                      id={`emoji-option-${i}`}
                      role="option"
                      aria-selected={i === at}
                      aria-label={e.name.replace(/_/g, " ")}
                      class={`emoji-option ${i === at ? "active" : ""}`}
                      title={`:${e.name}:`}
                      onPointerDown={(ev) => ev.preventDefault()}
                      onClick={() => pick(e)}
                      onPointerEnter={() => setActive(i)}
                    >
                      <EmojiGlyph emoji={e} size={24} />
                    </div>
                  );
                })}
              </div>
            </div>
          ) : null,
        )}
      </div>
      <div class="emoji-preview" aria-hidden="true">
        {current && (
          <>
            <EmojiGlyph emoji={current} size={24} />
            <span>:{current.name}:</span>
          </>
        )}
      </div>
    </div>
  );
}
