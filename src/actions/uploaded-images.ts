import { realmOf, type App } from "../app";
import type { UploadedImageInfo } from "../domain/markdown/types";
import { listAttachmentsByPaths } from "../store/attachments";
import type { Sql } from "../store/db";
import { uploadUrl } from "../uploads/paths";
import { formatName, THUMBNAIL_FORMATS } from "../uploads/thumbnails";

/**
 * What the Markdown renderer needs for Zulip's image previews (RenderContext.uploadedImage), for
 * the uploaded images among `pathIds`: dimensions, type, and the default thumbnail once it exists
 * (Zulip's get_default_thumbnail_url: the first format matching the image's animated-ness).
 * Images whose thumbnailing failed (corrupt, too large) are left out, as Zulip shows no preview.
 */
export async function uploadedImages(app: App, pathIds: string[], sql: Sql = app.db): Promise<Map<string, UploadedImageInfo>> {
  const out = new Map<string, UploadedImageInfo>();
  for (const a of await listAttachmentsByPaths(sql, realmOf(app).id, pathIds)) {
    if (a.thumbnail_state !== "pending" && a.thumbnail_state !== "done") continue;
    const animated = (a.frames ?? 1) > 1;
    const names: string[] = a.thumbnail_state === "done" && a.thumbnails ? JSON.parse(a.thumbnails) : [];
    const format = THUMBNAIL_FORMATS.find((f) => f.animated === animated);
    const name = format && names.includes(formatName(format)) ? formatName(format) : undefined;
    out.set(a.path_id, {
      originalDimensions: `${a.original_width}x${a.original_height}`,
      contentType: a.content_type ?? undefined,
      thumbnailUrl: name ? `/user_uploads/thumbnail/${uploadUrl(a.path_id).slice("/user_uploads/".length)}/${name}` : undefined,
      animated,
    });
  }
  return out;
}
