import { Elysia } from "elysia";
import type { App } from "../app";
import { readReceipts } from "../actions/messages/read-receipts";
import { pathInt } from "../http/params";
import { zulip } from "../http/plugin";

/** Who has read a message (the mobile app's "View read receipts"). */
export const readReceiptRoutes = (app: App) =>
  new Elysia().use(zulip(app)).get(
    "/messages/:id/read_receipts",
    async ({ args, me, params }) => args.success(await readReceipts(app, me, pathInt(params.id, "message_id"))),
    { auth: true },
  );
