import { realmOf, type App } from "../../app";
import { channelAccess } from "../channel-access";
import { formatContext } from "../channel-data";
import { hasMetadataAccess } from "../../domain/channel-permissions";
import { streamDict, subscriptionDict, withInheritedNotifications } from "../../domain/channel-format";
import { userSettings } from "../../domain/user-settings";
import { pickColor } from "../../domain/stream-colors";
import { readableBySpectators } from "../../domain/channel-permissions";
import { listStreams, type StreamRow } from "../../store/streams";
import { listUserSubscriptionRows, mapSubscriberIds, type SubscriptionRow } from "../../store/subscriptions";
import type { UserRow } from "../../store/users";
import type { StateOptions } from "./options";

/**
 * `subscription` initial state: the user's subscriptions, the channels they left (still visible)
 * and the visible channels they never joined. Archived channels only for clients that declare
 * the archived_channels capability; unset notification settings as the user's global ones for clients
 * without notification_settings_null. A handful of queries whatever the number of channels.
 */
export async function subscriptionState(app: App, me: UserRow, opts: StateOptions) {
  // spectators never see archived channels (Zulip's get_web_public_subs)
  const withArchived = Boolean(opts.clientCapabilities.archived_channels) && !opts.spectator;
  const streams = (await listStreams(app.db, realmOf(app).id)).filter((s) => withArchived || !s.is_archived);
  // a spectator is "subscribed" to the web-public channels, with a new subscription's defaults (Zulip's get_web_public_subs)
  const rows = opts.spectator ? spectatorRows(streams) : new Map((await listUserSubscriptionRows(app.db, me.id)).map((r) => [r.stream_id, r]));
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

/** A spectator's subscriptions: the channels they read, as a new subscriber would have them. */
function spectatorRows(streams: StreamRow[]): Map<number, SubscriptionRow> {
  const used = new Set<string>();
  const rows = new Map<number, SubscriptionRow>();
  for (const s of streams) {
    if (!readableBySpectators(s)) continue;
    rows.set(s.id, {
      user_id: 0,
      stream_id: s.id,
      active: 1,
      color: pickColor(used),
      is_muted: 0,
      pin_to_top: 0,
      desktop_notifications: null,
      audible_notifications: null,
      push_notifications: null,
      email_notifications: null,
      wildcard_mentions_notify: null,
    });
  }
  return rows;
}
