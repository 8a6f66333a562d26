import { realmOf, type App } from "../app";
import { sendNotification, sendNotificationDm } from "./messages/notification-bot";
import {
  CHANNEL_EVENTS_TOPIC,
  channelCreatedNotice,
  channelsAnnouncedNotice,
  MAX_BULK_NEW_SUBSCRIPTION_MESSAGES,
  NEW_CHANNELS_TOPIC,
  subscribedYouNotice,
} from "../domain/channel-notices";
import { findStreamById, type StreamRow } from "../store/streams";
import type { UserRow } from "../store/users";

/** The topic of a channel's own notices: "channel events", or the empty topic where only it is allowed. */
export const channelEventsTopic = (stream: Pick<StreamRow, "topics_policy">) => (stream.topics_policy === "empty_topic_only" ? "" : CHANNEL_EVENTS_TOPIC);

/** Posts a Notification Bot notice in a channel's "channel events" topic (born read for `readBy`). */
export async function postChannelNotice(app: App, stream: StreamRow, content: string, readBy?: number[]): Promise<void> {
  await sendNotification(app, stream, channelEventsTopic(stream), content, { readBy });
}

/**
 * Notification Bot's messages after POST /users/me/subscriptions (Zulip's
 * send_messages_for_new_subscribers): "X subscribed you to ..." to each other human newly
 * subscribed to existing channels (unless too many or not wanted), the announcement of new
 * channels in the new-channel announcements channel when `announce` is set, and each new
 * channel's creation notice; these two are already read for the creator, as Zulip sends them
 * with mark_as_read. Answers whether the subscription messages went out.
 */
export async function notifyNewChannels(
  app: App,
  actor: UserRow,
  what: { created: StreamRow[]; added: { user: UserRow; stream: StreamRow }[]; announce: boolean; sendSubscriptionMessages: boolean },
): Promise<boolean> {
  const createdIds = new Set(what.created.map((s) => s.id));
  const perUser = new Map<number, string[]>();
  for (const { user, stream } of what.added) {
    if (user.id === actor.id || user.is_bot || createdIds.has(stream.id)) continue;
    perUser.set(user.id, [...(perUser.get(user.id) ?? []), stream.name]);
  }
  const newSubscribers = new Set(what.added.map((a) => a.user.id)).size;
  const send = what.sendSubscriptionMessages && newSubscribers <= MAX_BULK_NEW_SUBSCRIPTION_MESSAGES;
  if (send) for (const [userId, names] of perUser) await sendNotificationDm(app, [userId], subscribedYouNotice(actor, names));

  if (what.announce && what.created.length) {
    const target = Number(realmOf(app).settings.new_stream_announcements_stream_id);
    const stream = target > 0 ? await findStreamById(app.db, target) : undefined;
    if (stream && !stream.is_archived) await sendNotification(app, stream, NEW_CHANNELS_TOPIC, channelsAnnouncedNotice(what.created.map((s) => s.name), actor), { readBy: [actor.id] });
  }
  for (const stream of what.created) await postChannelNotice(app, stream, channelCreatedNotice(stream, actor), [actor.id]);
  return send;
}
