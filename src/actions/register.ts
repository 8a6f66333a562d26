import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from "../domain/version";
import { MAX_QUEUE_LIFESPAN_SECS } from "../events/hub";
import type { UserRow } from "../store/users";
import { isGuest, ROLE } from "../domain/roles";
import { realmOf, type App } from "../app";
import { badRequest } from "../errors";
import { STATE_FETCHERS, type StateOptions } from "./state";
import { loadDirectory } from "./messages/directory";
import { checkSpectatorsAllowed } from "./messages/spectator";

export interface RegisterInput extends StateOptions {
  eventTypes: string[] | null;
  fetchEventTypes: string[] | null;
  narrow: [string, string][];
  queueLifespanSecs: number;
  clientName: string;
}

export type QueueInput = Pick<RegisterInput, "eventTypes" | "applyMarkdown" | "clientGravatar" | "slimPresence" | "narrow" | "clientCapabilities" | "queueLifespanSecs" | "clientName"> & {
  /** undefined: the user's default_all_public_streams (a bot setting) */
  allPublicStreams: boolean | undefined;
};

const QUEUE_NARROW_OPERATORS = new Set(["stream", "channel", "topic", "sender", "is"]);

/** A new event queue: POST /register's, or GET /events' when it is called without a queue_id. */
export async function openQueue(app: App, me: UserRow, input: QueueInput) {
  // every public channel's messages: not for guests, who may only see their own channels
  if (input.allPublicStreams && isGuest(me.role)) throw badRequest("User not authorized for this query");
  // Zulip's check_supported_events_narrow_filter: a queue narrow takes only what events can be matched on
  for (const [operator] of input.narrow) if (!QUEUE_NARROW_OPERATORS.has(operator)) throw badRequest(`Operator ${operator} not supported.`);
  // a bot's own defaults when the client does not say (Zulip's _default_all_public_streams, _default_narrow)
  const allPublicStreams = input.allPublicStreams ?? Boolean(me.default_all_public_streams);
  let narrow = input.narrow;
  if (!narrow.length && me.default_events_register_stream_id !== null) {
    const stream = (await loadDirectory(app)).streams.get(me.default_events_register_stream_id);
    if (stream) narrow = [["stream", stream.name]];
  }
  return app.events.register({
    userId: me.id,
    eventTypes: input.eventTypes,
    applyMarkdown: input.applyMarkdown,
    clientGravatar: input.clientGravatar,
    allPublicStreams,
    // a narrowed queue also follows public channels the user is not subscribed to (not a guest's)
    followsPublicChannels: allPublicStreams || (narrow.length > 0 && !isGuest(me.role)),
    narrow,
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
  const queue = await openQueue(app, me, input);
  return { queue_id: queue.id, last_event_id: -1, ...versions(), ...(await initialState(app, me, input)) };
}

/**
 * POST /register without credentials, in an organization with the public-access option (Zulip's
 * fetch_initial_state_data for no user): no queue (`queue_id` null), and the state an anonymous guest
 * with the default settings would get, with everyone in the user list and the web-public channels as
 * its subscriptions. Personal parts come back empty since the guest has no rows.
 */
export async function registerSpectator(app: App, input: RegisterInput & { clientGravatarGiven: boolean }) {
  checkSpectatorsAllowed(app);
  // Zulip refuses what a spectator cannot have rather than quietly giving something else
  if (input.clientGravatarGiven && input.clientGravatar) throw badRequest("Invalid 'client_gravatar' parameter for anonymous request");
  if (input.includeSubscribers) throw badRequest("Invalid 'include_subscribers' parameter for anonymous request");
  const state = await initialState(app, anonymousGuest(app), { ...input, clientGravatar: false, spectator: true });
  return { queue_id: null, last_event_id: -1, ...versions(), ...state };
}

const versions = () => ({ zulip_version: ZULIP_VERSION, zulip_feature_level: ZULIP_FEATURE_LEVEL, zulip_merge_base: ZULIP_MERGE_BASE });

/** The parts of the initial state the client asked for (fetch_event_types, else event_types, else all). */
async function initialState(app: App, me: UserRow, input: RegisterInput) {
  const wanted = input.fetchEventTypes ?? input.eventTypes;
  const state: Record<string, unknown> = {};
  for (const [type, fetch] of Object.entries(STATE_FETCHERS)) {
    if (wanted && !wanted.includes(type)) continue;
    // Zulip: the legacy muted_topics list only for clients that did not ask for user_topic by name
    if (type === "muted_topics" && wanted?.includes("user_topic")) continue;
    Object.assign(state, await fetch(app, me, input));
  }
  return state;
}

/** Zulip's settings_user for a spectator: an unsaved guest (id 0) with the default settings. */
function anonymousGuest(app: App): UserRow {
  const realm = realmOf(app);
  return {
    id: 0,
    realm_id: realm.id,
    email: "username@example.com",
    delivery_email: "username@example.com",
    full_name: "Anonymous User",
    role: ROLE.guest,
    is_active: 1,
    is_bot: 0,
    bot_type: null,
    bot_owner_id: null,
    api_key: "",
    password_hash: null,
    can_create_users: 0,
    date_joined: 0,
    timezone: "",
    avatar_source: "G",
    avatar_version: 1,
    is_imported_stub: 0,
    recipient_id: null,
    settings: JSON.stringify({ default_language: realm.settings.default_language }),
    default_sending_stream_id: null,
    default_events_register_stream_id: null,
    default_all_public_streams: 0,
  };
}
