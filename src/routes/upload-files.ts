import { Elysia } from "elysia";
import type { App } from "../app";
import { fileForToken, fileForUser, fileTooLarge, maxUploadBytes, startUploads, thumbnailForUser } from "../actions/uploads";
import { emojiFile } from "../actions/realm-emoji";
import { profileImageFile } from "../actions/avatars";
import { notFound } from "../errors";
import { authenticate, sessionToken } from "../http/auth";
import { errorResponse } from "../http/error-handler";
import { fileResponse } from "../uploads/file-response";
import { pathIdFromSegments, segmentsAfter } from "../uploads/paths";
import { isTusPath, tusEarlyResponse } from "./tus";
import { pathOf } from "../http/url-path";

/** The caller by Basic auth or session cookie; null (a spectator) when no credentials are sent. */
async function caller(app: App, request: Request) {
  if (!request.headers.get("authorization") && !sessionToken(request)) return null;
  return authenticate(app, request);
}

/** A path segment decoded; undecodable text stays as it came (and then matches nothing). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function pathIdAfter(request: Request, prefix: string): string {
  const segments = segmentsAfter(new URL(request.url).pathname, prefix);
  const pathId = segments && pathIdFromSegments(segments);
  if (!pathId) throw notFound("File not found");
  return pathId;
}

/**
 * Uploaded files outside /api/v1: `/user_uploads/{path_id}`, `/user_uploads/thumbnail/{path_id}/{format}`,
 * `/user_uploads/temporary/{token}/{filename}` and the images under `/user_avatars/` (custom emoji, avatars, the organization's icon and logos).
 * Mounted first in server.ts: its request hook also answers tus's OPTIONS and HEAD (which the
 * generic OPTIONS/HEAD handling would otherwise take) and refuses oversized uploads with Zulip's error.
 */
export const uploadFileRoutes = (app: App) => {
  void startUploads(app).catch((e) => app.log.error("upload start-up failed", { error: String(e) }));
  return new Elysia({ name: "upload-files" })
    .onRequest(({ request }) => {
      const path = pathOf(request.url);
      if (isTusPath(path)) return tusEarlyResponse(app, request);
      if (request.method === "POST" && (path === "/api/v1/user_uploads" || path === "/json/user_uploads")) {
        const length = Number(request.headers.get("content-length") ?? 0);
        if (length > maxUploadBytes(app) + 64 * 1024) return errorResponse(fileTooLarge(app.config.limits.max_file_upload_size_mib), "", app.log, request);
      }
    })
    .onError(({ error, code, request }) => errorResponse(error, code, app.log, request))
    .get("/user_uploads/temporary/:token/:filename", async ({ params, request }) => fileResponse(request, await fileForToken(app, params.token, safeDecode(params.filename))))
    .get("/user_uploads/thumbnail/*", async ({ request }) => {
      const pathId = pathIdAfter(request, "/user_uploads/thumbnail/");
      const cut = pathId.lastIndexOf("/");
      if (cut < 0) throw notFound("File not found");
      return fileResponse(request, await thumbnailForUser(app, await caller(app, request), pathId.slice(0, cut), pathId.slice(cut + 1)));
    })
    .get("/user_uploads/*", async ({ request }) => fileResponse(request, await fileForUser(app, await caller(app, request), pathIdAfter(request, "/user_uploads/"))))
    .get("/user_avatars/*", async ({ request }) => {
      const path = pathIdAfter(request, "/user_avatars/");
      // custom emoji, or an uploaded avatar, icon or logo (their URLs change with each version)
      const file = /^\d+\/emoji\//.test(path) ? await emojiFile(app, path) : await profileImageFile(app, path);
      return fileResponse(request, file, { "cache-control": "public, max-age=86400" });
    });
};
