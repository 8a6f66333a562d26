/**
 * The compose box's state. It lives outside the store on purpose: when the event queue is lost and the
 * app registers again (a new store), what the person was writing and to whom stays as it was.
 */
import { signal } from "@preact/signals";

export type ComposeKind = "stream" | "direct";

export const compose = {
  kind: signal<ComposeKind>("stream"),
  streamId: signal<number | null>(null),
  topic: signal(""),
  /** direct-message recipients, the person themself left out */
  recipients: signal<number[]>([]),
  content: signal(""),
  error: signal<string | null>(null),
  /** bumped to ask the text area to take the focus */
  focusRequest: signal(0),
  /** "preview" shows the message as it will look (POST /messages/render) instead of the text area */
  mode: signal<"write" | "preview">("write"),
  /** the draft this text is saved as (see drafts.ts), once it was saved */
  draftId: signal<string | null>(null),
  /** set while the box holds a scheduled message being edited (id and delivery time) */
  scheduled: signal<{ id: number; at: number } | null>(null),
};

export const focusCompose = () => compose.focusRequest.value++;

/** Where the box's message goes now. */
export type ComposeTarget = { type: "stream"; stream_id: number | null; topic: string } | { type: "direct"; user_ids: number[] };

export function composeTarget(): ComposeTarget {
  return compose.kind.value === "stream"
    ? { type: "stream", stream_id: compose.streamId.value, topic: compose.topic.value }
    : { type: "direct", user_ids: compose.recipients.value };
}

/** Replaces the text, keeping the cursor request to the text area (see ComposeBox). */
export const pendingCursor = signal<number | null>(null);

export function setContent(text: string, cursor?: number): void {
  compose.content.value = text;
  compose.error.value = null;
  if (cursor !== undefined) pendingCursor.value = cursor;
}
