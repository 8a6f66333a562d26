import { realmOf, type App } from "../app";
import { REALM_GROUP_SETTING_DEFAULTS } from "../domain/realm-settings";
import { listAnonymousGroupsOf, listNamedGroups } from "../store/groups";
import { CHANNEL_GROUP_SETTING_NAMES, listStreams, listStreamsByIds } from "../store/streams";
import { listUserSubscriptionRows } from "../store/subscriptions";
import { metadataAudiences } from "./channel-data";
import { groupSettingApiValues } from "./group-settings";

// Events that a user's deactivation or reactivation causes beyond realm_user: deactivated users are
// no channel's subscribers and in no group, as far as clients are concerned (Zulip 10).

/**
 * peer_remove (deactivation) or peer_add (reactivation) for each channel the user is subscribed to,
 * to those who may know of the channel, except `exclude` (users deactivated together).
 */
export async function publishPeerEventsForMember(app: App, userId: number, op: "peer_add" | "peer_remove", exclude: ReadonlySet<number> = new Set()): Promise<void> {
  const subscribed = (await listUserSubscriptionRows(app.db, userId)).filter((r) => r.active).map((r) => r.stream_id);
  // archived channels too: clients that keep them (archived_channels) show their subscribers
  const streams = await listStreamsByIds(app.db, subscribed);
  if (!streams.length) return;
  const knows = await metadataAudiences(app, app.db, streams);
  for (const st of streams) {
    const to = (knows.get(st.id) ?? []).filter((u) => u !== userId && !exclude.has(u));
    app.events.publish({ type: "subscription", op, stream_ids: [st.id], user_ids: [userId] }, to);
  }
}

/**
 * The events that tell clients a user's (de)activation changed setting values: a deactivated user is
 * in no group, so every anonymous group value naming them directly reads differently (Zulip 10,
 * feature level 303). Realm settings become realm update_dict events and named groups' settings
 * user_group update events, for all of `audience`; channels' settings stream update events, for
 * those of `audience` who may know of the channel. Who is the audience: everyone on reactivation; on
 * deactivation only those who cannot see the user (the rest learn it from realm_user and drop the
 * user themselves).
 */
export async function publishSettingEventsForMember(app: App, userId: number, audience: number[]): Promise<void> {
  if (!audience.length) return;
  const realm = realmOf(app);
  const anonymous = new Set(await listAnonymousGroupsOf(app.db, userId));
  if (!anonymous.size) return;
  const values = await groupSettingApiValues(app.db, [...anonymous]);
  for (const [name, value] of Object.entries(realm.settings)) {
    if (name in REALM_GROUP_SETTING_DEFAULTS && typeof value === "number" && anonymous.has(value)) {
      app.events.publish({ type: "realm", op: "update_dict", property: "default", data: { [name]: values.get(value) } }, audience);
    }
  }
  for (const g of await listNamedGroups(app.db, realm.id, true)) {
    const settings = JSON.parse(g.settings || "{}") as Record<string, unknown>;
    const data: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(settings)) if (typeof value === "number" && anonymous.has(value)) data[name] = values.get(value);
    if (Object.keys(data).length) app.events.publish({ type: "user_group", op: "update", group_id: g.id, data }, audience);
  }
  const streams = (await listStreams(app.db, realm.id)).filter((st) => CHANNEL_GROUP_SETTING_NAMES.some((name) => anonymous.has(st[name])));
  if (!streams.length) return;
  const knows = await metadataAudiences(app, app.db, streams);
  const wanted = new Set(audience);
  for (const st of streams) {
    const to = (knows.get(st.id) ?? []).filter((u) => wanted.has(u));
    for (const name of CHANNEL_GROUP_SETTING_NAMES) {
      if (anonymous.has(st[name])) app.events.publish({ type: "stream", op: "update", stream_id: st.id, name: st.name, property: name, value: values.get(st[name]) }, to);
    }
  }
}
