/** subscription and stream events: the channels the person sees and their own settings for them. */
import { toChannel, toGroupSetting, toSubscription } from "../from-register";
import { CHANNEL_PERMISSIONS, type Channel, type State, type Subscription } from "../types";
import { withKey, without } from "./records";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const CHANNEL_FIELDS = ["name", "description", "invite_only", "is_web_public", "is_archived"] as const;
const SUBSCRIPTION_FIELDS = ["color", "is_muted", "pin_to_top", "desktop_notifications", "audible_notifications", "wildcard_mentions_notify"] as const;

export function onSubscription(state: State, e: Json): State {
  switch (e.op) {
    case "add": {
      let channels = state.channels;
      let subscriptions = state.subscriptions;
      for (const s of e.subscriptions) {
        channels = withKey(channels, s.stream_id, toChannel(s));
        subscriptions = withKey(subscriptions, s.stream_id, toSubscription(s));
      }
      return { ...state, channels, subscriptions };
    }
    case "remove":
      return { ...state, subscriptions: without(state.subscriptions, ...e.subscriptions.map((s: Json) => s.stream_id as number)) };
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
      for (const s of e.streams) channels = withKey(channels, s.stream_id, toChannel(s));
      return { ...state, channels };
    }
    case "delete": {
      const ids: number[] = e.stream_ids ?? e.streams.map((s: Json) => s.stream_id);
      return { ...state, channels: without(state.channels, ...ids), subscriptions: without(state.subscriptions, ...ids) };
    }
    case "update": {
      if ((CHANNEL_PERMISSIONS as readonly string[]).includes(e.property)) return updateChannel(state, e.stream_id, { [e.property]: toGroupSetting(e.value) });
      if (!(CHANNEL_FIELDS as readonly string[]).includes(e.property)) return state;
      return updateChannel(state, e.stream_id, { [e.property]: e.value });
    }
    default:
      return state;
  }
}
