import { Elysia, t } from "elysia";
import type { App } from "../app";
import {
  listOwnSubscriptions,
  parsePropertyValue,
  subscribe,
  subscriptionStatus,
  unsubscribe,
  updateSubscriptionProperties,
} from "../actions/subscriptions";
import { GroupSettingValueSchema } from "../domain/group-setting";
import { CHANNEL_GROUP_SETTING_NAMES, type ChannelGroupSettingName } from "../store/streams";
import { MAX_LIST_ITEMS, pathInt } from "../http/params";
import { zulip } from "../http/plugin";
import { TopicsPolicySchema } from "./channels";

const Principals = t.Union([t.Array(t.Integer(), { maxItems: MAX_LIST_ITEMS }), t.Array(t.String(), { maxItems: MAX_LIST_ITEMS })]);

const SubscribeArgs = t.Object({
  subscriptions: t.Array(
    t.Object({ name: t.String(), description: t.Optional(t.String()), color: t.Optional(t.String()) }, { additionalProperties: false }),
    { maxItems: MAX_LIST_ITEMS },
  ),
  principals: t.Optional(Principals),
  authorization_errors_fatal: t.Boolean({ default: true }),
  announce: t.Boolean({ default: false }),
  invite_only: t.Boolean({ default: false, aliases: ["is_private"] }),
  is_web_public: t.Boolean({ default: false }),
  is_default_stream: t.Boolean({ default: false }),
  history_public_to_subscribers: t.Optional(t.Union([t.Boolean(), t.Null()])),
  message_retention_days: t.Union([t.Integer(), t.String()], { default: "realm_default" }),
  topics_policy: t.Optional(TopicsPolicySchema),
  folder_id: t.Optional(t.Union([t.Integer(), t.Null()])),
  send_new_subscription_messages: t.Boolean({ default: true }),
  ...Object.fromEntries(CHANNEL_GROUP_SETTING_NAMES.map((n) => [n, t.Optional(GroupSettingValueSchema)])),
});

const SubscriptionsListArgs = t.Object({ include_subscribers: t.Boolean({ default: false }) });
const UnsubscribeArgs = t.Object({ subscriptions: t.Array(t.String(), { maxItems: MAX_LIST_ITEMS }), principals: t.Optional(Principals) });
const SubscriptionPropertyUpdateArgs = t.Object({ property: t.String(), value: t.String() });
const SubscriptionPropertiesBulkArgs = t.Object({
  subscription_data: t.Array(t.Object({ stream_id: t.Integer(), property: t.String(), value: t.Union([t.Boolean(), t.String()]) }), { maxItems: MAX_LIST_ITEMS }),
});

export const subscriptionRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get(
      "/users/me/subscriptions",
      async ({ args, me }) => {
        const p = args.read(SubscriptionsListArgs);
        return args.success({ subscriptions: await listOwnSubscriptions(app, me, p.include_subscribers) });
      },
      { auth: true },
    )
    .post(
      "/users/me/subscriptions",
      async ({ args, me }) => {
        const p = args.read(SubscribeArgs) as Record<string, any>;
        const groupSettings = Object.fromEntries(CHANNEL_GROUP_SETTING_NAMES.filter((n) => p[n] !== undefined).map((n) => [n, p[n]])) as Record<ChannelGroupSettingName, any>;
        const result = await subscribe(app, me, {
          subscriptions: p.subscriptions,
          principals: p.principals ?? null,
          authorizationErrorsFatal: p.authorization_errors_fatal,
          announce: p.announce,
          sendSubscriptionMessages: p.send_new_subscription_messages,
          inviteOnly: p.invite_only,
          isWebPublic: p.is_web_public,
          isDefaultStream: p.is_default_stream,
          historyPublicToSubscribers: p.history_public_to_subscribers ?? null,
          messageRetentionDays: p.message_retention_days,
          topicsPolicy: p.topics_policy ?? null,
          folderId: p.folder_id ?? null,
          groupSettings,
        });
        return args.success(result);
      },
      { auth: true },
    )
    .delete(
      "/users/me/subscriptions",
      async ({ args, me }) => {
        const p = args.read(UnsubscribeArgs);
        return args.success(await unsubscribe(app, me, p.subscriptions, p.principals ?? null));
      },
      { auth: true },
    )
    .patch(
      "/users/me/subscriptions/:stream_id",
      async ({ args, me, params }) => {
        const streamId = pathInt(params.stream_id, "stream_id");
        const p = args.read(SubscriptionPropertyUpdateArgs);
        await updateSubscriptionProperties(app, me, [{ stream_id: streamId, property: p.property, value: parsePropertyValue(p.value) }]);
        return args.success();
      },
      { auth: true },
    )
    .post(
      "/users/me/subscriptions/properties",
      async ({ args, me }) => {
        const p = args.read(SubscriptionPropertiesBulkArgs);
        await updateSubscriptionProperties(app, me, p.subscription_data);
        return args.success();
      },
      { auth: true },
    )
    .get(
      "/users/:user_id/subscriptions/:stream_id",
      async ({ args, me, params }) => {
        const userId = pathInt(params.user_id, "user_id");
        const streamId = pathInt(params.stream_id, "stream_id");
        return args.success({ is_subscribed: await subscriptionStatus(app, me, userId, streamId) });
      },
      { auth: true },
    );
