/**
 * Image probing and thumbnailing with sharp (libvips), following Zulip's zerver/lib/thumbnail.py:
 * the same output formats and names, only shrinking, EXIF orientation applied, a pixel limit
 * against decompression bombs, and a clean failure for anything libvips cannot decode.
 */
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { loadSharp } from "./sharp";

export interface ThumbnailFormat {
  extension: "webp";
  maxWidth: number;
  maxHeight: number;
  animated: boolean;
}

/** Zulip's THUMBNAIL_OUTPUT_FORMATS; the first one that applies is the default. */
export const THUMBNAIL_FORMATS: readonly ThumbnailFormat[] = [
  { extension: "webp", maxWidth: 840, maxHeight: 560, animated: true },
  { extension: "webp", maxWidth: 840, maxHeight: 560, animated: false },
];

/** `840x560.webp`, `840x560-anim.webp` (Zulip's str(ThumbnailFormat)). */
export const formatName = (f: ThumbnailFormat) => `${f.maxWidth}x${f.maxHeight}${f.animated ? "-anim" : ""}.${f.extension}`;

/** The `server_thumbnail_formats` list of the /register response. */
export const serverThumbnailFormats = () =>
  THUMBNAIL_FORMATS.map((f) => ({ name: formatName(f), max_width: f.maxWidth, max_height: f.maxHeight, format: f.extension, animated: f.animated }));

/** Zulip's IMAGE_BOMB_TOTAL_PIXELS: larger images are never decoded. */
export const IMAGE_BOMB_TOTAL_PIXELS = 90_000_000;

export interface ImageInfo {
  /** dimensions as displayed, after EXIF rotation */
  width: number;
  height: number;
  frames: number;
}

export class BadImageError extends Error {}

/** Reads an image's header: dimensions and frame count. Throws BadImageError for bombs and junk. */
export async function probeImage(path: string): Promise<ImageInfo> {
  const sharp = await loadSharp();
  let meta;
  try {
    meta = await sharp(path, { limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS }).metadata();
  } catch (e) {
    throw new BadImageError(`Bad image: ${(e as Error).message}`);
  }
  const frames = meta.pages ?? 1;
  const rawHeight = frames > 1 && meta.pageHeight ? meta.pageHeight : meta.height;
  if (!meta.width || !rawHeight) throw new BadImageError("Bad image: no dimensions");
  if (meta.width * rawHeight > IMAGE_BOMB_TOTAL_PIXELS) throw new BadImageError("Image size exceeds limit");
  const rotated = (meta.orientation ?? 1) >= 5;
  return { width: rotated ? rawHeight : meta.width, height: rotated ? meta.width : rawHeight, frames };
}

/** The formats generated for an image: animated ones only for animated images. */
export const formatsFor = (info: ImageInfo) => THUMBNAIL_FORMATS.filter((f) => !f.animated || info.frames > 1);

/**
 * Writes every applicable thumbnail of `source` into `destDir` (each through a temp file in
 * `tmpDir`, renamed into place) and returns their names. Throws BadImageError when decoding fails.
 */
export async function generateThumbnails(source: string, destDir: string, tmpDir: string, info: ImageInfo): Promise<string[]> {
  const sharp = await loadSharp();
  await mkdir(destDir, { recursive: true });
  await mkdir(tmpDir, { recursive: true });
  const names: string[] = [];
  for (const f of formatsFor(info)) {
    const name = formatName(f);
    const tmp = join(tmpDir, `thumb-${crypto.randomUUID()}.${f.extension}`);
    try {
      let img = sharp(source, { animated: f.animated, limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS });
      if (!f.animated) img = img.rotate();
      await img.resize(f.maxWidth, f.maxHeight, { fit: "inside", withoutEnlargement: true }).webp({ quality: 80, effort: 2 }).toFile(tmp);
      await rename(tmp, join(destDir, name));
    } catch (e) {
      await rm(tmp, { force: true });
      throw new BadImageError(`Thumbnailing failed: ${(e as Error).message}`);
    }
    names.push(name);
  }
  return names;
}

/** Picks the generated thumbnail that best matches a requested format name (Zulip serves an approximation). */
export function pickThumbnail(requested: string, available: string[]): string | null {
  if (available.includes(requested)) return requested;
  const wantsAnimated = requested.includes("-anim.");
  return available.find((n) => n.includes("-anim.") === wantsAnimated) ?? available[0] ?? null;
}

/** Resizes an image to fit size×size (never enlarging) for custom emoji; animated images stay animated. */
export async function resizeEmoji(data: Uint8Array, size: number): Promise<{ image: Buffer; format: "png" | "gif" | "webp"; still: Buffer | null }> {
  const sharp = await loadSharp();
  let meta;
  try {
    meta = await sharp(data, { limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS }).metadata();
  } catch {
    throw new BadImageError("Could not decode image; did you upload an image file?");
  }
  const animated = (meta.pages ?? 1) > 1;
  const fit = { fit: "inside" as const, withoutEnlargement: true };
  try {
    if (!animated) {
      const image = await sharp(data, { limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS }).rotate().resize(size, size, fit).png().toBuffer();
      return { image, format: "png", still: null };
    }
    const format = meta.format === "webp" ? "webp" : "gif";
    const anim = sharp(data, { animated: true, limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS }).resize(size, size, fit);
    const image = await (format === "webp" ? anim.webp() : anim.gif()).toBuffer();
    const still = await sharp(data, { page: 0, limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS }).resize(size, size, fit).png().toBuffer();
    return { image, format, still };
  } catch (e) {
    if (/pixel limit/i.test((e as Error).message)) throw new BadImageError("Image size exceeds limit.");
    throw new BadImageError("Could not decode image; did you upload an image file?");
  }
}
