/**
 * Choosing people: their names as pills (removable, Backspace takes the last), and a combobox that finds
 * more by name or email (arrows move, Enter or Tab picks, Escape clears). The compose box's recipients
 * and a new channel's subscribers use it.
 */
import { useState } from "preact/hooks";
import { activePeople } from "../state/people";
import { me, users } from "../state/store";
import { CloseIcon } from "./icons";

const SHOWN = 8;

interface Props {
  chosen: number[];
  onChange(ids: number[]): void;
  /** shown first and never removed or offered (a new channel's creator) */
  fixed?: number[];
  label: string;
  placeholder: string;
  /** makes the ids of the listbox and its options unique on the page */
  idPrefix: string;
  class: string;
  inputClass?: string;
}

const nameOf = (id: number) => `${users.value[id]?.full_name ?? "Unknown user"}${id === me.value ? " (you)" : ""}`;

export function PeoplePicker({ chosen, onChange, fixed = [], label, placeholder, idPrefix, class: cls, inputClass = "recipient-input" }: Props) {
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const needle = text.trim().toLowerCase();
  const matches = needle
    ? activePeople(users.value)
        .filter((u) => !fixed.includes(u.user_id) && !chosen.includes(u.user_id) && (u.full_name.toLowerCase().includes(needle) || u.email.toLowerCase().includes(needle)))
        .slice(0, SHOWN)
    : [];
  const open = matches.length > 0;

  const add = (id: number) => {
    onChange([...chosen, id]);
    setText("");
    setActive(0);
  };
  const remove = (id: number) => onChange(chosen.filter((x) => x !== id));

  const onKeyDown = (e: KeyboardEvent) => {
    if (open && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      e.preventDefault();
      setActive((active + (e.key === "ArrowDown" ? 1 : -1) + matches.length) % matches.length);
    } else if (open && (e.key === "Enter" || e.key === "Tab") && matches[active]) {
      e.preventDefault();
      add(matches[active]!.user_id);
    } else if (e.key === "Backspace" && !text && chosen.length) {
      remove(chosen[chosen.length - 1]!);
    } else if (e.key === "Escape" && text) {
      e.stopPropagation();
      setText("");
    }
  };

  return (
    <div class={cls}>
      {fixed.map((id) => (
        <span class="pill" key={`fixed-${id}`}>
          {nameOf(id)}
        </span>
      ))}
      {chosen.map((id) => (
        <span class="pill" key={id}>
          {nameOf(id)}
          <button type="button" class="pill-remove" aria-label={`Remove ${users.value[id]?.full_name ?? "this person"}`} onClick={() => remove(id)}>
            <CloseIcon size={12} />
          </button>
        </span>
      ))}
      <input
        class={inputClass}
        role="combobox"
        aria-label={label}
        aria-expanded={open}
        aria-controls={`${idPrefix}-options`}
        aria-autocomplete="list"
        aria-activedescendant={open ? `${idPrefix}-option-${matches[active]?.user_id}` : undefined}
        placeholder={placeholder}
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      {open && (
        <ul id={`${idPrefix}-options`} class="picker-options" role="listbox" aria-label="People">
          {matches.map((u, i) => (
            <li
              id={`${idPrefix}-option-${u.user_id}`}
              key={u.user_id}
              role="option"
              aria-selected={i === active}
              class={i === active ? "active" : ""}
              onPointerDown={(e) => {
                e.preventDefault();
                add(u.user_id);
              }}
            >
              <span>{u.full_name}</span>
              <span class="muted-text">{u.email}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
