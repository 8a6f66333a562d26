/**
 * The calls of the channel, people, group and bot settings screens (Zulip's public API). Their results
 * reach the state as events; only what events do not carry (a new bot's key) is returned.
 */
import type { GroupSetting } from "../state/types";
import { api, apiUpload } from "./http";

/** A group-setting change as Zulip's API takes it (`{new: value}`). */
const groupChange = (value: GroupSetting) => ({ new: value });

// Channels

export interface ChannelChange {
  new_name?: string;
  description?: string;
  is_private?: boolean;
  history_public_to_subscribers?: boolean;
  is_web_public?: boolean;
  is_default_stream?: boolean;
  folder_id?: number | null;
  /** "unlimited", "realm_default" or a number of days */
  message_retention_days?: string | number;
  is_archived?: boolean;
}

export const updateChannel = (streamId: number, change: ChannelChange) => api("PATCH", `/streams/${streamId}`, change as Record<string, unknown>);
export const setChannelPermission = (streamId: number, name: string, value: GroupSetting) => api("PATCH", `/streams/${streamId}`, { [name]: groupChange(value) });
export const archiveChannel = (streamId: number) => api("DELETE", `/streams/${streamId}`);

export const subscribePeople = (channelName: string, userIds: number[]) => api("POST", "/users/me/subscriptions", { subscriptions: [{ name: channelName }], principals: userIds });
export const unsubscribePeople = (channelName: string, userIds: number[]) => api("DELETE", "/users/me/subscriptions", { subscriptions: [channelName], principals: userIds });

export type SubscriptionProperty =
  | "color"
  | "is_muted"
  | "pin_to_top"
  | "desktop_notifications"
  | "audible_notifications"
  | "push_notifications"
  | "email_notifications"
  | "wildcard_mentions_notify";
export const setSubscription = (streamId: number, property: SubscriptionProperty, value: unknown) =>
  api("POST", "/users/me/subscriptions/properties", { subscription_data: [{ stream_id: streamId, property, value }] });

// People

export const changeRole = (userId: number, role: number) => api("PATCH", `/users/${userId}`, { role });
/** `comment` (possibly "") sends the person Zulip's notification email; undefined sends none. */
export const deactivatePerson = (userId: number, comment?: string) => api("DELETE", `/users/${userId}`, comment === undefined ? {} : { deactivation_notification_comment: comment });
export const reactivatePerson = (userId: number) => api("POST", `/users/${userId}/reactivate`);
/** Parley's own: an administrator emails a member a password reset link (branch notify's endpoint). */
export const sendPasswordReset = (userId: number) => api("POST", `/users/${userId}/password_reset`);

// User groups

export const createGroup = (name: string, description: string, members: number[]) => api("POST", "/user_groups/create", { name, description, members });
export const updateGroup = (groupId: number, change: { name?: string; description?: string }) => api("PATCH", `/user_groups/${groupId}`, change);
export const setGroupPermission = (groupId: number, name: string, value: GroupSetting) => api("PATCH", `/user_groups/${groupId}`, { [name]: groupChange(value) });
export const changeGroupMembers = (groupId: number, add: number[], remove: number[]) => api("POST", `/user_groups/${groupId}/members`, { add, delete: remove });
export const changeSubgroups = (groupId: number, add: number[], remove: number[]) => api("POST", `/user_groups/${groupId}/subgroups`, { add, delete: remove });
export const deactivateGroup = (groupId: number) => api("POST", `/user_groups/${groupId}/deactivate`);

// Bots

export const createBot = (fullName: string, shortName: string, botType: number, outgoing?: { payloadUrl: string; interfaceType: number }) =>
  api<{ user_id: number; api_key: string }>("POST", "/bots", {
    full_name: fullName,
    short_name: shortName,
    bot_type: botType,
    // Zulip's clients send the URL JSON-encoded
    ...(outgoing ? { payload_url: JSON.stringify(outgoing.payloadUrl), interface_type: outgoing.interfaceType } : {}),
  });
/** A bot's avatar: one image, through PATCH /bots/{id} as Zulip takes it. */
export function setBotAvatar(botId: number, image: File) {
  const form = new FormData();
  form.append("file", image);
  return apiUpload(`/bots/${botId}`, form, "PATCH");
}
export const regenerateBotKey = (botId: number) => api<{ api_key: string }>("POST", `/bots/${botId}/api_key/regenerate`).then((r) => r.api_key);
export const deactivateBot = (botId: number) => api("DELETE", `/bots/${botId}`);
export const renameBot = (botId: number, fullName: string) => api("PATCH", `/bots/${botId}`, { full_name: fullName });

/** A zuliprc for a bot or a person, as Zulip's web app builds it (in the browser, from what it knows). */
export const zuliprc = (email: string, apiKey: string, site: string) => `[api]\nemail=${email}\nkey=${apiKey}\nsite=${site}\n`;

/** Offers a text as a file to save. */
export function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
