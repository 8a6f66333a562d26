/**
 * The actions offered on a message, in its menu. A feature that acts on messages (reactions, editing,
 * starring, quoting, links…) adds its entries in messageActions; the menu shows what applies.
 */
import { createContext } from "preact";
import type { Message } from "../state/types";
import type { Narrow } from "../state/narrow";
import { UnreadIcon } from "./icons";
import { AddReactionIcon } from "./icons-writing";
import { openReactionPicker } from "./Reactions";
import type { MenuItem } from "./Menu";

export interface ViewActions {
  narrow: Narrow;
  /** marks this message and every later one in the view unread, and stops marking them read as they show */
  markUnreadFrom(messageId: number): void;
}

export const ViewContext = createContext<ViewActions | null>(null);

export function messageActions(m: Message, view: ViewActions): MenuItem[] {
  return [
    {
      label: "Add emoji reaction",
      icon: <AddReactionIcon size={16} />,
      // the picker opens beside the message's reaction button, or its menu button where that one is hidden (a phone)
      onSelect: () => {
        const controls = document.querySelector<HTMLElement>(`[data-message-id="${m.id}"] .message-controls`);
        const button = controls?.querySelector<HTMLElement>(".add-reaction");
        const anchor = button?.offsetParent ? button : controls?.querySelector<HTMLElement>("[aria-haspopup=menu]");
        if (anchor) openReactionPicker(m, anchor);
      },
    },
    { label: "Mark as unread from here", icon: <UnreadIcon size={16} />, onSelect: () => view.markUnreadFrom(m.id) },
  ];
}
