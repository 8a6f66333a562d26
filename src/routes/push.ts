import { Elysia, t } from "elysia";
import type { App } from "../app";
import { addPushDevice, removePushDevice, sendTestPushNotification } from "../actions/push";
import { zulip } from "../http/plugin";

const Token = t.Object({ token: t.String() });

const ApnsTokenAddArgs = t.Object({ token: t.String(), appid: t.String() });
const TestNotificationArgs = t.Object({ token: t.Optional(t.String()) });

export const pushRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .post(
      "/users/me/apns_device_token",
      async ({ args, me }) => {
        const p = args.read(ApnsTokenAddArgs);
        await addPushDevice(app, me, "apns", p.token, p.appid);
        return args.success();
      },
      { auth: true },
    )
    .delete(
      "/users/me/apns_device_token",
      async ({ args, me }) => {
        await removePushDevice(app, me, "apns", args.read(Token).token);
        return args.success();
      },
      { auth: true },
    )
    .post(
      "/users/me/android_gcm_reg_id",
      async ({ args, me }) => {
        await addPushDevice(app, me, "fcm", args.read(Token).token);
        return args.success();
      },
      { auth: true },
    )
    .delete(
      "/users/me/android_gcm_reg_id",
      async ({ args, me }) => {
        await removePushDevice(app, me, "fcm", args.read(Token).token);
        return args.success();
      },
      { auth: true },
    )
    .post(
      "/mobile_push/test_notification",
      async ({ args, me }) => {
        const p = args.read(TestNotificationArgs);
        await sendTestPushNotification(app, me, p.token);
        return args.success();
      },
      { auth: true },
    );
