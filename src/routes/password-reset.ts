import { Elysia } from "elysia";
import type { App } from "../app";
import { sendPasswordResetFor } from "../actions/password-reset";
import { pathInt } from "../http/params";
import { zulip } from "../http/plugin";

/** Parley's POST /users/{user_id}/password_reset: an administrator emails a member a reset link. */
export const passwordResetRoutes = (app: App) =>
  new Elysia().use(zulip(app)).post(
    "/users/:user_id/password_reset",
    async ({ args, me, params }) => {
      await sendPasswordResetFor(app, me, pathInt(params.user_id, "user_id"));
      return args.success();
    },
    { auth: true },
  );
