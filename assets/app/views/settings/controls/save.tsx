/**
 * Saving one control: its state (saving, saved, or the server's refusal), the "Saved" line and the error
 * line beside it. A control shows what the store holds, so after a refusal it shows the old value again
 * (nothing changed); the "Saved" line stays a moment after the server's answer.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { describeError } from "../../../api/http";

export type SaveState = { kind: "idle" } | { kind: "saving" } | { kind: "saved"; message?: string } | { kind: "error"; message: string };

const SAVED_FOR_MS = 2500;

export interface Saver {
  state: SaveState;
  /** sends a change; true when the server took it (a string it resolves to is shown instead of "Saved", and stays) */
  run(send: () => Promise<unknown>): Promise<boolean>;
  /** shows a problem found before sending (nothing sent) */
  refuse(message: string): void;
}

export function useSaver(): Saver {
  const [state, setState] = useState<SaveState>({ kind: "idle" });
  const alive = useRef(true);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(
    () => () => {
      alive.current = false;
      clearTimeout(timer.current);
    },
    [],
  );
  const run = async (send: () => Promise<unknown>) => {
    clearTimeout(timer.current);
    setState({ kind: "saving" });
    try {
      const answer = await send();
      if (!alive.current) return true;
      if (typeof answer === "string") {
        setState({ kind: "saved", message: answer });
        return true;
      }
      setState({ kind: "saved" });
      timer.current = setTimeout(() => alive.current && setState({ kind: "idle" }), SAVED_FOR_MS);
      return true;
    } catch (e) {
      if (alive.current) setState({ kind: "error", message: describeError(e) });
      return false;
    }
  };
  return { state, run, refuse: (message) => setState({ kind: "error", message }) };
}

/** "Saving…" / "Saved" beside a control, announced politely. */
export function SaveStatus({ state }: { state: SaveState }) {
  const text = state.kind === "saving" ? "Saving…" : state.kind === "saved" ? (state.message ?? "Saved") : "";
  return (
    <span class={`save-status ${state.kind}`} role="status">
      {text}
    </span>
  );
}

/** The server's refusal (or a problem found before sending), under the control. */
export function SaveError({ state, id }: { state: SaveState; id?: string }) {
  return state.kind === "error" ? (
    <p class="field-error" role="alert" id={id}>
      {state.message}
    </p>
  ) : null;
}

let counter = 0;
/** An id unique on the page, for labels and descriptions. */
export const useId = (prefix: string) => useRef(`${prefix}-${++counter}`).current;

/** The foot of an add/edit form: its submit button (off while saving), Cancel when editing, and the save lines. */
export function FormActions({ saver, submit, onCancel }: { saver: Saver; submit: string; onCancel?: () => void }) {
  return (
    <>
      <div class="setting-row">
        <button type="submit" class="button primary" disabled={saver.state.kind === "saving"}>
          {submit}
        </button>
        {onCancel && (
          <button type="button" class="button" onClick={onCancel}>
            Cancel
          </button>
        )}
        <SaveStatus state={saver.state} />
      </div>
      <SaveError state={saver.state} />
    </>
  );
}
