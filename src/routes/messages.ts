import { Elysia, t } from "elysia";
import type { App } from "../app";
import { sendMessage } from "../actions/messages/send";
import { getMessage, getMessageHistory, getMessages, MAX_MESSAGES_PER_FETCH, messagesMatchingNarrow } from "../actions/messages/fetch";
import { renderMessage } from "../actions/messages/render";
import { updateMessage } from "../actions/messages/edit";
import { deleteMessage } from "../actions/messages/delete";
import { MAX_NARROW_TERMS, parseNarrow } from "../domain/narrow";
import { clientName } from "../http/client";
import { MAX_LIST_ITEMS, pathInt } from "../http/params";
import { zulip } from "../http/plugin";
import { badRequest, missingArgument } from "../errors";

const SendArgs = t.Object({
  type: t.String(),
  to: t.String(),
  content: t.String(),
  topic: t.Optional(t.String({ aliases: ["subject"] })),
  queue_id: t.Optional(t.String()),
  local_id: t.Optional(t.String()),
  read_by_sender: t.Optional(t.Boolean()),
});

const FetchArgs = t.Object({
  anchor: t.Optional(t.String()),
  num_before: t.Optional(t.Integer({ minimum: 0 })),
  num_after: t.Optional(t.Integer({ minimum: 0 })),
  include_anchor: t.Optional(t.Boolean()),
  use_first_unread_anchor: t.Optional(t.Boolean()),
  narrow: t.Union([t.Array(t.Unknown(), { maxItems: MAX_NARROW_TERMS }), t.Null()], { default: [] }),
  message_ids: t.Optional(t.Array(t.Integer(), { maxItems: MAX_MESSAGES_PER_FETCH })),
  apply_markdown: t.Boolean({ default: true }),
  // default: true for users, false for spectators (Zulip)
  client_gravatar: t.Optional(t.Boolean()),
  allow_empty_topic_name: t.Boolean({ default: false }),
});

const EditArgs = t.Object({
  topic: t.Optional(t.String({ aliases: ["subject"] })),
  propagate_mode: t.Union([t.Literal("change_one"), t.Literal("change_later"), t.Literal("change_all")], { default: "change_one" }),
  send_notification_to_old_thread: t.Boolean({ default: false }),
  send_notification_to_new_thread: t.Boolean({ default: true }),
  content: t.Optional(t.String()),
  stream_id: t.Optional(t.Integer()),
  prev_content_sha256: t.Optional(t.String()),
});

const RenderArgs = t.Object({ content: t.String() });
const MatchesNarrowArgs = t.Object({ msg_ids: t.Array(t.Integer(), { maxItems: MAX_LIST_ITEMS }), narrow: t.Array(t.Unknown(), { maxItems: MAX_NARROW_TERMS }) });
const HistoryArgs = t.Object({ allow_empty_topic_name: t.Boolean({ default: false }) });
const GetMessageArgs = t.Object({ apply_markdown: t.Boolean({ default: true }), allow_empty_topic_name: t.Boolean({ default: false }) });

/** Messages: send, render, fetch (with narrows and search), edit, delete. */
export const messageRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .post(
      "/messages",
      async ({ args, me, request }) => {
        const p = args.read(SendArgs);
        const result = await sendMessage(
          app,
          me,
          { type: p.type, to: p.to, topic: p.topic ?? null, content: p.content, queueId: p.queue_id, localId: p.local_id, readBySender: p.read_by_sender },
          { clientName: clientName(args, request) },
        );
        return args.success(result);
      },
      { auth: true },
    )
    .post(
      "/messages/render",
      async ({ args, me }) => {
        const p = args.read(RenderArgs);
        return args.success({ rendered: await renderMessage(app, me, p.content) });
      },
      { auth: true },
    )
    .get(
      "/messages",
      async ({ args, me }) => {
        const p = args.read(FetchArgs);
        const format = { applyMarkdown: p.apply_markdown, clientGravatar: p.client_gravatar ?? me !== null, allowEmptyTopicName: p.allow_empty_topic_name };
        const narrow = parseNarrow(p.narrow);
        if (p.message_ids !== undefined) {
          const clash = (["anchor", "include_anchor", "use_first_unread_anchor", "num_before", "num_after"] as const).filter((k) => p[k] !== undefined);
          if (clash.length) throw unsupportedCombination(["message_ids", ...clash]);
          return args.success(await getMessages(app, me, { narrow, messageIds: p.message_ids, includeAnchor: true, useFirstUnreadAnchor: false, format }));
        }
        if (p.num_before === undefined) throw missing("num_before");
        if (p.num_after === undefined) throw missing("num_after");
        const result = await getMessages(app, me, {
          anchor: p.anchor,
          numBefore: p.num_before,
          numAfter: p.num_after,
          includeAnchor: p.include_anchor ?? true,
          useFirstUnreadAnchor: p.use_first_unread_anchor ?? false,
          narrow,
          format,
        });
        return args.success(result);
      },
      // without credentials: a spectator reading web-public channels (actions/messages/spectator.ts)
      { optionalAuth: true },
    )
    .get(
      "/messages/matches_narrow",
      async ({ args, me }) => {
        const p = args.read(MatchesNarrowArgs);
        return args.success(await messagesMatchingNarrow(app, me, p.msg_ids, parseNarrow(p.narrow)));
      },
      { auth: true },
    )
    .get(
      "/messages/:id/history",
      async ({ args, me, params }) => {
        const id = pathInt(params.id, "message_id");
        const p = args.read(HistoryArgs);
        return args.success(await getMessageHistory(app, me, id, p.allow_empty_topic_name));
      },
      { auth: true },
    )
    .get(
      "/messages/:id",
      async ({ args, me, params }) => {
        const id = pathInt(params.id, "message_id");
        const p = args.read(GetMessageArgs);
        return args.success(await getMessage(app, me, id, { applyMarkdown: p.apply_markdown, clientGravatar: false, allowEmptyTopicName: p.allow_empty_topic_name }));
      },
      // without credentials: a spectator reading a web-public channel's message
      { optionalAuth: true },
    )
    .patch(
      "/messages/:id",
      async ({ args, me, params }) => {
        const id = pathInt(params.id, "message_id");
        const p = args.read(EditArgs);
        const result = await updateMessage(app, me, id, {
          topic: p.topic,
          propagateMode: p.propagate_mode,
          notifyOldThread: p.send_notification_to_old_thread,
          notifyNewThread: p.send_notification_to_new_thread,
          content: p.content,
          streamId: p.stream_id,
          prevContentSha256: p.prev_content_sha256,
        });
        return args.success(result);
      },
      { auth: true },
    )
    .delete(
      "/messages/:id",
      async ({ args, me, params }) => {
        const id = pathInt(params.id, "message_id");
        await deleteMessage(app, me, id);
        return args.success();
      },
      { auth: true },
    );

const missing = (name: string) => missingArgument(name);
const unsupportedCombination = (names: string[]) => badRequest(`Unsupported parameter combination: ${names.join(", ")}`);
