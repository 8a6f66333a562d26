import { Elysia } from "elysia";
import type { App } from "../app";
import { ownProfile } from "../actions/profile";
import { zulip } from "../http/plugin";

export const userRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get("/users/me", async ({ args, me }) => args.success(await ownProfile(app, me)), { auth: true });
