import { Elysia, t } from "elysia";
import type { App } from "../app";
import { deleteOwnAvatar, setOwnAvatar } from "../actions/avatars";
import { deleteRealmIcon, deleteRealmLogo, uploadRealmIcon, uploadRealmLogo } from "../actions/realm-images";
import { zulip } from "../http/plugin";

const LogoArgs = t.Object({ night: t.Boolean({ default: false }) });

/**
 * Avatars, the organization's icon and its logos: POST and DELETE /users/me/avatar, /realm/icon and
 * /realm/logo. parse "none": the image is streamed to a temp file (capped), never buffered by the framework.
 */
export const profileImageRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .post("/users/me/avatar", async ({ args, me, request }) => args.success({ avatar_url: await setOwnAvatar(app, me, request) }), { auth: true, parse: "none" })
    .delete("/users/me/avatar", async ({ args, me }) => args.success({ avatar_url: await deleteOwnAvatar(app, me) }), { auth: true })
    .post("/realm/icon", async ({ args, me, request }) => args.success({ icon_url: await uploadRealmIcon(app, me, request) }), { auth: true, parse: "none" })
    .delete("/realm/icon", async ({ args, me }) => args.success({ icon_url: await deleteRealmIcon(app, me) }), { auth: true })
    .post("/realm/logo", async ({ args, me, request }) => (await uploadRealmLogo(app, me, request), args.success()), { auth: true, parse: "none" })
    .delete("/realm/logo", async ({ args, me }) => (await deleteRealmLogo(app, me, args.read(LogoArgs).night), args.success()), { auth: true });
