/** A labelled choice from a list that saves on change; the values may be numbers, strings or null. */
import type { ComponentChildren } from "preact";
import { SaveError, SaveStatus, useId, useSaver } from "./save";

export interface Choice<V> {
  value: V;
  label: string;
}

interface Props<V> {
  label: ComponentChildren;
  value: V;
  choices: readonly Choice<V>[];
  onSave(next: V): Promise<unknown>;
  disabled?: boolean;
  hint?: ComponentChildren;
  name?: string;
}

export function Select<V>({ label, value, choices, onSave, disabled, hint, name }: Props<V>) {
  const saver = useSaver();
  const id = useId("select");
  const index = choices.findIndex((c) => c.value === value);
  return (
    <div class="setting select-setting">
      <label for={id}>{label}</label>
      <div class="setting-row">
        <select
          id={id}
          name={name}
          value={String(index)}
          disabled={disabled || saver.state.kind === "saving"}
          aria-describedby={saver.state.kind === "error" ? `${id}-error` : hint ? `${id}-hint` : undefined}
          onChange={(e) => {
            const next = choices[Number(e.currentTarget.value)];
            e.currentTarget.value = String(index);
            if (next) void saver.run(() => onSave(next.value));
          }}
        >
          {index < 0 && <option value="-1">—</option>}
          {choices.map((c, i) => (
            <option key={i} value={String(i)}>
              {c.label}
            </option>
          ))}
        </select>
        <SaveStatus state={saver.state} />
      </div>
      {hint && (
        <p class="setting-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <SaveError state={saver.state} id={`${id}-error`} />
    </div>
  );
}
