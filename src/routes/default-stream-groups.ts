import { Elysia, t } from "elysia";
import type { App } from "../app";
import { createDefaultStreamGroup, removeDefaultStreamGroup, updateDefaultStreamGroupInfo, updateDefaultStreamGroupStreams } from "../actions/default-stream-groups";
import { MAX_LIST_ITEMS, pathInt } from "../http/params";
import { zulip } from "../http/plugin";

const Names = t.Array(t.String(), { maxItems: MAX_LIST_ITEMS });
const CreateArgs = t.Object({ group_name: t.String(), description: t.String(), stream_names: Names });
const InfoArgs = t.Object({ new_group_name: t.Optional(t.String()), new_description: t.Optional(t.String()) });
const StreamsArgs = t.Object({ op: t.String(), stream_names: Names });

/** Zulip's default channel group endpoints (experimental in Zulip, undocumented in its OpenAPI). */
export const defaultStreamGroupRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .post(
      "/default_stream_groups/create",
      async ({ args, me }) => {
        const p = args.read(CreateArgs);
        await createDefaultStreamGroup(app, me, { name: p.group_name, description: p.description, streamNames: p.stream_names });
        return args.success();
      },
      { auth: true },
    )
    .patch(
      "/default_stream_groups/:group_id",
      async ({ args, me, params }) => {
        const p = args.read(InfoArgs);
        await updateDefaultStreamGroupInfo(app, me, pathInt(params.group_id, "group_id"), { name: p.new_group_name, description: p.new_description });
        return args.success();
      },
      { auth: true },
    )
    .patch(
      "/default_stream_groups/:group_id/streams",
      async ({ args, me, params }) => {
        const p = args.read(StreamsArgs);
        await updateDefaultStreamGroupStreams(app, me, pathInt(params.group_id, "group_id"), p.op, p.stream_names);
        return args.success();
      },
      { auth: true },
    )
    .delete(
      "/default_stream_groups/:group_id",
      async ({ args, me, params }) => {
        await removeDefaultStreamGroup(app, me, pathInt(params.group_id, "group_id"));
        return args.success();
      },
      { auth: true },
    );
