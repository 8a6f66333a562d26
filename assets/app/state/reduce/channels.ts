/** subscription and stream events: the channels the person sees and their own settings for them. */
import { sortedIds, toChannel, toGroupSetting, toSubscription } from "../from-register";
import { CHANNEL_PERMISSIONS, type Channel, type State, type Subscription } from "../types";
import { withKey, without } from "./records";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const CHANNEL_FIELDS = ["name", "description", "invite_only", "is_web_public", "is_archived", "history_public_to_subscribers", "folder_id", "message_retention_days"] as const;
const SUBSCRIPTION_FIELDS = [
  "color",
  "is_muted",
  "pin_to_top",
  "desktop_notifications",
  "audible_notifications",
  "wildcard_mentions_notify",
  "push_notifications",
  "email_notifications",
] as const;

export function onSubscription(state: State, e: Json): State {
  switch (e.op) {
    case "add": {
      let channels = state.channels;
      let subscriptions = state.subscriptions;
      let subscribers = state.subscribers;
      for (const s of e.subscriptions) {
        channels = withKey(channels, s.stream_id, toChannel(s));
        subscriptions = withKey(subscriptions, s.stream_id, toSubscription(s));
        subscribers = withKey(subscribers, s.stream_id, sortedIds([...(s.subscribers ?? subscribers[s.stream_id] ?? []), state.me]));
      }
      return { ...state, channels, subscriptions, subscribers };
    }
    case "remove": {
      const ids: number[] = e.subscriptions.map((s: Json) => s.stream_id);
      return { ...state, subscriptions: without(state.subscriptions, ...ids), subscribers: changePeers(state, ids, [state.me], false) };
    }
    case "peer_add":
    case "peer_remove":
      return { ...state, subscribers: changePeers(state, e.stream_ids, e.user_ids, e.op === "peer_add") };
    case "update": {
      const sub = state.subscriptions[e.stream_id];
      // in_home_view is is_muted's old, inverted name
      const property = e.property === "in_home_view" ? "is_muted" : e.property;
      const value = e.property === "in_home_view" ? !e.value : e.value;
      if (!sub || !(SUBSCRIPTION_FIELDS as readonly string[]).includes(property)) return state;
      return { ...state, subscriptions: withKey(state.subscriptions, e.stream_id, { ...sub, [property]: value }) };
    }
    default:
      return state;
  }
}

/** The channels' subscriber lists with people added or taken away (only for channels the person knows of). */
function changePeers(state: State, streamIds: readonly number[], userIds: readonly number[], add: boolean): State["subscribers"] {
  let subscribers = state.subscribers;
  for (const id of streamIds) {
    if (!state.channels[id]) continue;
    const before = subscribers[id] ?? [];
    const after = add ? sortedIds([...before, ...userIds]) : before.filter((u) => !userIds.includes(u));
    subscribers = withKey(subscribers, id, after);
  }
  return subscribers;
}

function updateChannel(state: State, id: number, patch: Partial<Channel>): State {
  const ch = state.channels[id];
  const sub = state.subscriptions[id];
  return {
    ...state,
    channels: ch ? withKey(state.channels, id, { ...ch, ...patch }) : state.channels,
    subscriptions: sub ? withKey(state.subscriptions, id, { ...sub, ...patch } as Subscription) : state.subscriptions,
  };
}

export function onStream(state: State, e: Json): State {
  switch (e.op) {
    case "create": {
      let channels = state.channels;
      let subscribers = state.subscribers;
      for (const s of e.streams) {
        channels = withKey(channels, s.stream_id, toChannel(s));
        // a channel new to the person: its subscribers follow as peer_add (or in the subscription)
        if (!subscribers[s.stream_id]) subscribers = withKey(subscribers, s.stream_id, sortedIds(s.subscribers));
      }
      return { ...state, channels, subscribers };
    }
    case "delete": {
      const ids: number[] = e.stream_ids ?? e.streams.map((s: Json) => s.stream_id);
      return { ...state, channels: without(state.channels, ...ids), subscriptions: without(state.subscriptions, ...ids), subscribers: without(state.subscribers, ...ids) };
    }
    case "update": {
      if ((CHANNEL_PERMISSIONS as readonly string[]).includes(e.property)) return updateChannel(state, e.stream_id, { [e.property]: toGroupSetting(e.value) });
      if (!(CHANNEL_FIELDS as readonly string[]).includes(e.property)) return state;
      // a privacy change carries the channel's other two privacy fields with it
      const patch: Partial<Channel> = { [e.property]: e.value };
      if (e.property === "invite_only") {
        if (e.history_public_to_subscribers !== undefined) patch.history_public_to_subscribers = e.history_public_to_subscribers;
        if (e.is_web_public !== undefined) patch.is_web_public = e.is_web_public;
      }
      return updateChannel(state, e.stream_id, patch);
    }
    default:
      return state;
  }
}
