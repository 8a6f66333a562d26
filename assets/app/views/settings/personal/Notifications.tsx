/**
 * Notifications (Zulip's settings_notifications): the table of switches, a row per kind of message
 * (channels, direct messages and mentions, followed topics) and a column per way (desktop, sound, mobile,
 * email, @-all mentions), then this browser's permission and the sound, mobile and email details, and
 * which topics follow or unmute themselves. Every switch is saved with PATCH /settings.
 */
import { askPermission, permission, testNotification } from "../../../notify/desktop";
import { webPushSupported } from "../../../notify/service-worker";
import { playSound } from "../../../notify/sound";
import { realm, settings } from "../../../state/store";
import type { Settings } from "../../../state/types";
import { SaveError, SaveStatus, Select, TimeLimit, Toggle, useSaver } from "../controls";
import { saveSetting } from "./save-setting";

type Flag = { [K in keyof Settings]: Settings[K] extends boolean ? K : never }[keyof Settings];

const COLUMNS = ["Desktop", "Sound", "Mobile", "Email", "@all mentions"] as const;

/** Zulip's table: each kind's setting per column (null: not a choice for that kind). */
export const TABLE: { kind: string; flags: (Flag | null)[] }[] = [
  { kind: "Channels", flags: ["enable_stream_desktop_notifications", "enable_stream_audible_notifications", "enable_stream_push_notifications", "enable_stream_email_notifications", null] },
  { kind: "Direct messages, mentions and alerts", flags: ["enable_desktop_notifications", "enable_sounds", "enable_offline_push_notifications", "enable_offline_email_notifications", "wildcard_mentions_notify"] },
  {
    kind: "Followed topics",
    flags: [
      "enable_followed_topic_desktop_notifications",
      "enable_followed_topic_audible_notifications",
      "enable_followed_topic_push_notifications",
      "enable_followed_topic_email_notifications",
      "enable_followed_topic_wildcard_mentions_notify",
    ],
  },
];

/** Zulip's choices for the email batching period (seconds). */
export const BATCHING = [
  { seconds: 120, label: "2 minutes" },
  { seconds: 300, label: "5 minutes" },
  { seconds: 600, label: "10 minutes" },
  { seconds: 1800, label: "30 minutes" },
  { seconds: 3600, label: "1 hour" },
  { seconds: 21600, label: "6 hours" },
  { seconds: 86400, label: "1 day" },
  { seconds: 604800, label: "1 week" },
];

/** Zulip's automatic topic visibility policies. */
const AUTOMATIC = [
  { value: 1, label: "Topics I start" },
  { value: 2, label: "Topics I send a message to" },
  { value: 3, label: "Topics I participate in" },
  { value: 4, label: "Never" },
];

const REALM_NAME_IN_EMAILS = [
  { value: 1, label: "Automatic" },
  { value: 2, label: "Always" },
  { value: 3, label: "Never" },
];

function Cell({ flag, label }: { flag: Flag; label: string }) {
  const saver = useSaver();
  const on = settings.value[flag] as boolean;
  return (
    <td>
      <input
        type="checkbox"
        name={flag}
        aria-label={label}
        checked={on}
        disabled={saver.state.kind === "saving"}
        onChange={(e) => {
          e.currentTarget.checked = on;
          void saver.run(() => saveSetting(flag)(!on));
        }}
      />
      <SaveStatus state={saver.state.kind === "saved" ? { kind: "saved", message: "✓" } : saver.state} />
      <SaveError state={saver.state} />
    </td>
  );
}

function BrowserPermission() {
  const p = permission.value;
  if (p === "unsupported") return <p class="setting-hint">This browser cannot show desktop notifications.</p>;
  if (p === "denied") return <p class="setting-hint">This browser blocks Parley's notifications: allow them in the site settings of your browser.</p>;
  if (p === "default") {
    return (
      <p>
        <button type="button" class="button primary" onClick={() => void askPermission()}>
          Allow notifications in this browser
        </button>
      </p>
    );
  }
  return (
    <p class="setting-hint">
      This browser shows Parley's notifications.{" "}
      <button type="button" class="link-button" onClick={testNotification}>
        Send a test notification
      </button>
    </p>
  );
}

export function Notifications() {
  const s = settings.value;
  const sounds = realm.value.notification_sounds;
  return (
    <div class="settings-section">
      <div class="table-scroll">
        <table class="settings-table notification-table">
          <caption class="visually-hidden">Notifications by kind of message</caption>
          <thead>
            <tr>
              <th scope="col">Notify me of</th>
              {COLUMNS.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {TABLE.map((row) => (
              <tr key={row.kind}>
                <th scope="row">{row.kind}</th>
                {row.flags.map((flag, i) => (flag ? <Cell key={flag} flag={flag} label={`${COLUMNS[i]} notifications for ${row.kind.toLowerCase()}`} /> : <td key={i} />))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="setting-hint">A channel's own notification settings, where set, override the first row.</p>
      <h3>Desktop</h3>
      <BrowserPermission />
      <Toggle label="Show the text of direct messages in desktop notifications" checked={s.pm_content_in_desktop_notifications} onSave={saveSetting("pm_content_in_desktop_notifications")} />
      <div class="setting-row sound-setting">
        <div>
          <Select
            label="Notification sound"
            name="notification_sound"
            value={s.notification_sound}
            choices={[{ value: "none", label: "None" }, ...sounds.map((x) => ({ value: x, label: x[0]!.toUpperCase() + x.slice(1) }))]}
            onSave={saveSetting("notification_sound")}
          />
        </div>
        <button type="button" class="button subtle" disabled={s.notification_sound === "none"} onClick={() => playSound(s.notification_sound)}>
          Play
        </button>
      </div>
      <h3>Mobile</h3>
      <p class="muted-text">
        {webPushSupported()
          ? "Mobile notifications also reach this browser and your installed Parley app (Web Push) when no Parley window is open, once this browser shows Parley's notifications."
          : "This browser cannot receive push notifications; the Zulip mobile apps can."}
      </p>
      <Toggle label="Send mobile notifications even when I'm online" checked={s.enable_online_push_notifications} onSave={saveSetting("enable_online_push_notifications")} />
      <h3>Email</h3>
      <TimeLimit
        label="Delay before sending message notification emails"
        value={s.email_notifications_batching_period_seconds}
        choices={BATCHING}
        onSave={(v) => saveSetting("email_notifications_batching_period_seconds")(v ?? 120)}
      />
      <Toggle label="Include the message's text in notification emails" checked={s.message_content_in_email_notifications} onSave={saveSetting("message_content_in_email_notifications")} />
      <Select label="Name the organization in the subject of notification emails" value={s.realm_name_in_email_notifications_policy} choices={REALM_NAME_IN_EMAILS} onSave={saveSetting("realm_name_in_email_notifications_policy")} />
      <Toggle label="Send digest emails when I'm away" checked={s.enable_digest_emails} onSave={saveSetting("enable_digest_emails")} />
      <Toggle label="Send me an email when my account is logged into from a new device" checked={s.enable_login_emails} onSave={saveSetting("enable_login_emails")} />
      <h3>Topics</h3>
      <Select label="Automatically follow topics" value={s.automatically_follow_topics_policy} choices={AUTOMATIC} onSave={saveSetting("automatically_follow_topics_policy")} />
      <Toggle label="Automatically follow topics where I'm mentioned" checked={s.automatically_follow_topics_where_mentioned} onSave={saveSetting("automatically_follow_topics_where_mentioned")} />
      <Select label="Automatically unmute topics in muted channels" value={s.automatically_unmute_topics_in_muted_streams_policy} choices={AUTOMATIC} onSave={saveSetting("automatically_unmute_topics_in_muted_streams_policy")} />
    </div>
  );
}
