import { realmOf, type App } from "../app";
import { isAdmin } from "../domain/roles";
import {
  isValidTimezone,
  LANGUAGES,
  LEGACY_DISPLAY_SETTINGS,
  LEGACY_NOTIFICATION_SETTINGS,
  parseStoredSettings,
  settingProblem,
  settingsOver,
  storedSettingsJson,
  type SettingValue,
  type UserSettingName,
} from "../domain/user-settings";
import { fullNameProblem, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../domain/validate";
import { adminRequired, badRequest } from "../errors";
import { deleteAllDrafts } from "../store/drafts";
import { deleteOtherSessions } from "../store/sessions";
import {
  findRealmUserDefaults,
  findUserSettings,
  saveRealmUserDefaults,
  updatePasswordHash,
  updateUserSettings,
  updateUserTimezone,
} from "../store/settings";
import { listActiveUserIds, type UserRow } from "../store/users";
import { emailVisibilityChanged } from "./email-visibility";
import { presenceEnabledChanged } from "./presence";
import { usersWhoCanAccess } from "./user-access";
import { changeFullName } from "./user-updates";
import { own } from "../lib/own";

export type SettingChanges = Partial<Record<UserSettingName, SettingValue>>;

export interface SettingsUpdate {
  settings: SettingChanges;
  fullName?: string;
  timezone?: string;
  oldPassword?: string;
  newPassword?: string;
  /** the caller's web session: a new password ends every other one (as Zulip's does), not this one */
  currentSession?: string | null;
}

function checkSettings(changes: SettingChanges): void {
  for (const [name, value] of Object.entries(changes)) {
    const problem = settingProblem(name as UserSettingName, value!);
    if (problem) throw badRequest(problem);
  }
}

/**
 * PATCH /settings (and its legacy aliases): validates everything first, changes only what differs
 * in one transaction, then one `user_settings` event per changed setting (plus the legacy
 * update_display_settings / update_global_notifications events, which queues declaring
 * user_settings_object never get), and for the time zone a realm_user update to everyone who sees the user.
 * A new full name goes through the users area's rename (ignored, as in Zulip, when the organization
 * disabled name changes and the user is not an administrator).
 */
export async function updateSettings(app: App, me: UserRow, input: SettingsUpdate): Promise<void> {
  checkSettings(input.settings);
  const rename = input.fullName !== undefined && input.fullName.trim() !== me.full_name && (!realmOf(app).settings.name_changes_disabled || isAdmin(me.role));
  if (rename) {
    const problem = fullNameProblem(input.fullName!);
    if (problem) throw badRequest(problem);
  }
  if (input.timezone !== undefined && !isValidTimezone(input.timezone)) throw badRequest(`Invalid timezone '${input.timezone}'`);
  let passwordHash: string | undefined;
  if (input.newPassword !== undefined) {
    const ok = me.password_hash !== null && input.oldPassword !== undefined && (await Bun.password.verify(input.oldPassword, me.password_hash).catch(() => false));
    if (!ok) throw badRequest("Wrong password!");
    if (input.newPassword.length < MIN_PASSWORD_LENGTH || input.newPassword.length > MAX_PASSWORD_LENGTH) throw badRequest("New password is too weak!");
    passwordHash = await Bun.password.hash(input.newPassword, { algorithm: "argon2id" });
  }
  const { changed, timezoneChanged } = await app.db.tx(async (sql) => {
    const row = (await findUserSettings(sql, me.id))!;
    const stored = parseStoredSettings(row.settings);
    const effective = settingsOver(stored);
    const changed = Object.entries(input.settings).filter(([k, v]) => effective[k as UserSettingName] !== v) as [UserSettingName, SettingValue][];
    if (changed.length) await updateUserSettings(sql, me.id, storedSettingsJson(stored, Object.fromEntries(changed)));
    // Turning draft synchronization off deletes the server's copies (without events: clients keep theirs).
    if (changed.some(([k, v]) => k === "enable_drafts_synchronization" && v === false)) await deleteAllDrafts(sql, me.id);
    const timezoneChanged = input.timezone !== undefined && input.timezone !== row.timezone;
    if (timezoneChanged) await updateUserTimezone(sql, me.id, input.timezone!);
    if (passwordHash) {
      await updatePasswordHash(sql, me.id, passwordHash);
      await deleteOtherSessions(sql, me.id, input.currentSession ?? null);
    }
    return { changed, timezoneChanged };
  });
  for (const [name, value] of changed) publishSettingChange(app, me, name, value);
  const presence = changed.find(([k]) => k === "presence_enabled");
  if (presence) await presenceEnabledChanged(app, me, presence[1] as boolean);
  if (changed.some(([k]) => k === "email_address_visibility")) await emailVisibilityChanged(app, me);
  if (rename) await changeFullName(app, me, input.fullName!);
  if (timezoneChanged) {
    publishSettingChange(app, me, "timezone", input.timezone!);
    const person = { user_id: me.id, email: me.email, timezone: input.timezone! };
    app.events.publish({ type: "realm_user", op: "update", person }, await usersWhoCanAccess(app, me.id));
  }
}

/** The user's own events for one changed setting: the modern one and, for pre-5.0 settings, the legacy one. */
function publishSettingChange(app: App, me: UserRow, name: string, value: SettingValue): void {
  const languageName = name === "default_language" ? { language_name: own(LANGUAGES, value as string) ?? String(value) } : {};
  app.events.publish({ type: "user_settings", op: "update", property: name, value, ...languageName }, [me.id]);
  if (LEGACY_NOTIFICATION_SETTINGS.has(name)) {
    app.events.publish({ type: "update_global_notifications", user: me.email, notification_name: name, setting: value }, [me.id]);
  }
  if (LEGACY_DISPLAY_SETTINGS.has(name) || name === "timezone") {
    app.events.publish({ type: "update_display_settings", user: me.email, setting_name: name, setting: value, ...languageName }, [me.id]);
  }
}

/** The organization's defaults for new users' personal settings (every setting, Zulip's defaults filled in). */
export async function realmUserDefaults(app: App): Promise<Record<UserSettingName, SettingValue>> {
  return settingsOver(parseStoredSettings(await findRealmUserDefaults(app.db, realmOf(app).id)));
}

/**
 * PATCH /realm/user_settings_defaults (administrators): what new users start with. Existing users keep
 * their settings (the defaults are copied into a user's row when it is created). One
 * `realm_user_settings_defaults` event per changed setting, to every active user.
 */
export async function updateRealmUserDefaults(app: App, actor: UserRow, changes: SettingChanges): Promise<void> {
  if (!isAdmin(actor.role)) throw adminRequired();
  checkSettings(changes);
  const realm = realmOf(app);
  const changed = await app.db.tx(async (sql) => {
    const stored = parseStoredSettings(await findRealmUserDefaults(sql, realm.id));
    const effective = settingsOver(stored);
    const changed = Object.entries(changes).filter(([k, v]) => effective[k as UserSettingName] !== v) as [UserSettingName, SettingValue][];
    if (changed.length) await saveRealmUserDefaults(sql, realm.id, storedSettingsJson(stored, Object.fromEntries(changed)));
    return changed;
  });
  if (!changed.length) return;
  const everyone = await listActiveUserIds(app.db, realm.id);
  for (const [property, value] of changed) app.events.publish({ type: "realm_user_settings_defaults", op: "update", property, value }, everyone);
}
