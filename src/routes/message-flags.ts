import { Elysia, t } from "elysia";
import type { App } from "../app";
import { markAllAsRead, markStreamAsRead, markTopicAsRead, updateMessageFlags, updateMessageFlagsForNarrow } from "../actions/messages/flags";
import { MAX_NARROW_TERMS, parseNarrow } from "../domain/narrow";
import { MAX_LIST_ITEMS } from "../http/params";
import { zulip } from "../http/plugin";

const FlagsUpdateArgs = t.Object({ messages: t.Array(t.Integer(), { maxItems: MAX_LIST_ITEMS }), op: t.String(), flag: t.String() });
const FlagsNarrowUpdateArgs = t.Object({
  anchor: t.String(),
  num_before: t.Integer({ minimum: 0 }),
  num_after: t.Integer({ minimum: 0 }),
  include_anchor: t.Boolean({ default: true }),
  narrow: t.Array(t.Unknown(), { maxItems: MAX_NARROW_TERMS }),
  op: t.String(),
  flag: t.String(),
});
const MarkStreamAsReadArgs = t.Object({ stream_id: t.Integer() });
const MarkTopicAsReadArgs = t.Object({ stream_id: t.Integer(), topic_name: t.String() });

/** Personal message flags: by ids, over a narrow, and the legacy mark-as-read endpoints. */
export const messageFlagRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .post(
      "/messages/flags",
      async ({ args, me }) => {
        const p = args.read(FlagsUpdateArgs);
        return args.success(await updateMessageFlags(app, me, p.messages, p.op, p.flag));
      },
      { auth: true },
    )
    .post(
      "/messages/flags/narrow",
      async ({ args, me }) => {
        const p = args.read(FlagsNarrowUpdateArgs);
        const result = await updateMessageFlagsForNarrow(app, me, {
          anchor: p.anchor,
          numBefore: p.num_before,
          numAfter: p.num_after,
          includeAnchor: p.include_anchor,
          narrow: parseNarrow(p.narrow),
          op: p.op,
          flag: p.flag,
        });
        return args.success(result);
      },
      { auth: true },
    )
    .post("/mark_all_as_read", async ({ args, me }) => args.success(await markAllAsRead(app, me)), { auth: true })
    .post(
      "/mark_stream_as_read",
      async ({ args, me }) => {
        const p = args.read(MarkStreamAsReadArgs);
        await markStreamAsRead(app, me, p.stream_id);
        return args.success();
      },
      { auth: true },
    )
    .post(
      "/mark_topic_as_read",
      async ({ args, me }) => {
        const p = args.read(MarkTopicAsReadArgs);
        await markTopicAsRead(app, me, p.stream_id, p.topic_name);
        return args.success();
      },
      { auth: true },
    );
