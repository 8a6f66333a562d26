/**
 * The selected message of the open view (Zulip's "current message"): where `r`, `e` and `*` act and
 * what `j`/`k` move from. The view selects the message it opens at; a click selects a message; the
 * keyboard moves the selection and asks the list to bring it into view.
 */
import { signal } from "@preact/signals";

export const selected = signal<number | null>(null);

/** Bumped when the keyboard moved the selection: the list scrolls the selected message into view. */
export const scrollToSelected = signal(0);

export function select(id: number | null, scroll = false): void {
  selected.value = id;
  if (scroll) scrollToSelected.value++;
}
