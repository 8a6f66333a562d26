/** A labelled switch that saves on change. */
import type { ComponentChildren } from "preact";
import { SaveError, SaveStatus, useId, useSaver } from "./save";

interface Props {
  label: ComponentChildren;
  checked: boolean;
  onSave(next: boolean): Promise<unknown>;
  disabled?: boolean;
  /** a line under the label */
  hint?: ComponentChildren;
  name?: string;
}

export function Toggle({ label, checked, onSave, disabled, hint, name }: Props) {
  const saver = useSaver();
  const errorId = useId("toggle-error");
  const hintId = useId("toggle-hint");
  const busy = saver.state.kind === "saving";
  return (
    <div class="setting toggle-setting">
      <label class="check">
        <input
          type="checkbox"
          role="switch"
          name={name}
          checked={checked}
          disabled={disabled || busy}
          aria-describedby={[hint ? hintId : "", saver.state.kind === "error" ? errorId : ""].join(" ").trim() || undefined}
          onChange={(e) => {
            const next = e.currentTarget.checked;
            // the store decides what is shown: back to its value until the event brings the new one
            e.currentTarget.checked = checked;
            void saver.run(() => onSave(next));
          }}
        />
        <span>{label}</span>
        <SaveStatus state={saver.state} />
      </label>
      {hint && (
        <p class="setting-hint" id={hintId}>
          {hint}
        </p>
      )}
      <SaveError state={saver.state} id={errorId} />
    </div>
  );
}
