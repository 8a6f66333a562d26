import { Elysia, t } from "elysia";
import type { App } from "../app";
import { addPlayground, removePlayground } from "../actions/playgrounds";
import { pathInt } from "../http/params";
import { zulip } from "../http/plugin";

const PlaygroundCreateArgs = t.Object({ name: t.String(), pygments_language: t.String(), url_template: t.String() });

export const playgroundRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .post(
      "/realm/playgrounds",
      async ({ args, me }) => {
        const p = args.read(PlaygroundCreateArgs);
        const id = await addPlayground(app, me, { name: p.name, pygmentsLanguage: p.pygments_language, urlTemplate: p.url_template });
        return args.success({ id });
      },
      { auth: true },
    )
    .delete(
      "/realm/playgrounds/:playground_id",
      async ({ args, me, params }) => {
        await removePlayground(app, me, pathInt(params.playground_id, "playground_id"));
        return args.success();
      },
      { auth: true },
    );
