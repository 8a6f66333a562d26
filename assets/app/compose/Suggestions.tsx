/** The list of autocomplete suggestions under the compose box's fields (a listbox; the field keeps the focus). */
import type { ComponentChildren } from "preact";

export interface SuggestionItem {
  key: string;
  content: ComponentChildren;
}

interface Props {
  id: string;
  label: string;
  items: SuggestionItem[];
  active: number;
  onPick(index: number): void;
  footer?: string;
}

export const optionId = (listId: string, i: number) => `${listId}-${i}`;

export function Suggestions({ id, label, items, active, onPick, footer }: Props) {
  return (
    <div class="suggestions">
      <ul id={id} class="suggestion-list" role="listbox" aria-label={label}>
        {items.map((item, i) => (
          <li
            id={optionId(id, i)}
            key={item.key}
            role="option"
            aria-selected={i === active}
            class={`suggestion ${i === active ? "active" : ""}`}
            // pointerdown, not click: the field must not lose the focus first
            onPointerDown={(e) => {
              e.preventDefault();
              onPick(i);
            }}
          >
            {item.content}
          </li>
        ))}
      </ul>
      {footer && <p class="suggestion-footer">{footer}</p>}
    </div>
  );
}
