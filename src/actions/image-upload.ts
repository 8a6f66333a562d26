import { readFile, rm } from "node:fs/promises";
import type { App } from "../app";
import { badRequest } from "../errors";
import { sniffContentType, THUMBNAIL_TYPES } from "../uploads/content-type";
import { multipartBoundary } from "../uploads/multipart";
import { BadImageError } from "../uploads/thumbnails";
import { receiveOneFile } from "./uploads";

/** Zulip's MAX_AVATAR_FILE_SIZE_MIB, MAX_ICON_FILE_SIZE_MIB and MAX_LOGO_FILE_SIZE_MIB (reported in /register). */
export const MAX_PROFILE_IMAGE_MIB = 5;

/**
 * The one image of a multipart request (an avatar, icon or logo), with Zulip's refusals: "You must
 * upload exactly one avatar.", the size limit, and "Invalid image format" for anything but an image
 * Parley can decode. `fields` receives the plain form fields.
 */
export async function receiveImage(app: App, request: Request, noun: "avatar" | "icon" | "logo", fields?: Map<string, string>): Promise<Buffer> {
  const limit = MAX_PROFILE_IMAGE_MIB * 1024 * 1024;
  const tooLarge = () => badRequest(`Uploaded file is larger than the allowed limit of ${MAX_PROFILE_IMAGE_MIB} MiB`);
  const exactlyOne = () => badRequest(`You must upload exactly one ${noun}.`);
  const boundary = multipartBoundary(request.headers.get("content-type"));
  if (!boundary || !request.body) throw exactlyOne();
  if (Number(request.headers.get("content-length") ?? 0) > limit + 64 * 1024) throw tooLarge();
  const file = await receiveOneFile(app, request.body, boundary, { limit, tooLarge, tooMany: exactlyOne, fields });
  if (!file) throw exactlyOne();
  try {
    if (!THUMBNAIL_TYPES.has(await sniffContentType(file.head, file.fileName))) throw badRequest("Invalid image format");
    return await readFile(file.tempPath);
  } finally {
    await rm(file.tempPath, { force: true });
  }
}

/** Runs an image conversion, turning an undecodable image into Zulip's 400. */
export async function converted<T>(make: () => Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (e) {
    if (e instanceof BadImageError) throw badRequest(e.message);
    throw e;
  }
}
