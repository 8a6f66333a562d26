import { Elysia } from "elysia";
import type { App } from "../app";
import { deleteAttachment, listAttachments } from "../actions/attachments";
import { temporaryFileUrl, uploadFile } from "../actions/uploads";
import { badRequest, notFound } from "../errors";
import { zulip } from "../http/plugin";
import { pathIdFromSegments, segmentsAfter } from "../uploads/paths";

/** The path id in `/api/v1/user_uploads/{realm_id_str}/{filename...}` (404 when malformed). */
function pathIdOf(request: Request): string {
  const segments = segmentsAfter(new URL(request.url).pathname, "/api/v1/user_uploads/");
  const pathId = segments && pathIdFromSegments(segments);
  if (!pathId || !/^\d+\//.test(pathId)) throw notFound("File not found");
  return pathId;
}

/** POST /user_uploads, the temporary-URL endpoint, GET/DELETE /attachments. */
export const uploadRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    // parse "none": the multipart body is streamed to disk by the action, never buffered.
    .post("/user_uploads", async ({ args, me, request }) => args.success(await uploadFile(app, me, request)), { auth: true, parse: "none" })
    .get("/user_uploads/:realm_id_str/*", async ({ args, me, request }) => args.success({ url: await temporaryFileUrl(app, me, pathIdOf(request)) }), { auth: true })
    .get("/attachments", async ({ args, me }) => args.success(await listAttachments(app, me)), { auth: true })
    .delete(
      "/attachments/:attachment_id",
      async ({ args, me, params }) => {
        if (!/^\d{1,15}$/.test(params.attachment_id)) throw badRequest("Invalid attachment");
        await deleteAttachment(app, me, Number(params.attachment_id));
        return args.success();
      },
      { auth: true },
    );
