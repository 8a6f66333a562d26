/**
 * Whether a message row is in use: under the pointer, or holding the focus (its menu open, the emoji
 * picker opened from its reaction button). A row draws its hover actions only while in use (or selected,
 * or starred: MessageRow): fifty rows of hidden buttons and icons were a fifth of the elements the first
 * paint laid out, while a person sees them on one row at a time. A touch screen (no hover) shows them on
 * every row (messages.css), so there every row draws them. A recipient bar draws its topic menu the same way.
 */
import { useState } from "preact/hooks";
import { pickerRequest } from "./emoji-picker-host";

const noHover = typeof matchMedia === "function" && matchMedia("(hover: none)").matches;

export function useRowActivity() {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  return {
    hovered: noHover || hovered,
    active: noHover || hovered || focused,
    handlers: {
      onPointerEnter: () => setHovered(true),
      onPointerLeave: () => setHovered(false),
      onFocusIn: () => setFocused(true),
      onFocusOut: (e: FocusEvent) => {
        const row = e.currentTarget as HTMLElement;
        const to = e.relatedTarget as Node | null;
        if (to && row.contains(to)) return;
        // the picker took the focus from this row's reaction button: the button stays, for the focus to come back to
        const anchor = pickerRequest.peek()?.anchor;
        if (anchor && row.contains(anchor)) return;
        setFocused(false);
      },
    },
  };
}
