/**
 * Avatars, the organization's icon and its logos, made with sharp as Zulip's zerver/lib/thumbnail.py
 * makes them: avatars and icons a centred square crop (100×100, and 500×500 for the medium avatar),
 * logos shrunk to fit 800×100. Always a still PNG (an animated image gives its first frame).
 */
import { loadSharp } from "./sharp";
import { BadImageError, IMAGE_BOMB_TOTAL_PIXELS } from "./thumbnails";

/** Zulip's DEFAULT_AVATAR_SIZE and MEDIUM_AVATAR_SIZE. */
export const AVATAR_SIZE = 100;
export const MEDIUM_AVATAR_SIZE = 500;
/** Zulip's resize_logo: 8 × DEFAULT_AVATAR_SIZE wide, DEFAULT_AVATAR_SIZE high, only shrinking. */
const LOGO_WIDTH = 8 * AVATAR_SIZE;

async function render(data: Uint8Array, shape: (img: import("sharp").Sharp) => import("sharp").Sharp): Promise<Buffer> {
  const sharp = await loadSharp();
  try {
    const meta = await sharp(data, { limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS }).metadata();
    if (!meta.width || !meta.height) throw new Error("no dimensions");
  } catch (e) {
    if (/pixel limit/i.test((e as Error).message)) throw new BadImageError("Image size exceeds limit.");
    throw new BadImageError("Could not decode image; did you upload an image file?");
  }
  try {
    return await shape(sharp(data, { page: 0, limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS }).rotate()).png().toBuffer();
  } catch (e) {
    if (/pixel limit/i.test((e as Error).message)) throw new BadImageError("Image size exceeds limit.");
    throw new BadImageError("Could not decode image; did you upload an image file?");
  }
}

/** A size×size square, cropped around the centre (small images are enlarged, as Zulip's are). */
export const squareImage = (data: Uint8Array, size: number) => render(data, (img) => img.resize(size, size, { fit: "cover", position: "centre" }));

/** A wide logo: fits 800×100, never enlarged. */
export const logoImage = (data: Uint8Array) => render(data, (img) => img.resize(LOGO_WIDTH, AVATAR_SIZE, { fit: "inside", withoutEnlargement: true }));
