import { Elysia, t } from "elysia";
import type { App } from "../app";
import { createScheduledMessage, deleteScheduledMessage, editScheduledMessage, listScheduledMessages } from "../actions/scheduled-messages";
import { clientName } from "../http/client";
import { pathInt } from "../http/params";
import { zulip } from "../http/plugin";

const CreateArgs = t.Object({
  type: t.String(),
  to: t.String(),
  topic: t.Optional(t.String({ aliases: ["subject"] })),
  content: t.String(),
  scheduled_delivery_timestamp: t.Integer(),
  read_by_sender: t.Optional(t.Boolean()),
});

const EditArgs = t.Object({
  type: t.Optional(t.String()),
  to: t.Optional(t.String()),
  topic: t.Optional(t.String({ aliases: ["subject"] })),
  content: t.Optional(t.String()),
  scheduled_delivery_timestamp: t.Optional(t.Integer()),
});

/** Scheduled messages ("send later"): only their sender sees or changes them. */
export const scheduledMessageRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get("/scheduled_messages", async ({ args, me }) => args.success({ scheduled_messages: await listScheduledMessages(app, me) }), { auth: true })
    .post(
      "/scheduled_messages",
      async ({ args, me, request }) => {
        const p = args.read(CreateArgs);
        const id = await createScheduledMessage(
          app,
          me,
          { type: p.type, to: p.to, topic: p.topic ?? null, content: p.content, deliverAt: p.scheduled_delivery_timestamp, readBySender: p.read_by_sender },
          clientName(args, request),
        );
        return args.success({ scheduled_message_id: id });
      },
      { auth: true },
    )
    .patch(
      "/scheduled_messages/:scheduled_message_id",
      async ({ args, me, params, request }) => {
        const id = pathInt(params.scheduled_message_id, "scheduled_message_id");
        const p = args.read(EditArgs);
        await editScheduledMessage(app, me, id, { type: p.type, to: p.to, topic: p.topic, content: p.content, deliverAt: p.scheduled_delivery_timestamp }, clientName(args, request));
        return args.success();
      },
      { auth: true },
    )
    .delete(
      "/scheduled_messages/:scheduled_message_id",
      async ({ args, me, params }) => {
        await deleteScheduledMessage(app, me, pathInt(params.scheduled_message_id, "scheduled_message_id"));
        return args.success();
      },
      { auth: true },
    );
