/** Texts of Notification Bot's channel notices (Zulip's wording). Pure. */
import { channelKind, type ChannelKind } from "./channel-permissions";
import type { StreamRow } from "../store/streams";

/** The topic of a channel's own notices. */
export const CHANNEL_EVENTS_TOPIC = "channel events";
/** The topic of creation announcements in the new-channel announcements channel. */
export const NEW_CHANNELS_TOPIC = "new channels";
/** Beyond this many new subscribers, no "subscribed you" messages are sent. */
export const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES = 100;

export const silentMention = (u: { id: number; full_name: string }) => `@_**${u.full_name}|${u.id}**`;
export const channelLink = (name: string) => `#**${name}**`;

const KIND_LABEL: Record<ChannelKind, string> = {
  web_public: "**Web-public**",
  public: "**Public**",
  private_shared_history: "**Private, shared history**",
  private_protected_history: "**Private, protected history**",
};

/** Posted in a new channel's "channel events" topic. */
export function channelCreatedNotice(stream: Pick<StreamRow, "description" | "invite_only" | "is_web_public" | "history_public_to_subscribers">, creator: { id: number; full_name: string }): string {
  const description = stream.description === "" ? "*No description.*" : stream.description;
  return `${KIND_LABEL[channelKind(stream)]} channel created by ${silentMention(creator)}. **Description:**\n\`\`\`\` quote\n${description}\n\`\`\`\``;
}

/** Posted in the new-channel announcements channel when `announce` is set. */
export function channelsAnnouncedNotice(names: string[], creator: { id: number; full_name: string }): string {
  const links = names.map(channelLink).join(", ");
  return names.length > 1 ? `${silentMention(creator)} created the following channels: ${links}.` : `${silentMention(creator)} created a new channel ${links}.`;
}

/** The direct message to a user someone else subscribed. */
export function subscribedYouNotice(actor: { id: number; full_name: string }, names: string[]): string {
  const sorted = [...names].sort();
  if (sorted.length === 1) return `${silentMention(actor)} subscribed you to ${channelLink(sorted[0]!)}.`;
  return `${silentMention(actor)} subscribed you to the following channels:\n\n${sorted.map((n) => `* ${channelLink(n)}\n`).join("")}`;
}
