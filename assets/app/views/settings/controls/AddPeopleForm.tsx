/** A person picker with Add (a channel's subscribers, a group's members): the server's refusal under it. */
import { useState } from "preact/hooks";
import { describeError } from "../../../api/http";
import { PersonField } from "./PersonField";

export function AddPeopleForm({ label, add }: { label: string; add: (userIds: number[]) => Promise<unknown> }) {
  const [chosen, setChosen] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = (e: Event) => {
    e.preventDefault();
    if (!chosen.length) return setError("Choose someone to add first.");
    setBusy(true);
    setError(null);
    add(chosen)
      .then(() => setChosen([]))
      .catch((err) => setError(describeError(err)))
      .finally(() => setBusy(false));
  };
  return (
    <form class="setting add-subscribers" onSubmit={submit}>
      <PersonField label={label} chosen={chosen} onChange={setChosen} />
      <button type="submit" class="button primary" disabled={busy}>
        Add
      </button>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
