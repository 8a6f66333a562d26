import { Elysia, t } from "elysia";
import type { App } from "../app";
import { createSavedSnippet, editSavedSnippet, removeSavedSnippet, savedSnippetList } from "../actions/saved-snippets";
import { pathInt } from "../http/params";
import { zulip } from "../http/plugin";

const SnippetCreateArgs = t.Object({ title: t.String(), content: t.String() });
const SnippetEditArgs = t.Object({ title: t.Optional(t.String()), content: t.Optional(t.String()) });

export const savedSnippetRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get("/saved_snippets", async ({ args, me }) => args.success({ saved_snippets: await savedSnippetList(app, me) }), { auth: true })
    .post(
      "/saved_snippets",
      async ({ args, me }) => {
        const p = args.read(SnippetCreateArgs);
        return args.success({ saved_snippet_id: await createSavedSnippet(app, me, p.title, p.content) });
      },
      { auth: true },
    )
    .patch(
      "/saved_snippets/:saved_snippet_id",
      async ({ args, me, params }) => {
        const p = args.read(SnippetEditArgs);
        await editSavedSnippet(app, me, pathInt(params.saved_snippet_id, "saved_snippet_id"), p);
        return args.success();
      },
      { auth: true },
    )
    .delete(
      "/saved_snippets/:saved_snippet_id",
      async ({ args, me, params }) => {
        await removeSavedSnippet(app, me, pathInt(params.saved_snippet_id, "saved_snippet_id"));
        return args.success();
      },
      { auth: true },
    );
