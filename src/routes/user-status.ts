import { Elysia, t } from "elysia";
import type { App } from "../app";
import { getUserStatus, updateStatus } from "../actions/user-status";
import { pathInt } from "../http/params";
import { zulip } from "../http/plugin";

const StatusUpdateArgs = t.Object({
  status_text: t.Optional(t.String()),
  away: t.Optional(t.Boolean()),
  emoji_name: t.Optional(t.String()),
  emoji_code: t.Optional(t.String()),
  reaction_type: t.Optional(t.String()),
});

export const userStatusRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .post(
      "/users/me/status",
      async ({ args, me }) => {
        const p = args.read(StatusUpdateArgs);
        await updateStatus(app, me, { statusText: p.status_text, away: p.away, emojiName: p.emoji_name, emojiCode: p.emoji_code, reactionType: p.reaction_type });
        return args.success();
      },
      { auth: true },
    )
    .get(
      "/users/:user_id/status",
      async ({ args, me, params }) => args.success({ status: await getUserStatus(app, me, pathInt(params.user_id, "user_id")) }),
      { auth: true },
    );
