/**
 * The one place sharp is loaded. Importing sharp costs 50-60 ms of start-up, so it is loaded on
 * first use; the single-executable build may change how (see design.md). Every sharp use in
 * Parley goes through loadSharp().
 */
import type SharpModule from "sharp";

export type Sharp = typeof SharpModule;

let loading: Promise<Sharp> | null = null;

/** Image decoders Parley lets libvips use; every other loader (SVG, PDF, magick, ...) is blocked. */
const ALLOWED_LOADERS = ["Png", "Jpeg", "Nsgif", "Webp", "Tiff", "Heif"].flatMap((f) => [`VipsForeignLoad${f}File`, `VipsForeignLoad${f}Buffer`, `VipsForeignLoad${f}Source`]);

/** [memory] image_threads: libvips' threads per image; each keeps buffers of its own (and a malloc arena). */
let threads = 1;

/** Sets libvips' threads per image, now if sharp is loaded, else when it loads. */
export function setImageThreads(n: number): void {
  threads = n;
  if (loading) void loading.then((sharp) => sharp.concurrency(threads));
}

export function loadSharp(): Promise<Sharp> {
  loading ??= import("sharp").then((m) => {
    const sharp = (m.default ?? m) as Sharp;
    // no operation cache: thumbnails are made once per upload, and the cache holds decoded images
    sharp.cache(false);
    sharp.concurrency(threads);
    sharp.block({ operation: ["VipsForeignLoad"] });
    sharp.unblock({ operation: ALLOWED_LOADERS });
    return sharp;
  });
  return loading;
}
