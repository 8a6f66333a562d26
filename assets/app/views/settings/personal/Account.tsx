/**
 * Account & privacy (Zulip's settings_account): the email address where the organization allows changing
 * it (a confirmation link goes to the new one), the password, the API key after the password is entered
 * again (and a new one, and a zuliprc to download), deactivating one's own account, and the privacy
 * switches: typing notices, read receipts, availability, who sees the address.
 */
import { openPasswordDialog } from "../../dialog-openers";
import { api } from "../../../api/http";
import { isAdmin } from "../../../state/permissions";
import { me, realm, settings, state, users } from "../../../state/store";
import { ConfirmDialog, openDialog } from "../../Dialog";
import { Select, TextField, Toggle } from "../controls";
import { ApiKey } from "./ApiKey";
import { saveSetting } from "./save-setting";

/** Zulip's email_address_visibility values, in its order. */
export const EMAIL_VISIBILITY = [
  { value: 1, label: "Admins, moderators, members and guests" },
  { value: 2, label: "Admins, moderators and members" },
  { value: 5, label: "Admins and moderators" },
  { value: 3, label: "Admins only" },
  { value: 4, label: "Nobody" },
] as const;

/** PATCH /settings with a new address: the server sends the confirmation link (or refuses, or does not know the parameter). */
async function changeEmail(email: string): Promise<string> {
  const r = await api<{ ignored_parameters_unsupported?: string[] }>("PATCH", "/settings", { email });
  if (r.ignored_parameters_unsupported?.includes("email")) throw new Error("This server cannot change email addresses.");
  return `Check ${email} for a confirmation link: the new address takes effect once it is confirmed.`;
}


function deactivate(): void {
  openDialog(() => (
    <ConfirmDialog title="Deactivate your account?" confirmLabel="Deactivate" danger onConfirm={() => api("DELETE", "/users/me")}>
      <p>You will be logged out at once and will not be able to log in again. Only an administrator can reactivate your account.</p>
    </ConfirmDialog>
  ));
}

export function Account() {
  const s = state.value!;
  const set = settings.value;
  const admin = isAdmin(s);
  const emailLocked = realm.value.email_changes_disabled && !admin;
  const bot = users.value[me.value]?.is_bot;
  return (
    <div class="settings-section">
      <h3>Account</h3>
      <TextField
        label="Email"
        type="email"
        name="email"
        autocomplete="email"
        value={s.delivery_email}
        disabled={emailLocked}
        hint={emailLocked ? "Your organization's administrators have turned off email address changes." : undefined}
        check={(v) => (/^[^@\s]+@[^@\s]+$/.test(v.trim()) ? null : "Enter an email address.")}
        resetAfterSave
        onSave={(v) => changeEmail(v.trim())}
      />
      <div class="setting">
        <span class="setting-label">Password</span>
        <div class="setting-row">
          <button type="button" class="button" onClick={openPasswordDialog}>
            Change your password
          </button>
        </div>
      </div>
      <ApiKey />
      {!bot && (
        <div class="setting">
          <span class="setting-label">Deactivate account</span>
          <div class="setting-row">
            <button type="button" class="button danger" onClick={deactivate}>
              Deactivate your account
            </button>
          </div>
        </div>
      )}
      <h3>Privacy</h3>
      <Toggle label="Let recipients see when I'm typing direct messages" checked={set.send_private_typing_notifications} onSave={saveSetting("send_private_typing_notifications")} />
      <Toggle label="Let others see when I'm typing messages in channels" checked={set.send_stream_typing_notifications} onSave={saveSetting("send_stream_typing_notifications")} />
      {realm.value.enable_read_receipts && <Toggle label="Let others see when I've read messages" checked={set.send_read_receipts} onSave={saveSetting("send_read_receipts")} />}
      {!realm.value.presence_disabled && <Toggle label="Display my availability to other users" checked={set.presence_enabled} onSave={saveSetting("presence_enabled")} />}
      <Select label="Who can access your email address" value={set.email_address_visibility} choices={EMAIL_VISIBILITY} onSave={saveSetting("email_address_visibility")} />
    </div>
  );
}
