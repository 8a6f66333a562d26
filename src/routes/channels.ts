import { Elysia, t } from "elysia";
import type { App } from "../app";
import { archiveChannel, channelEmailAddress, getChannel, getChannelId, listChannels, listChannelTopics, updateChannel } from "../actions/channels";
import { channelSubscribers } from "../actions/subscriptions";
import { TOPICS_POLICIES } from "../domain/channel-format";
import { GroupSettingUpdateSchema } from "../domain/group-setting";
import { CHANNEL_GROUP_SETTING_NAMES, type ChannelGroupSettingName } from "../store/streams";
import { pathInt } from "../http/params";
import { zulip } from "../http/plugin";

export const TopicsPolicySchema = t.Union(TOPICS_POLICIES.map((p) => t.Literal(p)));

const UpdateArgs = t.Object({
  description: t.Optional(t.String()),
  new_name: t.Optional(t.String()),
  is_private: t.Optional(t.Boolean()),
  is_web_public: t.Optional(t.Boolean()),
  history_public_to_subscribers: t.Optional(t.Boolean()),
  is_default_stream: t.Optional(t.Boolean()),
  message_retention_days: t.Optional(t.Union([t.Integer(), t.String()])),
  is_archived: t.Optional(t.Boolean()),
  folder_id: t.Optional(t.Union([t.Integer(), t.Null()])),
  topics_policy: t.Optional(TopicsPolicySchema),
  ...Object.fromEntries(CHANNEL_GROUP_SETTING_NAMES.map((n) => [n, t.Optional(GroupSettingUpdateSchema)])),
});

const ListArgs = t.Object({
  include_public: t.Boolean({ default: true }),
  include_web_public: t.Boolean({ default: false }),
  include_subscribed: t.Boolean({ default: true }),
  exclude_archived: t.Boolean({ default: true }),
  include_all: t.Boolean({ default: false, aliases: ["include_all_active"] }),
  include_default: t.Boolean({ default: false }),
  include_owner_subscribed: t.Boolean({ default: false }),
  include_can_access_content: t.Boolean({ default: false }),
});

const GetStreamIdArgs = t.Object({ stream: t.String() });
const EmailAddressArgs = t.Object({ sender_id: t.Optional(t.Integer()) });
const StreamTopicsArgs = t.Object({ allow_empty_topic_name: t.Boolean({ default: false }) });

export const channelRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get(
      "/streams",
      async ({ args, me }) => {
        const p = args.read(ListArgs);
        const streams = await listChannels(app, me, {
          includePublic: p.include_public,
          includeWebPublic: p.include_web_public,
          includeSubscribed: p.include_subscribed,
          excludeArchived: p.exclude_archived,
          includeAll: p.include_all,
          includeDefault: p.include_default,
          includeOwnerSubscribed: p.include_owner_subscribed,
          includeCanAccessContent: p.include_can_access_content,
        });
        return args.success({ streams });
      },
      { auth: true },
    )
    .get("/streams/:stream_id", async ({ args, me, params }) => args.success({ stream: await getChannel(app, me, pathInt(params.stream_id, "stream_id")) }), { auth: true })
    .get(
      "/streams/:stream_id/email_address",
      async ({ args, me, params }) => {
        const { sender_id } = args.read(EmailAddressArgs);
        return args.success({ email: await channelEmailAddress(app, me, pathInt(params.stream_id, "stream_id"), sender_id) });
      },
      { auth: true },
    )
    .patch(
      "/streams/:stream_id",
      async ({ args, me, params }) => {
        const streamId = pathInt(params.stream_id, "stream_id");
        const p = args.read(UpdateArgs) as Record<string, any>;
        const groupSettings = Object.fromEntries(CHANNEL_GROUP_SETTING_NAMES.filter((n) => p[n] !== undefined).map((n) => [n, p[n]])) as Record<ChannelGroupSettingName, any>;
        await updateChannel(app, me, streamId, {
          description: p.description,
          newName: p.new_name,
          isPrivate: p.is_private,
          isWebPublic: p.is_web_public,
          historyPublicToSubscribers: p.history_public_to_subscribers,
          isDefaultStream: p.is_default_stream,
          messageRetentionDays: p.message_retention_days,
          isArchived: p.is_archived,
          folderId: p.folder_id,
          topicsPolicy: p.topics_policy,
          groupSettings,
        });
        return args.success();
      },
      { auth: true },
    )
    .delete(
      "/streams/:stream_id",
      async ({ args, me, params }) => {
        await archiveChannel(app, me, pathInt(params.stream_id, "stream_id"));
        return args.success();
      },
      { auth: true },
    )
    .get(
      "/streams/:stream_id/members",
      async ({ args, me, params }) => args.success({ subscribers: await channelSubscribers(app, me, pathInt(params.stream_id, "stream_id")) }),
      { auth: true },
    )
    .get(
      "/get_stream_id",
      async ({ args, me }) => {
        const p = args.read(GetStreamIdArgs);
        return args.success({ stream_id: await getChannelId(app, me, p.stream) });
      },
      { auth: true },
    )
    .get(
      "/users/me/:stream_id/topics",
      async ({ args, me, params }) => {
        const streamId = pathInt(params.stream_id, "stream_id");
        const p = args.read(StreamTopicsArgs);
        return args.success({ topics: await listChannelTopics(app, me, streamId, p.allow_empty_topic_name) });
      },
      { auth: true },
    );
