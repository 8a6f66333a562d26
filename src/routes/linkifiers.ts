import { Elysia, t } from "elysia";
import type { App } from "../app";
import { addLinkifier, editLinkifier, linkifierList, removeLinkifier, reorderLinkifiers } from "../actions/linkifiers";
import { MAX_LIST_ITEMS, pathInt } from "../http/params";
import { zulip } from "../http/plugin";

const Linkifier = t.Object({ pattern: t.String(), url_template: t.String() });

const LinkifierReorderArgs = t.Object({ ordered_linkifier_ids: t.Array(t.Integer(), { maxItems: MAX_LIST_ITEMS }) });

export const linkifierRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get("/realm/linkifiers", async ({ args }) => args.success({ linkifiers: await linkifierList(app) }), { auth: true })
    .patch(
      "/realm/linkifiers",
      async ({ args, me }) => {
        const p = args.read(LinkifierReorderArgs);
        await reorderLinkifiers(app, me, p.ordered_linkifier_ids);
        return args.success();
      },
      { auth: true },
    )
    .post(
      "/realm/filters",
      async ({ args, me }) => {
        const p = args.read(Linkifier);
        return args.success({ id: await addLinkifier(app, me, { pattern: p.pattern, urlTemplate: p.url_template }) });
      },
      { auth: true },
    )
    .patch(
      "/realm/filters/:filter_id",
      async ({ args, me, params }) => {
        const p = args.read(Linkifier);
        await editLinkifier(app, me, pathInt(params.filter_id, "filter_id"), { pattern: p.pattern, urlTemplate: p.url_template });
        return args.success();
      },
      { auth: true },
    )
    .delete(
      "/realm/filters/:filter_id",
      async ({ args, me, params }) => {
        await removeLinkifier(app, me, pathInt(params.filter_id, "filter_id"));
        return args.success();
      },
      { auth: true },
    );
