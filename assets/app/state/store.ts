/**
 * The one store: the state in a signal. Events and fetch results replace it with the reducer's next
 * state; the computed slices below change identity only when their part changed, so a view that reads
 * `subscriptions.value` re-renders for subscription changes only.
 */
import { computed, signal } from "@preact/signals";
import { applyEvents, type ServerEvent } from "./apply-event";
import type { State } from "./types";
import { unreadCounts } from "./unread";
import { EMPTY_ORG } from "./org";

export const state = signal<State | null>(null);

const the = () => state.value!;

export function dispatch(events: readonly ServerEvent[]): void {
  if (events.length) state.value = applyEvents(the(), events);
}

/** Applies a pure change (a fetch result, see fetched.ts). */
export function update(change: (s: State) => State): void {
  state.value = change(the());
}

export const me = computed(() => the().me);
export const realm = computed(() => the().realm);
export const users = computed(() => the().users);
export const channels = computed(() => the().channels);
export const subscribers = computed(() => the().subscribers);
export const subscriptions = computed(() => the().subscriptions);
export const unread = computed(() => the().unread);
export const starred = computed(() => the().starred);
export const recentDms = computed(() => the().recent_dms);
export const userTopics = computed(() => the().user_topics);
export const presence = computed(() => the().presence);
export const userStatus = computed(() => the().user_status);
export const settings = computed(() => the().settings);
export const groups = computed(() => the().groups);
export const messages = computed(() => the().messages);
export const lists = computed(() => the().lists);
export const topics = computed(() => the().topics);
export const topicsOutdated = computed(() => the().topics_outdated);
export const mutedUsers = computed(() => the().muted_users);
export const realmEmoji = computed(() => the().realm_emoji);
export const serverDrafts = computed(() => the().drafts);
export const scheduled = computed(() => the().scheduled);
export const org = computed(() => the().org ?? EMPTY_ORG);

/** recounted only when unread messages, subscriptions or topic settings change */
export const counts = computed(() => unreadCounts({ unread: unread.value, subscriptions: subscriptions.value, user_topics: userTopics.value }));
