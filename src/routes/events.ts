import { Elysia, t, type Static } from "elysia";
import type { App } from "../app";
import { openQueue, registerQueue, registerSpectator } from "../actions/register";
import { zulip } from "../http/plugin";
import { badRequest } from "../errors";
import { clientName } from "../http/client";
import { eventsAnswer } from "../events/wire";
import { EVENTS_ANSWER_HEADERS, ignoredBesidePoll, pollArgs, pollQueue } from "./events-poll";

const EventTypes = t.Array(t.String(), { maxItems: 1000 });
/** A queue's narrow: [operator, operand] pairs. */
const QueueNarrow = t.Array(t.Array(t.String(), { minItems: 2, maxItems: 2 }), { maxItems: 100, default: [] });

const RegisterArgs = t.Object({
  apply_markdown: t.Boolean({ default: false }),
  // default: true, and false for spectators (who may not ask for it)
  client_gravatar: t.Optional(t.Boolean()),
  slim_presence: t.Boolean({ default: false }),
  all_public_streams: t.Optional(t.Boolean()),
  include_subscribers: t.Boolean({ default: false }),
  client_capabilities: t.Record(t.String(), t.Boolean(), { default: {} }),
  event_types: t.Union([EventTypes, t.Null()], { default: null }),
  fetch_event_types: t.Union([EventTypes, t.Null()], { default: null }),
  narrow: QueueNarrow,
  queue_lifespan_secs: t.Integer({ minimum: 0, default: 0 }),
  presence_history_limit_days: t.Optional(t.Integer({ minimum: 1 })),
});

/** Client capabilities GET /events takes as parameters of their own when it opens a queue. */
const QUEUE_CAPABILITIES = [
  "bulk_message_deletion",
  "stream_typing_notifications",
  "user_settings_object",
  "linkifier_url_template",
  "user_list_incomplete",
  "include_deactivated_groups",
  "archived_channels",
  "empty_topic_name",
] as const;

const GetEventsArgs = t.Object({
  queue_id: t.Optional(t.String()),
  last_event_id: t.Optional(t.Integer()),
  dont_block: t.Boolean({ default: false }),
});

/**
 * Without a queue_id (and with dont_block) GET /events opens a queue from these, as Zulip does. Read
 * only then: a held long-poll keeps what its handler read alive, and 10,000 of them add up.
 */
const OpenQueueArgs = t.Object({
  event_types: t.Union([EventTypes, t.Null()], { default: null }),
  narrow: QueueNarrow,
  all_public_streams: t.Optional(t.Boolean()),
  apply_markdown: t.Boolean({ default: false }),
  client_gravatar: t.Boolean({ default: false }),
  slim_presence: t.Boolean({ default: false }),
  lifespan_secs: t.Integer({ minimum: 0, default: 0 }),
  ...Object.fromEntries(QUEUE_CAPABILITIES.map((c) => [c, t.Boolean({ default: false })])),
});
const isEmpty = (o: object) => {
  for (const _ in o) return false;
  return true;
};

const DeleteQueueArgs = t.Object({ queue_id: t.String() });

export const eventRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .post(
      "/register",
      async ({ args, me, request }) => {
        const p = args.read(RegisterArgs);
        const input = {
          applyMarkdown: p.apply_markdown,
          clientGravatar: p.client_gravatar ?? true,
          slimPresence: p.slim_presence,
          presenceHistoryLimitDays: p.presence_history_limit_days,
          allPublicStreams: p.all_public_streams,
          includeSubscribers: p.include_subscribers,
          clientCapabilities: p.client_capabilities,
          eventTypes: p.event_types,
          fetchEventTypes: p.fetch_event_types,
          narrow: p.narrow.map((n) => [n[0] ?? "", n[1] ?? ""] as [string, string]),
          queueLifespanSecs: p.queue_lifespan_secs,
          clientName: clientName(args, request),
        };
        // without credentials: a spectator's state, in an organization with the public-access option
        if (!me) return args.success(await registerSpectator(app, { ...input, clientGravatarGiven: p.client_gravatar !== undefined }));
        return args.success(await registerQueue(app, me, input));
      },
      { optionalAuth: true },
    )
    .get(
      "/events",
      async ({ args, me, request, server, set }) => {
        const quick = pollArgs(args.raw);
        const p = quick ?? args.read(GetEventsArgs);
        if (p.queue_id === undefined) {
          if (!p.dont_block) throw badRequest("Missing 'queue_id' argument");
          const o = args.read(OpenQueueArgs) as Static<typeof OpenQueueArgs> & Record<(typeof QUEUE_CAPABILITIES)[number], boolean>;
          const queue = await openQueue(app, me, {
            eventTypes: o.event_types,
            applyMarkdown: o.apply_markdown,
            clientGravatar: o.client_gravatar,
            slimPresence: o.slim_presence,
            allPublicStreams: o.all_public_streams,
            narrow: o.narrow.map((n) => [n[0] ?? "", n[1] ?? ""] as [string, string]),
            clientCapabilities: Object.fromEntries(QUEUE_CAPABILITIES.map((c) => [c, o[c]])),
            queueLifespanSecs: o.lifespan_secs,
            clientName: clientName(args, request),
          });
          return args.success({ events: [], queue_id: queue.id });
        }
        if (p.last_event_id === undefined) throw badRequest("Missing 'last_event_id' argument");
        const { queue, batch } = await pollQueue(app, me.id, { queue_id: p.queue_id, last_event_id: p.last_event_id, dont_block: p.dont_block }, request, server ?? undefined);
        // the events' JSON is shared by every queue that got them (events/wire.ts): written as is;
        // its headers are made once, unless a rate limit added its own
        if (isEmpty(set.headers)) set.headers = EVENTS_ANSWER_HEADERS as unknown as typeof set.headers;
        else set.headers["content-type"] = "application/json";
        return eventsAnswer(batch, queue.id, quick ? ignoredBesidePoll(args.raw) : args.ignored());
      },
      { auth: true },
    )
    .delete(
      "/events",
      ({ args, me }) => {
        const p = args.read(DeleteQueueArgs);
        app.events.delete(p.queue_id, me.id);
        return args.success();
      },
      { auth: true },
    );
