/**
 * Organization permissions (Zulip's organization-permissions page): who may join, create channels and
 * groups, send direct messages, move, edit and delete messages, and the rest, as group pickers and time
 * limits grouped as Zulip groups them. Some are the owners' alone (the server refuses administrators).
 */
import { canAdministerOrg } from "../../../state/permissions";
import { state } from "../../../state/store";
import type { State } from "../../../state/types";
import { OrgFieldGroup, ReadOnlyNote, WITHOUT_EVERYONE, WITHOUT_EVERYONE_OR_NOBODY, type OrgField } from "./fields";

const JOINING: OrgField[] = [
  { kind: "toggle", name: "invite_required", label: "Invitations are required for joining the organization" },
  { kind: "group", name: "can_invite_users_group", label: "Who can send email invitations to new users", roles: WITHOUT_EVERYONE },
  { kind: "group", name: "create_multiuse_invite_group", label: "Who can create reusable invitation links", roles: WITHOUT_EVERYONE },
  { kind: "toggle", name: "emails_restricted_to_domains", label: "Restrict email addresses of new users to the organization's domains" },
  { kind: "toggle", name: "disallow_disposable_email_addresses", label: "Don't allow disposable email addresses" },
  { kind: "number", name: "waiting_period_threshold", label: "Waiting period before new members turn into full members (days)" },
];

/** Zulip's settings_org: the switch is off where the server does not allow web-public channels. */
const webPublicOff = (s: State) => (s.realm.web_public_channels_enabled ? null : "Web-public channels are turned off for this server (the owner's Server page).");

const ACCESS: OrgField[] = [
  { kind: "group", name: "can_access_all_users_group", label: "Who can view all other users in the organization", roles: ["role:everyone", "role:members"] },
];

const CHANNELS: OrgField[] = [
  // Zulip's order: public, then the spectator switch and who may create web-public ones, then private
  { kind: "group", name: "can_create_public_channel_group", label: "Who can create public channels", roles: WITHOUT_EVERYONE },
  { kind: "toggle", name: "enable_spectator_access", label: "Allow creating web-public channels (visible to anyone on the Internet)", unavailable: webPublicOff },
  { kind: "group", name: "can_create_web_public_channel_group", label: "Who can create web-public channels", roles: ["role:moderators", "role:administrators", "role:owners", "role:nobody"] },
  { kind: "group", name: "can_create_private_channel_group", label: "Who can create private channels", roles: WITHOUT_EVERYONE },
  { kind: "group", name: "can_add_subscribers_group", label: "Who can subscribe others to channels", roles: WITHOUT_EVERYONE },
  { kind: "group", name: "can_mention_many_users_group", label: "Who can notify a large number of users with a wildcard mention" },
];

const GROUPS: OrgField[] = [
  { kind: "group", name: "can_manage_all_groups", label: "Who can administer all user groups", roles: WITHOUT_EVERYONE_OR_NOBODY },
  { kind: "group", name: "can_create_groups", label: "Who can create user groups", roles: WITHOUT_EVERYONE },
];

const DIRECT: OrgField[] = [
  { kind: "group", name: "direct_message_permission_group", label: "Who can authorize a direct message conversation" },
  { kind: "group", name: "direct_message_initiator_group", label: "Who can start a direct message conversation" },
];

const MOVING: OrgField[] = [
  { kind: "group", name: "can_move_messages_between_topics_group", label: "Who can move messages to another topic" },
  { kind: "limit", name: "move_messages_within_stream_limit_seconds", label: "Time limit for moving messages between topics", noneLabel: "No limit" },
  { kind: "group", name: "can_move_messages_between_channels_group", label: "Who can move messages to another channel", roles: WITHOUT_EVERYONE },
  { kind: "limit", name: "move_messages_between_streams_limit_seconds", label: "Time limit for moving messages between channels", noneLabel: "No limit" },
  { kind: "group", name: "can_resolve_topics_group", label: "Who can resolve topics" },
  { kind: "group", name: "can_set_topics_policy_group", label: "Who can set the topics policy of a channel" },
];

const EDITING: OrgField[] = [
  { kind: "toggle", name: "allow_message_editing", label: "Allow message editing" },
  { kind: "limit", name: "message_content_edit_limit_seconds", label: "Time limit for editing messages" },
  {
    kind: "select",
    name: "message_edit_history_visibility_policy",
    label: "Message edit history",
    choices: [
      { value: "all", label: "Show edits and moves" },
      { value: "moves", label: "Move history only" },
      { value: "none", label: "Don't allow" },
    ],
  },
];

const DELETING: OrgField[] = [
  { kind: "group", name: "can_delete_any_message_group", label: "Who can delete any message", roles: WITHOUT_EVERYONE },
  { kind: "group", name: "can_delete_own_message_group", label: "Who can delete their own messages" },
  { kind: "limit", name: "message_content_delete_limit_seconds", label: "Time limit for deleting messages" },
  { kind: "group", name: "can_set_delete_message_policy_group", label: "Who can allow deleting messages in a channel", roles: WITHOUT_EVERYONE },
];

const IDENTITY: OrgField[] = [
  { kind: "toggle", name: "require_unique_names", label: "Require unique names" },
  { kind: "toggle", name: "name_changes_disabled", label: "Prevent users from changing their name" },
  { kind: "toggle", name: "email_changes_disabled", label: "Prevent users from changing their email address" },
  { kind: "toggle", name: "avatar_changes_disabled", label: "Prevent users from changing their avatar" },
];

const GUESTS: OrgField[] = [
  { kind: "toggle", name: "enable_guest_user_indicator", label: "Display “(guest)” after names of guest users" },
  { kind: "toggle", name: "enable_guest_user_dm_warning", label: "Warn when composing a DM to a guest" },
];

const OTHER: OrgField[] = [
  { kind: "group", name: "can_add_custom_emoji_group", label: "Who can add custom emoji", roles: WITHOUT_EVERYONE },
  { kind: "group", name: "can_create_bots_group", label: "Who can create any bot", roles: WITHOUT_EVERYONE },
  { kind: "group", name: "can_create_write_only_bots_group", label: "Who can create bots that send messages into Parley", roles: WITHOUT_EVERYONE },
  { kind: "group", name: "can_summarize_topics_group", label: "Who can use AI summaries" },
  { kind: "group", name: "can_manage_billing_group", label: "Who can manage plans and billing", roles: WITHOUT_EVERYONE_OR_NOBODY },
];

export function OrgPermissions() {
  return (
    <div class="settings-section">
      <ReadOnlyNote editable={canAdministerOrg(state.value!)} />
      <OrgFieldGroup title="Joining the organization" fields={JOINING} />
      <OrgFieldGroup title="Who can access the organization" fields={ACCESS} />
      <OrgFieldGroup title="Channel permissions" fields={CHANNELS} />
      <OrgFieldGroup title="Group permissions" fields={GROUPS} />
      <OrgFieldGroup title="Direct message permissions" fields={DIRECT} />
      <OrgFieldGroup title="Moving messages" fields={MOVING} />
      <OrgFieldGroup title="Message editing" fields={EDITING} />
      <OrgFieldGroup title="Message deletion" fields={DELETING} />
      <OrgFieldGroup title="User identity" fields={IDENTITY} />
      <OrgFieldGroup title="Guests" fields={GUESTS} />
      <OrgFieldGroup title="Other permissions" fields={OTHER} />
    </div>
  );
}
