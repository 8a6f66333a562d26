/**
 * The client's reducer: the state after one server event. Pure (no DOM, no I/O): a state that began
 * at POST /register and took every event since equals the state of a fresh /register (tested against a
 * live server in test/web/). A new feature handles its event type by adding a line to REDUCERS.
 */
import { onUpdateMessageFlags } from "./reduce/flags";
import { onDeleteMessage, onMessage, onUpdateMessage } from "./reduce/messages";
import { onMutedUsers, onPresence, onRealmUser, onUserStatus } from "./reduce/people";
import { onRealm, onRealmEmoji, onUserGroup, onUserSettings, onUserTopic } from "./reduce/settings";
import { onReaction, onSubmessage } from "./reduce/reactions";
import { onDrafts, onScheduledMessages } from "./reduce/drafts";
import { onStream, onSubscription } from "./reduce/channels";
import { onAlertWords, onSavedSnippets } from "./reduce/account";
import { onChannelFolder, onDefaultStreamGroups, onDefaultStreams, onLinkifiers, onPlaygrounds, onProfileFields, onRealmBot, onRealmSettings, onUserDefaults } from "./reduce/org";
import type { State } from "./types";

/* eslint-disable @typescript-eslint/no-explicit-any */
export type ServerEvent = { type: string; id?: number } & Record<string, any>;

const REDUCERS: Record<string, (state: State, e: ServerEvent) => State> = {
  message: onMessage,
  update_message: onUpdateMessage,
  delete_message: onDeleteMessage,
  update_message_flags: onUpdateMessageFlags,
  subscription: onSubscription,
  stream: onStream,
  realm_user: onRealmUser,
  presence: onPresence,
  user_status: onUserStatus,
  muted_users: onMutedUsers,
  user_settings: onUserSettings,
  user_topic: onUserTopic,
  user_group: onUserGroup,
  realm: (state, e) => onRealmSettings(onRealm(state, e), e),
  realm_emoji: onRealmEmoji,
  reaction: onReaction,
  submessage: onSubmessage,
  drafts: onDrafts,
  scheduled_messages: onScheduledMessages,
  alert_words: onAlertWords,
  saved_snippets: onSavedSnippets,
  realm_bot: onRealmBot,
  default_streams: onDefaultStreams,
  channel_folder: onChannelFolder,
  custom_profile_fields: onProfileFields,
  realm_user_settings_defaults: onUserDefaults,
  realm_linkifiers: onLinkifiers,
  realm_playgrounds: onPlaygrounds,
  default_stream_groups: onDefaultStreamGroups,
};

export function applyEvent(state: State, e: ServerEvent): State {
  const reduce = REDUCERS[e.type];
  return reduce ? reduce(state, e) : state;
}

export const applyEvents = (state: State, events: readonly ServerEvent[]): State => events.reduce(applyEvent, state);
