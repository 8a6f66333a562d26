import type { App } from "../../app";
import {
  emojisetChoices,
  LEGACY_DISPLAY_SETTINGS,
  LEGACY_NOTIFICATION_SETTINGS,
  NOTIFICATION_SOUNDS,
  userSettings,
} from "../../domain/user-settings";
import type { UserRow } from "../../store/users";
import { realmUserDefaults } from "../settings";
import type { StateOptions } from "./options";

const sounds = () => [...NOTIFICATION_SOUNDS];

/** `user_settings` initial state: every personal setting, the time zone, and the choices clients offer. */
export function userSettingsState(_app: App, me: UserRow) {
  return { user_settings: { ...userSettings(me), emojiset_choices: emojisetChoices(), available_notification_sounds: sounds() } };
}

const pick = (me: UserRow, names: ReadonlySet<string>) => {
  const all = userSettings(me) as Record<string, unknown>;
  return Object.fromEntries([...names].map((n) => [n, all[n]]));
};

/** Legacy top-level display settings, for clients without the user_settings_object capability. */
export function legacyDisplaySettingsState(_app: App, me: UserRow, opts: StateOptions) {
  if (opts.clientCapabilities.user_settings_object) return {};
  return { ...pick(me, LEGACY_DISPLAY_SETTINGS), emojiset_choices: emojisetChoices(), timezone: me.timezone };
}

/** Legacy top-level notification settings, for clients without the user_settings_object capability. */
export function legacyNotificationSettingsState(_app: App, me: UserRow, opts: StateOptions) {
  if (opts.clientCapabilities.user_settings_object) return {};
  return { ...pick(me, LEGACY_NOTIFICATION_SETTINGS), available_notification_sounds: sounds() };
}

/** `realm_user_settings_defaults` initial state. */
export async function realmUserSettingsDefaultsState(app: App) {
  return { realm_user_settings_defaults: { ...(await realmUserDefaults(app)), emojiset_choices: emojisetChoices(), available_notification_sounds: sounds() } };
}
