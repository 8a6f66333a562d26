import { signal } from "@preact/signals";

/** Which message is being edited in place (one at a time, as in Zulip), and with what focus. */
export const editing = signal<{ id: number; focus: "content" | "topic" } | null>(null);

export const startEditing = (id: number, focus: "content" | "topic" = "content") => (editing.value = { id, focus });
export const stopEditing = () => (editing.value = null);
