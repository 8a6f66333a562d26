/** The menus of a topic and of a channel: reading, muting, following, pinning. */
import { describeError } from "../api/http";
import { markChannelRead, markTopicRead, setSubscriptionProperty, setTopicPolicy } from "../api/calls";
import { POLICY, topicPolicy } from "../state/user-topics";
import { subscriptions, userTopics } from "../state/store";
import { CheckIcon, FollowIcon, GearIcon, MuteIcon, StarIcon } from "./icons";
import { navigate } from "../nav/router";
import { MenuButton, type MenuItem } from "./Menu";
import { showNotice } from "./Notice";
import { topicActions } from "./message-actions";

/** Runs an action, telling the person when it failed. */
export const attempt = (what: string, action: () => Promise<unknown>) => () =>
  void action().catch((e) => showNotice(`Could not ${what}: ${describeError(e)}`));

export function topicMenuItems(streamId: number, topic: string): MenuItem[] {
  const policy = topicPolicy({ user_topics: userTopics.value }, streamId, topic);
  const channelMuted = !!subscriptions.value[streamId]?.is_muted;
  const set = (p: number, what: string) => attempt(what, () => setTopicPolicy(streamId, topic, p));
  const items: MenuItem[] = [{ label: "Mark topic as read", icon: <CheckIcon size={16} />, onSelect: attempt("mark the topic as read", () => markTopicRead(streamId, topic)) }];
  if (policy === POLICY.followed) items.push({ label: "Unfollow topic", icon: <FollowIcon size={16} />, onSelect: set(POLICY.inherit, "unfollow the topic") });
  else items.push({ label: "Follow topic", icon: <FollowIcon size={16} />, onSelect: set(POLICY.followed, "follow the topic") });
  if (channelMuted) {
    if (policy === POLICY.unmuted) items.push({ label: "Mute topic", icon: <MuteIcon size={16} />, onSelect: set(POLICY.inherit, "mute the topic") });
    else items.push({ label: "Unmute topic", icon: <MuteIcon size={16} />, onSelect: set(POLICY.unmuted, "unmute the topic") });
  } else if (policy === POLICY.muted) {
    items.push({ label: "Unmute topic", icon: <MuteIcon size={16} />, onSelect: set(POLICY.inherit, "unmute the topic") });
  } else {
    items.push({ label: "Mute topic", icon: <MuteIcon size={16} />, onSelect: set(POLICY.muted, "mute the topic") });
  }
  return [...items, ...topicActions(streamId, topic)];
}

export function channelMenuItems(streamId: number): MenuItem[] {
  const sub = subscriptions.value[streamId];
  const items: MenuItem[] = [{ label: "Mark channel as read", icon: <CheckIcon size={16} />, onSelect: attempt("mark the channel as read", () => markChannelRead(streamId)) }];
  if (sub) {
    items.push({
      label: sub.is_muted ? "Unmute channel" : "Mute channel",
      icon: <MuteIcon size={16} />,
      onSelect: attempt(sub.is_muted ? "unmute the channel" : "mute the channel", () => setSubscriptionProperty(streamId, "is_muted", !sub.is_muted)),
    });
    items.push({
      label: sub.pin_to_top ? "Unpin channel" : "Pin channel to top",
      icon: <StarIcon size={16} />,
      onSelect: attempt("pin the channel", () => setSubscriptionProperty(streamId, "pin_to_top", !sub.pin_to_top)),
    });
  }
  items.push({ label: "Channel settings", icon: <GearIcon size={16} />, onSelect: () => navigate({ kind: "channel-settings", stream_id: streamId, section: "general" }) });
  return items;
}

export const TopicMenu = ({ streamId, topic, displayName }: { streamId: number; topic: string; displayName: string }) => (
  <MenuButton label={`Topic actions for ${displayName}`} items={() => topicMenuItems(streamId, topic)} class="row-menu" alignEnd />
);

export const ChannelMenu = ({ streamId, name }: { streamId: number; name: string }) => (
  <MenuButton label={`Channel actions for ${name}`} items={() => channelMenuItems(streamId)} class="row-menu" alignEnd />
);
