import type { App } from "../../app";
import type { UserRow } from "../../store/users";
import { realmState } from "./realm";
import { realmUserState } from "./realm-user";
import { realmBotState } from "./bots";
import { customProfileFieldState } from "./profile-fields";
import { userGroupState } from "./user-groups";
import { playgroundsState } from "./playgrounds";
import { presenceState } from "./presence";
import { subscriptionState } from "./subscriptions";
import { streamState } from "./streams";
import { defaultStreamsState } from "./default-streams";
import { channelFoldersState } from "./channel-folders";
import { realmEmojiState } from "./realm-emoji";

import { messageState, unreadState, starredState, recentConversationsState } from "./messages";
import { userTopicState, mutedTopicsState } from "./user-topics";
import { alertWordsState } from "./alert-words";

export interface StateOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allPublicStreams: boolean;
  includeSubscribers: boolean;
  slimPresence: boolean;
  clientCapabilities: Record<string, boolean>;
}

export type StateFetcher = (app: App, me: UserRow, opts: StateOptions) => Promise<Record<string, unknown>> | Record<string, unknown>;

/**
 * Initial state for /register, keyed by the event type that asks for it (fetch_event_types).
 * Each area adds its fetcher here.
 */
export const STATE_FETCHERS: Record<string, StateFetcher> = {
  realm: realmState,
  realm_user: realmUserState,
  realm_bot: realmBotState,
  custom_profile_fields: customProfileFieldState,
  realm_user_groups: userGroupState,
  realm_playgrounds: playgroundsState,
  presence: presenceState,
  subscription: subscriptionState,
  stream: streamState,
  default_streams: defaultStreamsState,
  channel_folders: channelFoldersState,
  realm_emoji: realmEmojiState,
  message: messageState,
  update_message_flags: unreadState,
  starred_messages: starredState,
  recent_private_conversations: recentConversationsState,
  user_topic: userTopicState,
  muted_topics: mutedTopicsState,
  alert_words: alertWordsState,
};
