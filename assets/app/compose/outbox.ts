/**
 * Messages sent but not yet back from the server, shown at once in the views they belong to (local
 * echo, as Zulip's web app does). One leaves the outbox when the server's message event for it arrives
 * (it carries the local id) or, failing that, shortly after the server accepted it.
 */
import { signal } from "@preact/signals";
import type { Destination } from "../api/calls";

export interface Pending {
  localId: string;
  to: Destination;
  content: string;
  timestamp: number;
  /** set once the server accepted it */
  id?: number;
}

export const outbox = signal<Pending[]>([]);

let counter = 0;
export const nextLocalId = () => `${Date.now()}.${++counter}`;

export const addPending = (p: Pending) => (outbox.value = [...outbox.value, p]);
export const dropPending = (localId: string) => (outbox.value = outbox.value.filter((p) => p.localId !== localId));
