import { Elysia, t } from "elysia";
import type { App } from "../app";
import { fetchApiKey, serverSettings } from "../actions/auth";
import { regenerateApiKey } from "../actions/users";
import { clientOf } from "../http/client-address";
import { zulip } from "../http/plugin";

const FetchApiKeyArgs = t.Object({ username: t.String(), password: t.String() });

export const authRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .post("/fetch_api_key", async ({ args, request, server }) => {
      const p = args.read(FetchApiKeyArgs);
      return args.success(await fetchApiKey(app, p.username, p.password, clientOf(app, request, server).address));
    }, { anonymousLimit: true })
    .get("/server_settings", ({ args }) => args.success(serverSettings(app)), { anonymousLimit: true })
    .post("/users/me/api_key/regenerate", async ({ args, me }) => args.success({ api_key: await regenerateApiKey(app, me) }), { auth: true });
