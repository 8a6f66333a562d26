/** The person's own settings for a channel: colour, mute, pin, and its notification switches. */
import { useState } from "preact/hooks";
import { setSubscription, type SubscriptionProperty } from "../../../api/settings-calls";
import { settings, subscriptions } from "../../../state/store";
import type { Settings, Subscription } from "../../../state/types";
import { SaveError, SaveStatus, Toggle, useId, useSaver } from "../controls";

/** Each switch, and the general setting it follows while the channel's own choice is unset (null). */
const NOTIFY: { property: SubscriptionProperty & keyof Subscription; label: string; general: (s: Settings) => boolean }[] = [
  { property: "desktop_notifications", label: "Desktop notifications", general: (s) => s.enable_stream_desktop_notifications },
  { property: "audible_notifications", label: "Audible desktop notifications", general: (s) => s.enable_stream_audible_notifications },
  { property: "push_notifications", label: "Mobile notifications", general: (s) => !!(s as unknown as Record<string, boolean>).enable_stream_push_notifications },
  { property: "email_notifications", label: "Email notifications", general: (s) => !!(s as unknown as Record<string, boolean>).enable_stream_email_notifications },
  { property: "wildcard_mentions_notify", label: "Notify for @all, @everyone and @topic mentions", general: (s) => s.wildcard_mentions_notify },
];

function ColorField({ streamId, color }: { streamId: number; color: string }) {
  const saver = useSaver();
  const id = useId("channel-color");
  const [value, setValue] = useState(color);
  return (
    <div class="setting color-setting">
      <label for={id}>Channel color</label>
      <div class="setting-row">
        <input id={id} type="color" value={value} onInput={(e) => setValue(e.currentTarget.value)} onChange={(e) => void saver.run(() => setSubscription(streamId, "color", e.currentTarget.value)).then((ok) => ok || setValue(color))} />
        <SaveStatus state={saver.state} />
      </div>
      <SaveError state={saver.state} />
    </div>
  );
}

export function Personal({ streamId }: { streamId: number }) {
  const sub = subscriptions.value[streamId];
  if (!sub) return <p class="muted-text">Subscribe to this channel to choose your own settings for it.</p>;
  const general = settings.value;
  return (
    <div class="settings-form">
      <ColorField key={sub.color} streamId={streamId} color={sub.color} />
      <Toggle label="Mute channel" name="is_muted" checked={sub.is_muted} onSave={(v) => setSubscription(streamId, "is_muted", v)} />
      <Toggle label="Pin channel to top of left sidebar" name="pin_to_top" checked={sub.pin_to_top} onSave={(v) => setSubscription(streamId, "pin_to_top", v)} />
      <h3 class="settings-subhead">Notifications</h3>
      <p class="setting-hint">Unless changed here, each follows your general notification settings.</p>
      {NOTIFY.map((n) => (
        <Toggle key={n.property} label={n.label} name={n.property} checked={(sub[n.property] as boolean | null | undefined) ?? n.general(general)} onSave={(v) => setSubscription(streamId, n.property, v)} />
      ))}
    </div>
  );
}
