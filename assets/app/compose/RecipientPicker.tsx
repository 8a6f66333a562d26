/** Choosing the people of a direct message: their names as pills, and a field that finds more by name. */
import { useState } from "preact/hooks";
import { activePeople } from "../state/people";
import { me, users } from "../state/store";
import { CloseIcon } from "../views/icons";
import { saveDraftSoon } from "./drafts";
import { compose } from "./state";
import { noteTyping } from "./typing";

const SHOWN = 8;

export function RecipientPicker() {
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const chosen = compose.recipients.value;
  const needle = text.trim().toLowerCase();
  const matches = needle
    ? activePeople(users.value)
        .filter((u) => !chosen.includes(u.user_id) && (u.full_name.toLowerCase().includes(needle) || u.email.toLowerCase().includes(needle)))
        .slice(0, SHOWN)
    : [];
  const open = matches.length > 0;

  const changed = () => {
    noteTyping();
    saveDraftSoon();
  };
  const add = (id: number) => {
    compose.recipients.value = [...chosen, id];
    setText("");
    setActive(0);
    changed();
  };
  const remove = (id: number) => {
    compose.recipients.value = chosen.filter((x) => x !== id);
    changed();
  };

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
    <div class="recipient-picker">
      {chosen.map((id) => (
        <span class="pill" key={id}>
          {users.value[id]?.full_name ?? "Unknown user"}
          {id === me.value && " (you)"}
          <button type="button" class="pill-remove" aria-label={`Remove ${users.value[id]?.full_name ?? "this person"}`} onClick={() => remove(id)}>
            <CloseIcon size={12} />
          </button>
        </span>
      ))}
      <input
        class="recipient-input"
        role="combobox"
        aria-label="Add a person"
        aria-expanded={open}
        aria-controls="recipient-options"
        aria-autocomplete="list"
        aria-activedescendant={open ? `recipient-option-${matches[active]?.user_id}` : undefined}
        placeholder={chosen.length ? "Add another person" : "Type a name"}
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      {open && (
        <ul id="recipient-options" class="picker-options" role="listbox" aria-label="People">
          {matches.map((u, i) => (
            <li
              id={`recipient-option-${u.user_id}`}
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
