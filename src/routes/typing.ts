import { Elysia, t } from "elysia";
import type { App } from "../app";
import { setTypingStatus } from "../actions/messages/typing";
import { zulip } from "../http/plugin";

const TypingArgs = t.Object({
  type: t.Union([t.Literal("direct"), t.Literal("stream"), t.Literal("channel")], { default: "direct" }),
  op: t.Union([t.Literal("start"), t.Literal("stop")]),
  to: t.Optional(t.Array(t.Integer(), { maxItems: 1000 })),
  stream_id: t.Optional(t.Integer()),
  topic: t.Optional(t.String()),
});

/** Typing notifications. */
export const typingRoutes = (app: App) =>
  new Elysia().use(zulip(app)).post(
    "/typing",
    async ({ args, me }) => {
      const p = args.read(TypingArgs);
      await setTypingStatus(app, me, { type: p.type, op: p.op, to: p.to, streamId: p.stream_id, topic: p.topic });
      return args.success();
    },
    { auth: true },
  );
