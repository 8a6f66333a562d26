import { Elysia, t } from "elysia";
import type { App } from "../app";
import { getRealmPresence, getUserPresence, updatePresence } from "../actions/presence";
import { zulip } from "../http/plugin";

const PresenceUpdateArgs = t.Object({
  status: t.String(),
  last_update_id: t.Optional(t.Integer()),
  history_limit_days: t.Optional(t.Integer()),
  new_user_input: t.Boolean({ default: false }),
  ping_only: t.Boolean({ default: false }),
  slim_presence: t.Boolean({ default: false }),
});
const UserPresenceArgs = t.Object({ slim_presence: t.Boolean({ default: false }) });

export const presenceRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .post(
      "/users/me/presence",
      async ({ args, me }) => {
        const p = args.read(PresenceUpdateArgs);
        const result = await updatePresence(app, me, {
          status: p.status,
          lastUpdateId: p.last_update_id,
          historyLimitDays: p.history_limit_days,
          newUserInput: p.new_user_input,
          pingOnly: p.ping_only,
          slim: p.slim_presence,
        });
        return args.success(result);
      },
      { auth: true },
    )
    .get("/realm/presence", async ({ args, me }) => args.success(await getRealmPresence(app, me)), { auth: true })
    .get(
      "/users/:user_id/presence",
      async ({ args, me, params }) => {
        const p = args.read(UserPresenceArgs);
        return args.success(await getUserPresence(app, me, params.user_id, p.slim_presence));
      },
      { auth: true },
    );
