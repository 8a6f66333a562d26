import { Elysia } from "elysia";
import type { App } from "../app";
import { muteUser, unmuteUser } from "../actions/muted-users";
import { pathInt } from "../http/params";
import { zulip } from "../http/plugin";

export const mutedUserRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .post(
      "/users/me/muted_users/:muted_user_id",
      async ({ args, me, params }) => {
        await muteUser(app, me, pathInt(params.muted_user_id, "muted_user_id"));
        return args.success();
      },
      { auth: true },
    )
    .delete(
      "/users/me/muted_users/:muted_user_id",
      async ({ args, me, params }) => {
        await unmuteUser(app, me, pathInt(params.muted_user_id, "muted_user_id"));
        return args.success();
      },
      { auth: true },
    );
