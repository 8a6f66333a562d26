/**
 * Asks, once, whether Parley may show desktop notifications (browsers want that question to come from
 * the person's click, never on load). "Not now" hides it in this browser; the settings keep the button.
 */
import { signal } from "@preact/signals";
import { askPermission, permission } from "../notify/desktop";
import { settings } from "../state/store";
import { BellIcon } from "./icons";

const KEY = "parley.notification-banner";
const dismissed = signal(localStorage.getItem(KEY) === "dismissed");

export function NotificationBanner() {
  if (dismissed.value || permission.value !== "default" || !settings.value.enable_desktop_notifications) return null;
  const dismiss = () => {
    localStorage.setItem(KEY, "dismissed");
    dismissed.value = true;
  };
  return (
    <div class="banner notification-banner" role="region" aria-label="Desktop notifications">
      <BellIcon size={16} />
      <span>Parley needs your permission to show desktop notifications.</span>
      <button type="button" class="button primary small" onClick={() => void askPermission()}>
        Enable notifications
      </button>
      <button type="button" class="link-button" onClick={dismiss}>
        Not now
      </button>
    </div>
  );
}
