import { Elysia, t } from "elysia";
import type { App } from "../app";
import { pathInt } from "../http/params";
import { zulip } from "../http/plugin";
import { addWebPushSubscription, removeWebPushSubscription } from "../notify/webpush/subscriptions";

const SubscribeArgs = t.Object({ endpoint: t.String(), p256dh: t.String(), auth: t.String() });

/** Web Push subscriptions of the person's browsers (Parley's own, beyond Zulip's API). */
export const webPushRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .post(
      "/users/me/web_push_subscriptions",
      async ({ args, me }) => args.success({ id: await addWebPushSubscription(app, me, args.read(SubscribeArgs)) }),
      { auth: true },
    )
    .delete(
      "/users/me/web_push_subscriptions/:subscription_id",
      async ({ args, me, params }) => {
        await removeWebPushSubscription(app, me, pathInt(params.subscription_id, "subscription_id"));
        return args.success();
      },
      { auth: true },
    );
