import { realmOf, type App } from "../../app";
import { channelAccess } from "../channel-access";
import { formatContext } from "../channel-data";
import { hasMetadataAccess } from "../../domain/channel-permissions";
import { streamDict, subscriptionDict, withInheritedNotifications } from "../../domain/channel-format";
import { userSettings } from "../../domain/user-settings";
import { listStreams, type StreamRow } from "../../store/streams";
import { listUserSubscriptionRows, mapSubscriberIds, type SubscriptionRow } from "../../store/subscriptions";
import type { UserRow } from "../../store/users";
import type { StateOptions } from ".";

/**
 * `subscription` initial state: the user's subscriptions, the channels they left (still visible)
 * and the visible channels they never joined. Archived channels only for clients that declare
 * the archived_channels capability; unset notification settings as the user's global ones for clients
 * without notification_settings_null. A handful of queries whatever the number of channels.
 */
export async function subscriptionState(app: App, me: UserRow, opts: StateOptions) {
  const withArchived = Boolean(opts.clientCapabilities.archived_channels);
  const streams = (await listStreams(app.db, realmOf(app).id)).filter((s) => withArchived || !s.is_archived);
  const rows = new Map((await listUserSubscriptionRows(app.db, me.id)).map((r) => [r.stream_id, r]));
  const visible = streams.filter((s) => hasMetadataAccess(channelAccess(app, me, s, Boolean(rows.get(s.id)?.active))));
  const [ctx, subscribers] = await Promise.all([
    formatContext(app, app.db, visible),
    opts.includeSubscribers ? mapSubscriberIds(app.db, visible.map((s) => s.id)) : Promise.resolve(undefined),
  ]);
  const globals = opts.clientCapabilities.notification_settings_null ? null : (userSettings(me) as Record<string, unknown>);
  const subscription = (s: StreamRow, row: SubscriptionRow, subs?: number[]) => {
    const dict = subscriptionDict(s, row, ctx, subs);
    return globals ? withInheritedNotifications(dict, globals) : dict;
  };
  const subscriptions = [];
  const unsubscribed = [];
  const neverSubscribed = [];
  for (const s of visible) {
    const row = rows.get(s.id);
    const subs = subscribers?.get(s.id);
    if (row?.active) subscriptions.push(subscription(s, row, subs));
    else if (row) unsubscribed.push(subscription(s, row, subs));
    else neverSubscribed.push(subs ? { ...streamDict(s, ctx), subscribers: subs } : streamDict(s, ctx));
  }
  return { subscriptions, unsubscribed, never_subscribed: neverSubscribed };
}
