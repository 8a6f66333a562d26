/**
 * A labelled text field with its own Save button: the text typed is kept here until saved; after the
 * server's answer the field shows the store's value again (the new one, or the old one after a refusal).
 */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { SaveError, SaveStatus, useId, useSaver } from "./save";

interface Props {
  label: ComponentChildren;
  value: string;
  onSave(next: string): Promise<unknown>;
  /** a problem with the text found before sending, or null */
  check?(next: string): string | null;
  maxLength?: number;
  type?: "text" | "email" | "url" | "date";
  multiline?: boolean;
  disabled?: boolean;
  hint?: ComponentChildren;
  name?: string;
  autocomplete?: string;
  saveLabel?: string;
  /** the change waits for something else (an email confirmed): after saving, the field shows the stored value again */
  resetAfterSave?: boolean;
}

export function TextField({ label, value, onSave, check, maxLength, type = "text", multiline, disabled, hint, name, autocomplete, saveLabel = "Save", resetAfterSave }: Props) {
  const saver = useSaver();
  const id = useId("text");
  const [text, setText] = useState(value);
  // the stored value changed (saved here, or elsewhere): show it
  useEffect(() => setText(value), [value]);
  const busy = saver.state.kind === "saving";
  const submit = async (e: Event) => {
    e.preventDefault();
    const problem = check?.(text) ?? null;
    if (problem) return saver.refuse(problem);
    const ok = await saver.run(() => onSave(text));
    if (!ok || resetAfterSave) setText(value);
  };
  const fieldProps = {
    id,
    name,
    value: text,
    maxLength,
    disabled: disabled || busy,
    autocomplete,
    "aria-describedby": saver.state.kind === "error" ? `${id}-error` : hint ? `${id}-hint` : undefined,
    onInput: (e: Event) => setText((e.currentTarget as HTMLInputElement).value),
  };
  return (
    <form class="setting text-setting" onSubmit={(e) => void submit(e)}>
      <label for={id}>{label}</label>
      <div class="setting-row">
        {multiline ? <textarea rows={3} {...fieldProps} /> : <input {...fieldProps} type={type as "text"} />}
        <button type="submit" class="button" disabled={disabled || busy || text === value}>
          {saveLabel}
        </button>
        <SaveStatus state={saver.state} />
      </div>
      {hint && (
        <p class="setting-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <SaveError state={saver.state} id={`${id}-error`} />
    </form>
  );
}
