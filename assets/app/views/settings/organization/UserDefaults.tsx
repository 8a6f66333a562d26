/**
 * Default settings for new users (Zulip's settings_realm_user_settings_defaults.ts): what a person who
 * joins starts with, through PATCH /realm/user_settings_defaults. Enter-to-send is among them: a new
 * organization starts with Enter sending, as people coming from other chat apps expect.
 */
import { updateUserDefaults } from "../../../api/org";
import { canAdministerOrg } from "../../../state/permissions";
import { org, state } from "../../../state/store";
import { Select, Toggle, type Choice } from "../controls";
import { ReadOnlyNote } from "./fields";

type Row = { name: string; label: string; choices?: readonly Choice<string | number | boolean>[] };

const PREFERENCES: Row[] = [
  {
    name: "enter_sends",
    label: "Pressing Enter",
    choices: [
      { value: true, label: "Enter sends, Shift+Enter makes a new line" },
      { value: false, label: "Ctrl+Enter sends, Enter makes a new line" },
    ],
  },
  {
    name: "color_scheme",
    label: "Theme",
    choices: [
      { value: 1, label: "Automatic (follow the system)" },
      { value: 3, label: "Light" },
      { value: 2, label: "Dark" },
    ],
  },
  {
    name: "web_home_view",
    label: "Home view",
    choices: [
      { value: "inbox", label: "Inbox" },
      { value: "recent_topics", label: "Recent conversations" },
      { value: "all_messages", label: "Combined feed" },
    ],
  },
  { name: "twenty_four_hour_time", label: "Time format", choices: [{ value: false, label: "1:00 PM" }, { value: true, label: "13:00" }] },
  {
    name: "web_mark_read_on_scroll_policy",
    label: "Mark messages as read on scroll",
    choices: [
      { value: 1, label: "Always" },
      { value: 2, label: "Only in conversation views" },
      { value: 3, label: "Never" },
    ],
  },
  { name: "starred_message_counts", label: "Show counts for starred messages" },
  { name: "enable_drafts_synchronization", label: "Save drafts on the server" },
];

const PRIVACY: Row[] = [
  { name: "presence_enabled", label: "Display availability to other users" },
  { name: "send_private_typing_notifications", label: "Let recipients see when a user is typing direct messages" },
  { name: "send_stream_typing_notifications", label: "Let recipients see when a user is typing channel messages" },
  { name: "send_read_receipts", label: "Allow others to see when a user has read messages" },
];

const NOTIFICATIONS: Row[] = [
  { name: "enable_desktop_notifications", label: "Desktop notifications for direct messages and mentions" },
  { name: "enable_sounds", label: "Sounds for direct messages and mentions" },
  { name: "enable_stream_desktop_notifications", label: "Desktop notifications for all channel messages" },
  { name: "enable_offline_email_notifications", label: "Email notifications for direct messages and mentions when offline" },
  { name: "enable_offline_push_notifications", label: "Mobile notifications for direct messages and mentions" },
  { name: "wildcard_mentions_notify", label: "Notify for @all, @everyone and @topic mentions" },
  { name: "enable_followed_topic_desktop_notifications", label: "Desktop notifications for followed topics" },
];

function Rows({ title, rows, editable }: { title: string; rows: Row[]; editable: boolean }) {
  const defaults = org.value.user_defaults;
  return (
    <section class="settings-group" aria-label={title}>
      <h3>{title}</h3>
      {rows
        .filter((r) => defaults[r.name] !== undefined)
        .map((r) =>
          r.choices ? (
            <Select key={r.name} name={r.name} label={r.label} value={defaults[r.name] as string | number | boolean} choices={r.choices} disabled={!editable} onSave={(v) => updateUserDefaults({ [r.name]: v })} />
          ) : (
            <Toggle key={r.name} name={r.name} label={r.label} checked={!!defaults[r.name]} disabled={!editable} onSave={(v) => updateUserDefaults({ [r.name]: v })} />
          ),
        )}
    </section>
  );
}

export function UserDefaults() {
  const editable = canAdministerOrg(state.value!);
  return (
    <div class="settings-section">
      <p class="setting-hint">These settings are what people who join from now on start with; each person can change their own.</p>
      <ReadOnlyNote editable={editable} />
      <Rows title="Preferences" rows={PREFERENCES} editable={editable} />
      <Rows title="Privacy" rows={PRIVACY} editable={editable} />
      <Rows title="Notifications" rows={NOTIFICATIONS} editable={editable} />
    </div>
  );
}
