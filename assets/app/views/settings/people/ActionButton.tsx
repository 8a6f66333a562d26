/** A button whose action's refusal shows beside it (nothing changes when the server says no). */
import { useState } from "preact/hooks";
import { describeError } from "../../../api/http";

export function ActionButton({ label, aria, run, kind = "subtle" }: { label: string; aria?: string; run(): Promise<unknown>; kind?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const click = () => {
    setBusy(true);
    setError(null);
    run()
      .catch((e) => setError(describeError(e)))
      .finally(() => setBusy(false));
  };
  return (
    <span class="action-with-error">
      <button type="button" class={`button ${kind}`} aria-label={aria} disabled={busy} onClick={click}>
        {label}
      </button>
      {error && (
        <span class="field-error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
