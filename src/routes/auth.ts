import { Elysia, t } from "elysia";
import type { App } from "../app";
import { fetchApiKey, fetchOwnApiKey, serverSettings } from "../actions/auth";
import { regenerateApiKey } from "../actions/users";
import { clientOf } from "../http/client-address";
import { zulip } from "../http/plugin";

const FetchApiKeyArgs = t.Object({ username: t.String(), password: t.String() });
const FetchOwnApiKeyArgs = t.Object({ password: t.String() });

/**
 * POST /fetch_api_key is two routes, as in Zulip: under /api/v1 anyone trades an email and a password
 * for the key; under /json the logged-in person re-enters their password to see their own.
 */
export const authRoutes = (app: App, prefix: string) => {
  const routes = new Elysia()
    .use(zulip(app))
    .get("/server_settings", ({ args }) => args.success(serverSettings(app)), { anonymousLimit: true })
    .post("/users/me/api_key/regenerate", async ({ args, me }) => args.success({ api_key: await regenerateApiKey(app, me) }), { auth: true });
  if (prefix === "/json") {
    return routes.post(
      "/fetch_api_key",
      async ({ args, me, request, server }) => args.success(await fetchOwnApiKey(app, me, args.read(FetchOwnApiKeyArgs).password, clientOf(app, request, server).address)),
      { auth: true },
    );
  }
  return routes.post(
    "/fetch_api_key",
    async ({ args, request, server }) => {
      const p = args.read(FetchApiKeyArgs);
      return args.success(await fetchApiKey(app, p.username, p.password, clientOf(app, request, server).address));
    },
    { anonymousLimit: true },
  );
};
