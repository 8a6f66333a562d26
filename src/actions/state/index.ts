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
import { legacyDisplaySettingsState, legacyNotificationSettingsState, realmUserSettingsDefaultsState, userSettingsState } from "./user-settings";
import { userStatusState } from "./user-status";
import { mutedUsersState } from "./muted-users";
import { draftsState } from "./drafts";
import { savedSnippetsState } from "./saved-snippets";
import { linkifiersState, realmFiltersState } from "./linkifiers";
import * as misc from "./misc";
import type { StateFetcher } from "./options";

export type { StateFetcher, StateOptions } from "./options";
import { scheduledMessagesState } from "./scheduled-messages";
import { defaultStreamGroupsState } from "../default-stream-groups";


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
  user_settings: userSettingsState,
  update_display_settings: legacyDisplaySettingsState,
  update_global_notifications: legacyNotificationSettingsState,
  realm_user_settings_defaults: realmUserSettingsDefaultsState,
  user_status: userStatusState,
  muted_users: mutedUsersState,
  drafts: draftsState,
  saved_snippets: savedSnippetsState,
  realm_linkifiers: linkifiersState,
  realm_filters: realmFiltersState,
  onboarding_steps: misc.onboardingStepsState,
  realm_domains: misc.realmDomainsState,
  default_stream_groups: defaultStreamGroupsState,
  video_calls: misc.videoCallsState,
  giphy: misc.giphyState,
  stop_words: misc.stopWordsState,
  realm_embedded_bots: misc.embeddedBotsState,
  realm_incoming_webhook_bots: misc.incomingWebhookBotsState,
  realm_billing: misc.realmBillingState,
  scheduled_messages: scheduledMessagesState,
};
