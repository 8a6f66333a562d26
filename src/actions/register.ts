import type { App } from "../app";
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from "../domain/version";
import { MAX_QUEUE_LIFESPAN_SECS } from "../events/hub";
import type { UserRow } from "../store/users";
import { isGuest } from "../domain/roles";
import { badRequest } from "../errors";
import { STATE_FETCHERS, type StateOptions } from "./state";

export interface RegisterInput extends StateOptions {
  eventTypes: string[] | null;
  fetchEventTypes: string[] | null;
  narrow: [string, string][];
  queueLifespanSecs: number;
  clientName: string;
}

export type QueueInput = Pick<RegisterInput, "eventTypes" | "applyMarkdown" | "clientGravatar" | "slimPresence" | "allPublicStreams" | "narrow" | "clientCapabilities" | "queueLifespanSecs" | "clientName">;

/** A new event queue: POST /register's, or GET /events' when it is called without a queue_id. */
export function openQueue(app: App, me: UserRow, input: QueueInput) {
  // every public channel's messages: not for guests, who may only see their own channels
  if (input.allPublicStreams && isGuest(me.role)) throw badRequest("User not authorized for this query");
  return app.events.register({
    userId: me.id,
    eventTypes: input.eventTypes,
    applyMarkdown: input.applyMarkdown,
    clientGravatar: input.clientGravatar,
    allPublicStreams: input.allPublicStreams,
    narrow: input.narrow,
    capabilities: input.clientCapabilities,
    slimPresence: input.slimPresence,
    lifespanSecs: Math.min(input.queueLifespanSecs, MAX_QUEUE_LIFESPAN_SECS),
    clientName: input.clientName,
  });
}

/**
 * POST /register: the queue is created first, then the initial state is read, so an event that
 * happens in between is in the queue rather than lost (the client applies it on top).
 */
export async function registerQueue(app: App, me: UserRow, input: RegisterInput) {
  const queue = openQueue(app, me, input);
  const wanted = input.fetchEventTypes ?? input.eventTypes;
  const state: Record<string, unknown> = {};
  for (const [type, fetch] of Object.entries(STATE_FETCHERS)) {
    if (wanted && !wanted.includes(type)) continue;
    // Zulip: the legacy muted_topics list only for clients that did not ask for user_topic by name
    if (type === "muted_topics" && wanted?.includes("user_topic")) continue;
    Object.assign(state, await fetch(app, me, input));
  }
  return {
    queue_id: queue.id,
    last_event_id: -1,
    zulip_version: ZULIP_VERSION,
    zulip_feature_level: ZULIP_FEATURE_LEVEL,
    zulip_merge_base: ZULIP_MERGE_BASE,
    ...state,
  };
}
