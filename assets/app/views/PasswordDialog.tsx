/**
 * Changing one's password (Zulip's Account & privacy → Change your password): the current one, then the
 * new one twice. The server checks the current password and the new one's length; this session stays
 * logged in. Opened from the personal menu; loaded on first use.
 */
import { useState } from "preact/hooks";
import { changePassword } from "../api/calls";
import { describeError } from "../api/http";
import { me, users } from "../state/store";
import { closeDialog, FormDialog } from "./Dialog";
import { showNotice } from "./Notice";

/** Zulip's shortest password (MIN_PASSWORD_LENGTH on the server). */
const MIN_LENGTH = 6;

/** What stops the form from being sent, or null. */
export function passwordProblem(current: string, next: string, again: string): string | null {
  if (!current) return "Enter your current password.";
  if (next.length < MIN_LENGTH) return `The new password needs at least ${MIN_LENGTH} characters.`;
  if (next !== again) return "The new passwords do not match.";
  return null;
}

export function PasswordDialog() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    const problem = passwordProblem(current, next, again);
    if (problem) return setError(problem);
    setBusy(true);
    setError(null);
    try {
      await changePassword(current, next);
      closeDialog();
      showNotice("Your password is changed.");
    } catch (e) {
      setError(describeError(e));
      setBusy(false);
    }
  };

  return (
    <FormDialog
      title="Change your password"
      class="password-dialog"
      initialFocus=".password-current"
      formId="password-form"
      submitLabel="Change password"
      busyLabel="Changing…"
      busy={busy}
      error={error}
      onSubmit={() => void submit()}
    >
      {/* for password managers: whose password this is */}
      <input type="text" autocomplete="username" value={users.peek()[me.peek()]?.email ?? ""} hidden readOnly />
      <label class="field">
        <span>Current password</span>
        <input type="password" class="password-current" autocomplete="current-password" value={current} onInput={(e) => setCurrent(e.currentTarget.value)} />
      </label>
      <label class="field">
        <span>New password</span>
        <input type="password" autocomplete="new-password" value={next} onInput={(e) => setNext(e.currentTarget.value)} />
      </label>
      <label class="field">
        <span>New password again</span>
        <input type="password" autocomplete="new-password" value={again} onInput={(e) => setAgain(e.currentTarget.value)} />
      </label>
    </FormDialog>
  );
}
