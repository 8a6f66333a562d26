import { Elysia, t } from "elysia";
import type { App } from "../app";
import { setTopicMuted, setTopicVisibility } from "../actions/user-topics";
import { zulip } from "../http/plugin";

const UserTopicArgs = t.Object({ stream_id: t.Integer(), topic: t.String(), visibility_policy: t.Integer() });
const MutedTopicArgs = t.Object({ stream: t.Optional(t.String()), stream_id: t.Optional(t.Integer()), topic: t.String(), op: t.String() });

/** Per-user topic visibility (mute, unmute, follow). */
export const userTopicRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .post(
      "/user_topics",
      async ({ args, me }) => {
        const p = args.read(UserTopicArgs);
        await setTopicVisibility(app, me, p.stream_id, p.topic, p.visibility_policy);
        return args.success();
      },
      { auth: true },
    )
    .patch(
      "/users/me/subscriptions/muted_topics",
      async ({ args, me }) => {
        const p = args.read(MutedTopicArgs);
        await setTopicMuted(app, me, { stream: p.stream, streamId: p.stream_id, topic: p.topic, op: p.op });
        return args.success();
      },
      { auth: true },
    );
