/**
 * The actions offered on a message, in its menu. A feature that acts on messages (reactions, editing,
 * starring, quoting, links…) adds its entries in messageActions; the menu shows what applies.
 */
import { createContext } from "preact";
import type { Message } from "../state/types";
import type { Narrow } from "../state/narrow";
import { UnreadIcon } from "./icons";
import type { MenuItem } from "./Menu";

export interface ViewActions {
  narrow: Narrow;
  /** marks this message and every later one in the view unread, and stops marking them read as they show */
  markUnreadFrom(messageId: number): void;
}

export const ViewContext = createContext<ViewActions | null>(null);

export function messageActions(m: Message, view: ViewActions): MenuItem[] {
  return [{ label: "Mark as unread from here", icon: <UnreadIcon size={16} />, onSelect: () => view.markUnreadFrom(m.id) }];
}
