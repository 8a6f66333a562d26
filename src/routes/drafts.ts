import { Elysia, t } from "elysia";
import type { App } from "../app";
import { createDrafts, editDraft, getDrafts, removeDraft } from "../actions/drafts";
import { pathInt } from "../http/params";
import { zulip } from "../http/plugin";

const Draft = t.Object(
  {
    type: t.Union([t.Literal(""), t.Literal("stream"), t.Literal("private")]),
    to: t.Array(t.Integer(), { maxItems: 1000 }),
    topic: t.String(),
    content: t.String({ minLength: 1 }),
    timestamp: t.Optional(t.Union([t.Number(), t.Null()])),
  },
  { additionalProperties: false },
);

const DraftsCreateArgs = t.Object({ drafts: t.Array(Draft, { maxItems: 1000 }) });
const DraftEditArgs = t.Object({ draft: Draft });

export const draftRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get(
      "/drafts",
      async ({ args, me }) => {
        const drafts = await getDrafts(app, me);
        return args.success({ count: drafts.length, drafts });
      },
      { auth: true },
    )
    .post(
      "/drafts",
      async ({ args, me }) => {
        const p = args.read(DraftsCreateArgs);
        return args.success({ ids: await createDrafts(app, me, p.drafts) });
      },
      { auth: true },
    )
    .patch(
      "/drafts/:draft_id",
      async ({ args, me, params }) => {
        const p = args.read(DraftEditArgs);
        await editDraft(app, me, pathInt(params.draft_id, "draft_id"), p.draft);
        return args.success();
      },
      { auth: true },
    )
    .delete(
      "/drafts/:draft_id",
      async ({ args, me, params }) => {
        await removeDraft(app, me, pathInt(params.draft_id, "draft_id"));
        return args.success();
      },
      { auth: true },
    );
