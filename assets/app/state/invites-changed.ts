/**
 * Invitations changed on the server (`invites_changed`, sent to administrators and to the person whose
 * link it was): an open list of links fetches itself again. Not part of the state: the list is fetched
 * when shown, not at /register.
 */
import { signal } from "@preact/signals";
import type { ServerEvent } from "./apply-event";

/** Counts the changes heard: a list reads it to know when to fetch again. */
export const invitesChanged = signal(0);

export function noteInviteEvents(events: readonly ServerEvent[]): void {
  if (events.some((e) => e.type === "invites_changed")) invitesChanged.value++;
}
