import { Elysia } from "elysia";
import { EMOJI_API_JSON, emojiDataPath } from "../domain/emoji";

const LATEST_PATH = "/static/generated/emoji/emoji_api.json";
let gzipped: Uint8Array<ArrayBuffer> | null = null;

function document(request: Request, cacheControl: string): Response {
  const etag = `"${emojiDataPath().split(".").at(-2)}"`;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "cache-control": cacheControl,
    etag,
    vary: "accept-encoding",
    // No credentials are needed, from any origin (zulip-flutter fetches it without auth; so may web clients).
    "access-control-allow-origin": "*",
  };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  if (/\bgzip\b/.test(request.headers.get("accept-encoding") ?? "")) {
    gzipped ??= Bun.gzipSync(new TextEncoder().encode(EMOJI_API_JSON)) as Uint8Array<ArrayBuffer>;
    return new Response(gzipped, { headers: { ...headers, "content-encoding": "gzip" } });
  }
  return new Response(EMOJI_API_JSON, { headers });
}

/**
 * Zulip's emoji data document (`{"code_to_names": ...}`, as Zulip's emoji_api.json), which `/register`
 * names in `server_emoji_data_url`: at a content-hashed path, cached for a year, and at Zulip's plain
 * path for those who ask for the latest. No credentials needed. Served from memory (the table is embedded).
 */
export const emojiDataRoutes = () =>
  new Elysia({ name: "emoji-data" })
    .get(emojiDataPath(), ({ request }) => document(request, "public, max-age=31536000, immutable"))
    .get(LATEST_PATH, ({ request }) => document(request, "no-cache"));
