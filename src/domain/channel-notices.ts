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

/** Zulip's names of the channel access policies. */
export const POLICY_NAMES: Record<ChannelKind, string> = {
  web_public: "Web-public",
  public: "Public",
  private_shared_history: "Private, shared history",
  private_protected_history: "Private, protected history",
};

export const renamedNotice = (actor: { id: number; full_name: string }, oldName: string, newName: string) =>
  `${silentMention(actor)} renamed channel **${oldName}** to **${newName}**.`;

export function descriptionChangedNotice(actor: { id: number; full_name: string }, oldText: string, newText: string): string {
  const show = (t: string) => (t === "" ? "*No description.*" : t);
  return (
    `${silentMention(actor)} changed the description for this channel.\n\n` +
    `* **Old description:**\n\`\`\`\` quote\n${show(oldText)}\n\`\`\`\`\n` +
    `* **New description:**\n\`\`\`\` quote\n${show(newText)}\n\`\`\`\``
  );
}

export const accessChangedNotice = (actor: { id: number; full_name: string }, from: ChannelKind, to: ChannelKind) =>
  `${silentMention(actor)} changed the [access permissions](/help/channel-permissions) for this channel from **${POLICY_NAMES[from]}** to **${POLICY_NAMES[to]}**.`;

export const archivedNotice = (name: string) => `Channel ${channelLink(name)} has been archived.`;
export const unarchivedNotice = (name: string) => `Channel ${channelLink(name)} has been unarchived.`;

/** Retention change; null days means the organization's setting, given as `realmDays`. */
export function retentionChangedNotice(actor: { id: number; full_name: string }, oldDays: number | null, newDays: number | null, realmDays: number): string {
  const from = oldDays ?? realmDays;
  const to = newDays ?? realmDays;
  const period = (d: number) => (d === -1 ? "Forever" : `${d} days`);
  const summary =
    to === -1 ? "Messages in this channel will now be retained forever." : `Messages in this channel will now be automatically deleted ${to} days after they are sent.`;
  return (
    `${silentMention(actor)} has changed the [message retention period](/help/message-retention-policy) for this channel:\n` +
    `* **Old retention period**: ${period(from)}\n* **New retention period**: ${period(to)}\n\n${summary}`
  );
}

export function topicsPolicyChangedNotice(actor: { id: number; full_name: string }, from: string, to: string, emptyTopicName: string): string {
  const label: Record<string, string> = {
    inherit: "Automatic",
    allow_empty_topic: `*${emptyTopicName}* topic allowed`,
    disable_empty_topic: `No *${emptyTopicName}* topic`,
    empty_topic_only: `Only *${emptyTopicName}* topic allowed`,
  };
  return `${silentMention(actor)} changed the "Allow posting to the *${emptyTopicName}* topic?" setting from **${label[from]}** to **${label[to]}**.`;
}

/** Who holds a group-setting value, as silent mentions: groups first (by id), then users (by id). */
export function settingHoldersText(groups: { name: string }[], users: { id: number; full_name: string }[]): string {
  return [...groups.map((g) => `@_*${g.name}*`), ...users.map(silentMention)].join(", ");
}

export const postingPermissionChangedNotice = (actor: { id: number; full_name: string }, oldHolders: string, newHolders: string) =>
  `${silentMention(actor)} changed the [posting permissions](/help/channel-posting-policy) for this channel:\n\n* **Old**: ${oldHolders}\n* **New**: ${newHolders}\n`;
