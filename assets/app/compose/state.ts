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
};

export const focusCompose = () => compose.focusRequest.value++;
