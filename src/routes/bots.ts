import { Elysia, t } from "elysia";
import type { App } from "../app";
import { botApiKey, createBot, deactivateBot, listOwnBots, regenerateBotApiKey, updateBot } from "../actions/bots";
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
});
const BotUpdateArgs = t.Object({
  full_name: t.Optional(t.String()),
  role: t.Optional(Role),
  bot_owner_id: t.Optional(t.Integer()),
  default_sending_stream: t.Optional(t.String()),
  default_events_register_stream: t.Optional(t.String()),
  default_all_public_streams: t.Optional(t.Boolean()),
});

export const botRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get("/bots", async ({ args, me }) => args.success({ bots: await listOwnBots(app, me) }), { auth: true })
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
