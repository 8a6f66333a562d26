import { Elysia, type AnyElysia } from "elysia";
import type { App } from "../app";
import { authRoutes } from "./auth";
import { eventRoutes } from "./events";
import { userRoutes } from "./users";
import { playgroundRoutes } from "./playgrounds";
import { pushRoutes } from "./push";
import { presenceRoutes } from "./presence";
import { inviteRoutes } from "./invites";
import { botRoutes } from "./bots";
import { profileFieldRoutes } from "./profile-fields";
import { userGroupRoutes } from "./user-groups";
import { realmRoutes } from "./realm";
import { channelRoutes } from "./channels";
import { subscriptionRoutes } from "./subscriptions";
import { defaultStreamRoutes } from "./default-streams";
import { channelFolderRoutes } from "./channel-folders";
import { uploadRoutes } from "./uploads";
import { tusRoutes } from "./tus";
import { realmEmojiRoutes } from "./realm-emoji";
import { messageRoutes } from "./messages";
import { messageFlagRoutes } from "./message-flags";
import { reactionRoutes } from "./reactions";
import { submessageRoutes } from "./submessages";
import { readReceiptRoutes } from "./read-receipts";
import { typingRoutes } from "./typing";
import { userTopicRoutes } from "./user-topics";
import { alertWordRoutes } from "./alert-words";
import { settingsRoutes } from "./settings";
import { userStatusRoutes } from "./user-status";
import { mutedUserRoutes } from "./muted-users";
import { draftRoutes } from "./drafts";
import { savedSnippetRoutes } from "./saved-snippets";
import { linkifierRoutes } from "./linkifiers";
import { scheduledMessageRoutes } from "./scheduled-messages";
import { serverPageRoutes } from "./server-page";
import { defaultStreamGroupRoutes } from "./default-stream-groups";
import { webhookRoutes } from "./webhooks";
import { profileImageRoutes } from "./profile-images";
import { passwordResetRoutes } from "./password-reset";
import { webPushRoutes } from "./web-push";

/**
 * Every API area, mounted twice from this one list: under /api/v1 (API keys, what every Zulip client
 * calls) and under /json (the web app's session cookie with its CSRF token, as Zulip's own web app calls).
 */
export function apiRoutes(app: App) {
  return apiPlugins(app).reduce((all, plugin) => all.use(plugin), new Elysia());
}

/**
 * apiRoutes' parts, for the server to mount one by one: Elysia adds every route again, merging its hooks,
 * at each level of plugins it is mounted through, so one level less is ~1/4 of route set-up at start.
 */
export function apiPlugins(app: App): AnyElysia[] {
  return [areas(app, "/api/v1"), areas(app, "/json"), webhookRoutes(app)];
}

function areas(app: App, prefix: string): AnyElysia {
  return new Elysia({ prefix })
    .use(authRoutes(app, prefix))
    .use(playgroundRoutes(app))
    .use(pushRoutes(app))
    .use(presenceRoutes(app))
    .use(inviteRoutes(app))
    .use(eventRoutes(app))
    .use(userRoutes(app))
    .use(botRoutes(app))
    .use(profileFieldRoutes(app))
    .use(userGroupRoutes(app))
    .use(realmRoutes(app))
    .use(channelRoutes(app))
    .use(subscriptionRoutes(app))
    .use(defaultStreamRoutes(app))
    .use(channelFolderRoutes(app))
    .use(uploadRoutes(app))
    .use(tusRoutes(app))
    .use(realmEmojiRoutes(app))
    .use(messageRoutes(app))
    .use(messageFlagRoutes(app))
    .use(reactionRoutes(app))
    .use(submessageRoutes(app))
    .use(readReceiptRoutes(app))
    .use(typingRoutes(app))
    .use(userTopicRoutes(app))
    .use(alertWordRoutes(app))
    .use(settingsRoutes(app))
    .use(userStatusRoutes(app))
    .use(mutedUserRoutes(app))
    .use(draftRoutes(app))
    .use(savedSnippetRoutes(app))
    .use(linkifierRoutes(app))
    .use(scheduledMessageRoutes(app))
    .use(serverPageRoutes(app))
    .use(defaultStreamGroupRoutes(app))
    .use(profileImageRoutes(app))
    .use(passwordResetRoutes(app))
    .use(webPushRoutes(app));
}
