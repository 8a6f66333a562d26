/**
 * Deactivating a person (Zulip's dialog): their bots are deactivated with them, and they may be told by
 * email, with a comment. The server's refusal shows in the dialog.
 */
import { useState } from "preact/hooks";
import { deactivatePerson } from "../../../api/settings-calls";
import { describeError } from "../../../api/http";
import { state } from "../../../state/store";
import { closeDialog, FormDialog } from "../../Dialog";
import { useId } from "../controls";

export function DeactivateDialog({ userId }: { userId: number }) {
  const s = state.value!;
  const u = s.users[userId]!;
  const bots = Object.values(s.users).filter((b) => b.is_bot && b.is_active && b.bot_owner_id === userId);
  const [notify, setNotify] = useState(false);
  const [comment, setComment] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const notifyId = useId("deactivate-notify");
  const commentId = useId("deactivate-comment");
  const submit = () => {
    setBusy(true);
    setError(null);
    deactivatePerson(userId, notify ? comment : undefined).then(
      () => closeDialog(),
      (e) => {
        setBusy(false);
        setError(describeError(e));
      },
    );
  };
  return (
    <FormDialog title={`Deactivate ${u.full_name}?`} class="deactivate-dialog" formId="deactivate-form" submitLabel="Deactivate" busyLabel="Deactivating…" busy={busy} error={error} onSubmit={submit}>
      <p>They will be logged out at once and can no longer log in. Their messages stay.</p>
      {bots.length > 0 && <p>Their {bots.length === 1 ? "bot" : `${bots.length} bots`} ({bots.map((b) => b.full_name).join(", ")}) will be deactivated too.</p>}
      <label class="check" for={notifyId}>
        <input id={notifyId} type="checkbox" checked={notify} onChange={(e) => setNotify(e.currentTarget.checked)} />
        Notify them by email
      </label>
      {notify && (
        <>
          <label for={commentId}>A note in the email (optional)</label>
          <textarea id={commentId} rows={3} maxLength={2000} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
        </>
      )}
    </FormDialog>
  );
}
