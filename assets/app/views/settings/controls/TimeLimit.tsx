/**
 * A time limit in seconds, or none (null), as Zulip offers it: any time, 2 minutes, 10 minutes, an hour,
 * a day, a week, or a custom number of minutes with its own Save.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { SaveError, SaveStatus, useId, useSaver } from "./save";
import { customSeconds, limitChoice, TIME_LIMITS, type Limits } from "./values";

interface Props {
  label: ComponentChildren;
  value: number | null;
  onSave(seconds: number | null): Promise<unknown>;
  disabled?: boolean;
  /** the label of "no limit" (Zulip says "Any time" for most, "No limit" for some) */
  noneLabel?: string;
  /** other choices than Zulip's time limits (an email delay); null among them is "none" */
  choices?: Limits;
}

export function TimeLimit({ label, value, onSave, disabled, noneLabel, choices = TIME_LIMITS }: Props) {
  const saver = useSaver();
  const id = useId("limit");
  const [custom, setCustom] = useState(limitChoice(value, choices) === "custom");
  const [minutes, setMinutes] = useState(value === null ? "" : String(Math.round(value / 60)));
  useEffect(() => {
    setCustom(limitChoice(value, choices) === "custom");
    setMinutes(value === null ? "" : String(Math.round(value / 60)));
  }, [value]);
  const busy = saver.state.kind === "saving";
  const choice = custom ? "custom" : limitChoice(value, choices);
  const saveCustom = (e: Event) => {
    e.preventDefault();
    const seconds = customSeconds(minutes);
    if (typeof seconds === "string") return saver.refuse(seconds);
    void saver.run(() => onSave(seconds));
  };
  return (
    <div class="setting limit-setting">
      <label for={id}>{label}</label>
      <div class="setting-row">
        <select
          id={id}
          value={choice}
          disabled={disabled || busy}
          aria-describedby={saver.state.kind === "error" ? `${id}-error` : undefined}
          onChange={(e) => {
            const v = e.currentTarget.value;
            if (v === "custom") return setCustom(true);
            setCustom(false);
            e.currentTarget.value = limitChoice(value, choices);
            void saver.run(() => onSave(v === "null" ? null : Number(v)));
          }}
        >
          {choices.map((l) => (
            <option key={String(l.seconds)} value={String(l.seconds)}>
              {l.seconds === null && noneLabel ? noneLabel : l.label}
            </option>
          ))}
          <option value="custom">Custom</option>
        </select>
        <SaveStatus state={saver.state} />
      </div>
      {custom && (
        <form class="setting-row custom-limit" onSubmit={saveCustom}>
          <label for={`${id}-minutes`}>Minutes</label>
          <input id={`${id}-minutes`} type="number" min={1} step={1} inputMode="numeric" value={minutes} disabled={disabled || busy} onInput={(e) => setMinutes(e.currentTarget.value)} />
          <button type="submit" class="button" disabled={disabled || busy}>
            Save
          </button>
        </form>
      )}
      <SaveError state={saver.state} id={`${id}-error`} />
    </div>
  );
}
