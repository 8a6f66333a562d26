import { Elysia } from "elysia";
import type { App } from "../app";
import { addRealmEmoji, realmEmojiMap, removeRealmEmoji } from "../actions/realm-emoji";
import { zulip } from "../http/plugin";

const emojiName = (request: Request) => {
  const raw = new URL(request.url).pathname.split("/").pop() ?? "";
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

/** Custom emoji: GET /realm/emoji, POST and DELETE /realm/emoji/{emoji_name}. */
export const realmEmojiRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get("/realm/emoji", async ({ args }) => args.success({ emoji: await realmEmojiMap(app) }), { auth: true })
    // parse "none": the image is streamed to a temp file (capped), never buffered by the framework.
    .post("/realm/emoji/:emoji_name", async ({ args, me, request }) => (await addRealmEmoji(app, me, emojiName(request), request), args.success()), { auth: true, parse: "none" })
    .delete("/realm/emoji/:emoji_name", async ({ args, me, request }) => (await removeRealmEmoji(app, me, emojiName(request)), args.success()), { auth: true });
