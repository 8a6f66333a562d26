import { Elysia, t } from "elysia";
import type { App } from "../app";
import { botApiKey, createBot, deactivateBot, listOwnBots, regenerateBotApiKey, updateBot } from "../actions/bots";
import { listBotWebhookRequests } from "../actions/webhooks";
import { pathInt } from "../http/params";
import { zulip } from "../http/plugin";
import { Role } from "./users";

const BotCreateArgs = t.Object({
  full_name: t.String(),
  short_name: t.String(),
  bot_type: t.Integer({ default: 1 }),
  default_sending_stream: t.Optional(t.String()),
  default_events_register_stream: t.Optional(t.String()),
  default_all_public_streams: t.Optional(t.Boolean()),
  payload_url: t.Optional(t.String()),
  interface_type: t.Optional(t.Integer()),
});
const BotUpdateArgs = t.Object({
  service_payload_url: t.Optional(t.String()),
  service_interface: t.Optional(t.Integer()),
  full_name: t.Optional(t.String()),
  role: t.Optional(Role),
  bot_owner_id: t.Optional(t.Integer()),
  default_sending_stream: t.Optional(t.String()),
  default_events_register_stream: t.Optional(t.String()),
  default_all_public_streams: t.Optional(t.Boolean()),
});

/** Zulip's clients send payload_url JSON-encoded ("\"https://…\""); a bare URL is taken as it is. */
function jsonString(raw: string): string {
  try {
    const v = JSON.parse(raw);
    return typeof v === "string" ? v : raw;
  } catch {
    return raw;
  }
}

export const botRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get("/bots", async ({ args, me }) => args.success({ bots: await listOwnBots(app, me) }), { auth: true })
    // Parley's own: what the bot's incoming webhook last received, for the integrations page
    .get("/bots/:bot_id/webhook_requests", async ({ args, me, params }) => args.success({ requests: await listBotWebhookRequests(app, me, pathInt(params.bot_id, "bot_id")) }), { auth: true })
    .post(
      "/bots",
      async ({ args, me }) => {
        const p = args.read(BotCreateArgs);
        const bot = await createBot(app, me, {
          fullName: p.full_name,
          shortName: p.short_name,
          botType: p.bot_type,
          defaultSendingStream: p.default_sending_stream,
          defaultEventsRegisterStream: p.default_events_register_stream,
          defaultAllPublicStreams: p.default_all_public_streams,
          payloadUrl: p.payload_url === undefined ? undefined : jsonString(p.payload_url),
          interfaceType: p.interface_type,
        });
        return args.success(bot);
      },
      { auth: true },
    )
    .patch(
      "/bots/:bot_id",
      async ({ args, me, params }) => {
        const p = args.read(BotUpdateArgs);
        const result = await updateBot(app, me, pathInt(params.bot_id, "bot_id"), {
          fullName: p.full_name,
          role: p.role,
          botOwnerId: p.bot_owner_id,
          servicePayloadUrl: p.service_payload_url === undefined ? undefined : jsonString(p.service_payload_url),
          serviceInterface: p.service_interface,
          defaultSendingStream: p.default_sending_stream,
          defaultEventsRegisterStream: p.default_events_register_stream,
          defaultAllPublicStreams: p.default_all_public_streams,
          avatarFiles: args.files(),
        });
        return args.success(result);
      },
      { auth: true },
    )
    .delete(
      "/bots/:bot_id",
      async ({ args, me, params }) => {
        await deactivateBot(app, me, pathInt(params.bot_id, "bot_id"));
        return args.success();
      },
      { auth: true },
    )
    .get("/bots/:bot_id/api_key", async ({ args, me, params }) => args.success({ api_key: await botApiKey(app, me, pathInt(params.bot_id, "bot_id")) }), { auth: true })
    .post(
      "/bots/:bot_id/api_key/regenerate",
      async ({ args, me, params }) => args.success({ api_key: await regenerateBotApiKey(app, me, pathInt(params.bot_id, "bot_id")) }),
      { auth: true },
    );
