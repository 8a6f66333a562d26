import { Elysia, t } from "elysia";
import type { App } from "../app";
import { addReaction, removeReaction } from "../actions/messages/reactions";
import { pathInt } from "../http/params";
import { zulip } from "../http/plugin";

const ReactionArgs = t.Object({
  emoji_name: t.Optional(t.String()),
  emoji_code: t.Optional(t.String()),
  reaction_type: t.Optional(t.String()),
});

/** Emoji reactions on messages. */
export const reactionRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .post(
      "/messages/:id/reactions",
      async ({ args, me, params }) => {
        const id = pathInt(params.id, "message_id");
        const p = args.read(ReactionArgs);
        await addReaction(app, me, id, { emojiName: p.emoji_name, emojiCode: p.emoji_code, reactionType: p.reaction_type });
        return args.success();
      },
      { auth: true },
    )
    .delete(
      "/messages/:id/reactions",
      async ({ args, me, params }) => {
        const id = pathInt(params.id, "message_id");
        const p = args.read(ReactionArgs);
        await removeReaction(app, me, id, { emojiName: p.emoji_name, emojiCode: p.emoji_code, reactionType: p.reaction_type });
        return args.success();
      },
      { auth: true },
    );
