/**
 * Organization settings (Zulip's organization-settings page): notifications and announcements, the
 * message feed and topics, compose, and other settings, grouped as Zulip groups them.
 */
import { canAdministerOrg } from "../../../state/permissions";
import { state } from "../../../state/store";
import { OrgFieldGroup, ReadOnlyNote, type OrgField } from "./fields";

const NOTIFICATIONS: OrgField[] = [
  { kind: "channel", name: "new_stream_announcements_stream_id", label: "New channel announcements" },
  { kind: "channel", name: "signup_announcements_stream_id", label: "New user announcements" },
  { kind: "channel", name: "zulip_update_announcements_stream_id", label: "Parley update announcements" },
  { kind: "toggle", name: "send_welcome_emails", label: "Send emails introducing Parley to new users" },
  { kind: "toggle", name: "message_content_allowed_in_email_notifications", label: "Allow message content in message notification emails" },
  { kind: "toggle", name: "digest_emails_enabled", label: "Send weekly digest emails to inactive users" },
  {
    kind: "select",
    name: "digest_weekday",
    label: "Day of the week to send digests",
    choices: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"].map((label, value) => ({ value, label })),
  },
  { kind: "text", name: "welcome_message_custom_text", label: "Custom text for the welcome message", multiline: true, maxLength: 8000 },
];

const FEED: OrgField[] = [
  {
    kind: "select",
    name: "topics_policy",
    label: "Messages without a topic",
    choices: [
      { value: "allow_empty_topic", label: "Allowed: they go to the general chat topic" },
      { value: "disable_empty_topic", label: "Not allowed: every message needs a topic" },
    ],
  },
  { kind: "text", name: "empty_topic_display_name", label: "Name of the topic for messages without one", maxLength: 60 },
  { kind: "toggle", name: "inline_image_preview", label: "Show previews of uploaded and linked images" },
  { kind: "toggle", name: "inline_url_embed_preview", label: "Show previews of linked websites" },
  { kind: "toggle", name: "enable_read_receipts", label: "Enable read receipts" },
];

const COMPOSE: OrgField[] = [
  {
    kind: "select",
    name: "video_chat_provider",
    label: "Call provider",
    choices: [
      { value: 0, label: "None" },
      { value: 1, label: "Jitsi Meet" },
      { value: 3, label: "Zoom" },
      { value: 4, label: "BigBlueButton" },
    ],
  },
  {
    kind: "select",
    name: "giphy_rating",
    label: "GIPHY integration",
    choices: [
      { value: 0, label: "Disabled" },
      { value: 1, label: "Rated Y" },
      { value: 2, label: "Rated G" },
      { value: 3, label: "Rated PG" },
    ],
  },
  { kind: "text", name: "default_code_block_language", label: "Default language for code blocks", maxLength: 50, hint: "A Pygments name such as python; empty for none." },
];

const OTHER: OrgField[] = [
  {
    kind: "number",
    name: "message_retention_days",
    label: "Message retention period (days)",
    unlimitedWord: "forever",
    hint: 'Messages older than this are deleted; "forever" keeps them.',
  },
  { kind: "toggle", name: "want_advertise_in_communities_directory", label: "Advertise the organization in a communities directory" },
];

export function OrgSettings() {
  return (
    <div class="settings-section">
      <ReadOnlyNote editable={canAdministerOrg(state.value!)} />
      <OrgFieldGroup title="Notifications and announcements" fields={NOTIFICATIONS} />
      <OrgFieldGroup title="Message feed" fields={FEED} />
      <OrgFieldGroup title="Compose" fields={COMPOSE} />
      <OrgFieldGroup title="Other settings" fields={OTHER} />
    </div>
  );
}
