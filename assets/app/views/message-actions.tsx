/**
 * What a person can do to a message, from its menu, its hover buttons and the keyboard: reply, quote,
 * edit, move, resolve, star, copy a link, see its history, delete. Each is offered only when the
 * organization's settings allow it (state/permissions.ts); the server's refusal is shown when it
 * differs. Results come back as events (update_message, delete_message, update_message_flags).
 */
import { createContext } from "preact";
import { deleteMessage, editMessage, latestInTopic, setFlag } from "../api/calls";
import { describeError } from "../api/http";
import { messageUrl } from "../nav/hash";
import { followMovedTopic, navigate, view } from "../nav/router";
import { copyText } from "../lib/clipboard";
import { RESOLVED_PREFIX, type Narrow } from "../state/narrow";
import { canDelete, canEditContent, canEditTopic, canMoveChannel, canMoveOut, canMoveWithin, canResolve, canViewHistory } from "../state/permissions";
import { state } from "../state/store";
import type { Message } from "../state/types";
import { quoteAndReply, replyTo } from "../compose/reply";
import { ConfirmDialog, openDialog, openLazyDialog } from "./Dialog";
import { startEditing } from "./editing";
import { CheckIcon, EditIcon, HistoryIcon, LinkIcon, MoveIcon, QuoteIcon, ReplyIcon, StarIcon, TrashIcon, UnreadIcon } from "./icons";
import { AddReactionIcon } from "./icons-writing";
import { openReactionPicker } from "./Reactions";
import type { MenuItem } from "./Menu";
import { showNotice } from "./Notice";

export interface ViewActions {
  narrow: Narrow;
  /** marks this message and every later one in the view unread, and stops marking them read as they show */
  markUnreadFrom(messageId: number): void;
}

export const ViewContext = createContext<ViewActions | null>(null);

const nowSecs = () => Date.now() / 1000;
const failed = (what: string) => (e: unknown) => showNotice(`Could not ${what}: ${describeError(e)}`);

export const isStarred = (m: Message) => m.flags.includes("starred");

export function toggleStar(m: Message): void {
  const on = !isStarred(m);
  setFlag([m.id], "starred", on).catch(failed(on ? "star the message" : "unstar the message"));
}

export function copyLink(m: Message): void {
  copyText(messageUrl(state.value!, m, location.origin)).then(() => showNotice("Copied a link to the message."), failed("copy the link"));
}

export function confirmDelete(m: Message): void {
  openDialog(() => (
    <ConfirmDialog title="Delete message?" confirmLabel="Delete" danger onConfirm={() => deleteMessage(m.id)}>
      <p>Deleting a message removes it for everyone. It cannot be undone.</p>
    </ConfirmDialog>
  ));
}

/** `✔ lunch` for `lunch` and back (Zulip's resolved topics). */
export const toggledResolution = (topic: string) => (topic.startsWith(RESOLVED_PREFIX) ? topic.slice(RESOLVED_PREFIX.length).replace(/^\s+/, "") : RESOLVED_PREFIX + topic);

/** Marks a topic resolved or unresolved: all its messages move to the other name, with a notice there (as Zulip does). */
export async function toggleResolved(streamId: number, topic: string, messageId?: number): Promise<void> {
  const resolving = !topic.startsWith(RESOLVED_PREFIX);
  try {
    const id = messageId ?? (await latestInTopic(streamId, topic));
    if (id === null) throw new Error("the topic has no messages");
    await editMessage(id, { topic: toggledResolution(topic), propagate_mode: "change_all", send_notification_to_old_thread: false, send_notification_to_new_thread: true });
    followMovedTopic({ stream_id: streamId, topic }, { stream_id: streamId, topic: toggledResolution(topic) });
  } catch (e) {
    failed(resolving ? "mark the topic as resolved" : "mark the topic as unresolved")(e);
  }
}

/** The dialog that moves messages (or a whole topic) to another topic or channel. */
export function openMove(target: { streamId: number; topic: string; message?: Message }): void {
  openLazyDialog(() => import("./MoveDialog").then((mod) => () => <mod.MoveDialog {...target} />));
}

export function openHistory(m: Message): void {
  openLazyDialog(() => import("./EditHistory").then((mod) => () => <mod.EditHistory message={m} />));
}

/** `e`: edit the message in place when the person may; otherwise say why not. */
export function editSelected(m: Message): void {
  const s = state.value!;
  if (canEditContent(s, m, nowSecs()) || canEditTopic(s, m, nowSecs())) startEditing(m.id);
  else showNotice(m.sender_id === s.me ? "This message can no longer be edited." : "You can edit only your own messages.");
}

export function messageActions(m: Message, view: ViewActions): MenuItem[] {
  const s = state.value!;
  const now = nowSecs();
  const items: MenuItem[] = [
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
    { label: "Reply", icon: <ReplyIcon size={16} />, onSelect: () => replyTo(m) },
    { label: "Quote and reply", icon: <QuoteIcon size={16} />, onSelect: () => void quoteAndReply(m) },
  ];
  if (canEditContent(s, m, now)) items.push({ label: "Edit message", icon: <EditIcon size={16} />, onSelect: () => startEditing(m.id) });
  if (m.type === "stream" && (canEditTopic(s, m, now) || canMoveChannel(s, m, now))) {
    items.push({ label: "Move messages", icon: <MoveIcon size={16} />, onSelect: () => openMove({ streamId: m.stream_id!, topic: m.subject, message: m }) });
  }
  if (m.type === "stream" && canResolve(s, m.stream_id!) && m.subject !== "") {
    const resolved = m.subject.startsWith(RESOLVED_PREFIX);
    items.push({ label: resolved ? "Mark topic as unresolved" : "Mark topic as resolved", icon: <CheckIcon size={16} />, onSelect: () => void toggleResolved(m.stream_id!, m.subject, m.id) });
  }
  items.push({ label: isStarred(m) ? "Unstar message" : "Star message", icon: <StarIcon size={16} />, onSelect: () => toggleStar(m) });
  items.push({ label: "Mark as unread from here", icon: <UnreadIcon size={16} />, onSelect: () => view.markUnreadFrom(m.id) });
  if (canViewHistory(s, m)) items.push({ label: "View edit history", icon: <HistoryIcon size={16} />, onSelect: () => openHistory(m) });
  items.push({ label: "Copy link to message", icon: <LinkIcon size={16} />, onSelect: () => copyLink(m) });
  if (canDelete(s, m, now)) items.push({ label: "Delete message", icon: <TrashIcon size={16} />, danger: true, onSelect: () => confirmDelete(m) });
  return items;
}

/** The topic's own entries for its menu: move or rename it, resolve it, where the person may. */
export function topicActions(streamId: number, topic: string): MenuItem[] {
  const s = state.value!;
  const items: MenuItem[] = [];
  if (canMoveWithin(s, streamId) || canMoveOut(s, streamId)) {
    items.push({ label: canMoveOut(s, streamId) ? "Move topic" : "Rename topic", icon: <MoveIcon size={16} />, onSelect: () => openMove({ streamId, topic }) });
  }
  if (canResolve(s, streamId) && topic !== "") {
    const resolved = topic.startsWith(RESOLVED_PREFIX);
    items.push({ label: resolved ? "Mark as unresolved" : "Mark as resolved", icon: <CheckIcon size={16} />, onSelect: () => void toggleResolved(streamId, topic) });
  }
  return items;
}
