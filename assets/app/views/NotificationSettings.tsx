/**
 * The person's notification settings (from the personal menu): desktop notifications and sounds for
 * direct messages and mentions, wildcard mentions, followed topics and all channel messages, the sound,
 * and whether direct messages show their text. Each change is saved to the server (PATCH /settings) and
 * comes back as a user_settings event. The browser's own permission is asked for here. Loaded on first use.
 */
import { updateSetting } from "../api/calls";
import { askPermission, permission, testNotification } from "../notify/desktop";
import { playSound } from "../notify/sound";
import { webPushSupported } from "../notify/service-worker";
import { realm, settings } from "../state/store";
import type { Settings } from "../state/types";
import { Dialog } from "./Dialog";
import { attempt } from "./menus";

type Flag = { [K in keyof Settings]: Settings[K] extends boolean ? K : never }[keyof Settings];

function Toggle({ name, label }: { name: Flag; label: string }) {
  const on = settings.value[name];
  return (
    <label class="check">
      <input type="checkbox" name={name} checked={on} onChange={attempt("save the setting", () => updateSetting(name, !on))} />
      {label}
    </label>
  );
}

function BrowserPermission() {
  const p = permission.value;
  if (p === "unsupported") return <p class="muted-text">This browser cannot show desktop notifications.</p>;
  if (p === "denied") return <p class="muted-text">This browser blocks Parley's notifications: allow them in the site settings of your browser.</p>;
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
    <p class="permission-granted">
      This browser shows Parley's notifications.{" "}
      <button type="button" class="link-button" onClick={testNotification}>
        Send a test notification
      </button>
    </p>
  );
}

export function NotificationSettings() {
  const sound = settings.value.notification_sound;
  const sounds = realm.value.notification_sounds;
  return (
    <Dialog title="Notifications" class="settings-dialog">
      <BrowserPermission />
      <fieldset class="settings-group">
        <legend>Direct messages and mentions</legend>
        <Toggle name="enable_desktop_notifications" label="Desktop notifications" />
        <Toggle name="enable_sounds" label="Sound" />
        <Toggle name="wildcard_mentions_notify" label="Notify for @all, @everyone and @topic mentions" />
        <Toggle name="pm_content_in_desktop_notifications" label="Show the text of direct messages in notifications" />
      </fieldset>
      <fieldset class="settings-group">
        <legend>Followed topics</legend>
        <Toggle name="enable_followed_topic_desktop_notifications" label="Desktop notifications" />
        <Toggle name="enable_followed_topic_audible_notifications" label="Sound" />
        <Toggle name="enable_followed_topic_wildcard_mentions_notify" label="Notify for @all, @everyone and @topic mentions" />
      </fieldset>
      <fieldset class="settings-group">
        <legend>Every message in channels</legend>
        <Toggle name="enable_stream_desktop_notifications" label="Desktop notifications" />
        <Toggle name="enable_stream_audible_notifications" label="Sound" />
        <p class="muted-text">A channel's own notification settings, where set, override these.</p>
      </fieldset>
      <fieldset class="settings-group">
        <legend>When Parley is closed</legend>
        <Toggle name="enable_offline_push_notifications" label="Push notifications to this browser and your installed app" />
        <p class="muted-text">
          {webPushSupported()
            ? "Direct messages and mentions reach you even when no Parley window is open, once this browser shows Parley's notifications."
            : "This browser cannot receive push notifications."}
        </p>
      </fieldset>
      <fieldset class="settings-group">
        <legend>Sound</legend>
        <div class="sound-row">
          <select aria-label="Notification sound" value={sound} onChange={(e) => attempt("save the setting", () => updateSetting("notification_sound", e.currentTarget.value))()}>
            <option value="none">None</option>
            {sounds.map((s) => (
              <option key={s} value={s}>
                {s[0]!.toUpperCase() + s.slice(1)}
              </option>
            ))}
          </select>
          <button type="button" class="button subtle" disabled={sound === "none"} onClick={() => playSound(sound)}>
            Play
          </button>
        </div>
      </fieldset>
    </Dialog>
  );
}
