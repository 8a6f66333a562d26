import { Elysia, t } from "elysia";
import type { App } from "../app";
import { addSubmessage } from "../actions/messages/submessages";
import { zulip } from "../http/plugin";

// Zulip's order: a request missing everything is told about `content` first.
const SubmessageArgs = t.Object({
  content: t.String(),
  message_id: t.Integer(),
  msg_type: t.String(),
});

/** Submessages: the events of message widgets (poll votes, options, questions; to-do tasks, strikes). */
export const submessageRoutes = (app: App) =>
  new Elysia().use(zulip(app)).post(
    "/submessage",
    async ({ args, me }) => {
      const p = args.read(SubmessageArgs);
      await addSubmessage(app, me, { messageId: p.message_id, msgType: p.msg_type, content: p.content });
      return args.success();
    },
    { auth: true },
  );
