/** A widget's title line (a poll's question, a to-do list's title): shown, and changed in place by its author. */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { PencilIcon } from "../icons-writing";
import { focusOnMount } from "./widget-bits";

export function WidgetTitle(props: {
  value: string;
  /** what the line shows (the value, or a hint when it is empty) */
  children: ComponentChildren;
  canEdit: boolean;
  /** the field's label while editing, and the pencil button's */
  fieldLabel: string;
  editLabel: string;
  onSave(text: string): void;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const save = (e: Event) => {
    e.preventDefault();
    const text = editing?.trim();
    if (text && text !== props.value) props.onSave(text);
    setEditing(null);
  };
  if (editing !== null) {
    return (
      <form key="title-form" class="widget-title-form" onSubmit={save} onKeyDown={(e) => e.key === "Escape" && (e.stopPropagation(), setEditing(null))}>
        <input class="widget-input" aria-label={props.fieldLabel} value={editing} onInput={(e) => setEditing(e.currentTarget.value)} ref={focusOnMount} />
        <button type="submit" class="button subtle" disabled={!editing.trim()}>
          Save
        </button>
        <button type="button" class="button subtle" onClick={() => setEditing(null)}>
          Cancel
        </button>
      </form>
    );
  }
  return (
    <div key="title" class="widget-title">
      {props.children}
      {props.canEdit && (
        <button type="button" class="icon-button small" aria-label={props.editLabel} title={props.editLabel} onClick={() => setEditing(props.value)}>
          <PencilIcon size={15} />
        </button>
      )}
    </div>
  );
}
