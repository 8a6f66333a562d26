import { Elysia, t } from "elysia";
import type { App } from "../app";
import { makeDefaultStream, unmakeDefaultStream } from "../actions/default-streams";
import { zulip } from "../http/plugin";

const DefaultStreamArgs = t.Object({ stream_id: t.Integer() });

export const defaultStreamRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .post(
      "/default_streams",
      async ({ args, me }) => {
        const p = args.read(DefaultStreamArgs);
        await makeDefaultStream(app, me, p.stream_id);
        return args.success();
      },
      { auth: true },
    )
    .delete(
      "/default_streams",
      async ({ args, me }) => {
        const p = args.read(DefaultStreamArgs);
        await unmakeDefaultStream(app, me, p.stream_id);
        return args.success();
      },
      { auth: true },
    );
