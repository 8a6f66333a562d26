import { Elysia } from "elysia";
import zulipEmojiPath from "../../assets/images/zulip-emoji.png" with { type: "file" };
import loaderSvg from "../../assets/images/loader-black.svg" with { type: "text" };
import parleyMark from "../../assets/app/images/favicon.svg" with { type: "text" };
import { DEFAULT_LOGO_URL } from "../domain/realm-images";
import { ZULIP_EMOJI_URL } from "../domain/markdown/emoji";
import { SPINNER_URL } from "../domain/markdown/previews";

// Zulip's fixed paths: the `:zulip:` emoji (zulip_extra_emoji), which Markdown and the apps use as is,
// the placeholder of an image whose thumbnail is still being made, and the default organization logo.
// No path carries a hash, so clients revalidate after a day. The mobile app decodes the emoji itself, hence a real PNG (of Parley's
// logo), not the SVG.
const CACHE = "public, max-age=86400";
let zulipEmoji: Uint8Array<ArrayBuffer> | null = null;

/** The images Zulip's HTML and apps name by fixed paths, embedded in the executable. No credentials needed. */
export const zulipImageRoutes = () =>
  new Elysia({ name: "zulip-images" })
    .get(ZULIP_EMOJI_URL, async () => {
      zulipEmoji ??= new Uint8Array(await Bun.file(zulipEmojiPath).arrayBuffer());
      return new Response(zulipEmoji, { headers: { "content-type": "image/png", "cache-control": CACHE } });
    })
    .get(SPINNER_URL, () => new Response(loaderSvg, { headers: { "content-type": "image/svg+xml", "cache-control": CACHE } }))
    // the organization's logo until one is uploaded (realm_logo_url): Parley's mark
    .get(DEFAULT_LOGO_URL.split("?")[0]!, () => new Response(parleyMark, { headers: { "content-type": "image/svg+xml", "cache-control": CACHE } }));
