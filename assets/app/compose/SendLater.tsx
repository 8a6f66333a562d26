/**
 * "Send later": the menu beside Send (suggested times, a time of one's own), and while a scheduled
 * message is being edited, "Send now" and new times for it.
 */
import { signal } from "@preact/signals";
import { useEffect, useRef, useState } from "preact/hooks";
import { settings } from "../state/store";
import { MenuButton, type MenuItem } from "../views/Menu";
import { CalendarIcon, ChevronDownIcon } from "../views/icons-writing";
import { SendIcon } from "../views/icons";
import { fromLocalInput, sendLaterOptions, toLocalInput } from "./send-later";
import { scheduleCompose, sendEditedNow } from "./scheduled";
import { compose } from "./state";

const customOpen = signal(false);

function items(): MenuItem[] {
  const editing = compose.scheduled.value;
  const options = sendLaterOptions(new Date(), settings.value.twenty_four_hour_time).map((o) => ({
    label: o.label,
    icon: <CalendarIcon size={16} />,
    onSelect: () => void scheduleCompose(o.at),
  }));
  const custom = { label: "Choose a time…", icon: <CalendarIcon size={16} />, onSelect: () => (customOpen.value = true) };
  return editing ? [{ label: "Send now", icon: <SendIcon size={16} />, onSelect: () => void sendEditedNow() }, ...options, custom] : [...options, custom];
}

export function SendLaterMenu({ disabled }: { disabled: boolean }) {
  return (
    <>
      <MenuButton label={compose.scheduled.value ? "Send now or reschedule" : "Send later"} items={items} class={`send-later ${disabled ? "disabled" : ""}`} alignEnd>
        <ChevronDownIcon size={16} />
      </MenuButton>
      {customOpen.value && <ScheduleDialog />}
    </>
  );
}

/** A time of one's own for the message (a date-time field, at least a few minutes ahead). */
function ScheduleDialog() {
  const editing = compose.scheduled.peek();
  const soon = Math.ceil((Date.now() / 1000 + 3600) / 300) * 300;
  const [value, setValue] = useState(toLocalInput(editing?.at ?? soon));
  const [error, setError] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  const close = () => {
    customOpen.value = false;
    document.querySelector<HTMLTextAreaElement>(".compose-text")?.focus();
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const at = fromLocalInput(value);
    if (at === null) return setError("Choose a date and a time.");
    if (at <= Date.now() / 1000 + 60) return setError("Choose a time in the future.");
    if (await scheduleCompose(at)) close();
    else setError(compose.error.peek() ?? "The message could not be scheduled.");
  };
  return (
    <div class="modal-scrim" onPointerDown={(e) => e.target === e.currentTarget && close()}>
      <div class="modal" role="dialog" aria-modal="true" aria-labelledby="schedule-title" onKeyDown={(e) => e.key === "Escape" && (e.stopPropagation(), close())}>
        <form onSubmit={submit}>
        <h2 id="schedule-title" class="modal-title">
          {editing ? "Reschedule the message" : "Schedule the message"}
        </h2>
        <label class="modal-field">
          <span>Send it on</span>
          <input ref={field} type="datetime-local" value={value} min={toLocalInput(Date.now() / 1000)} onInput={(e) => (setValue(e.currentTarget.value), setError(null))} required />
        </label>
        {error && (
          <p class="compose-error" role="alert">
            {error}
          </p>
        )}
        <div class="modal-actions">
          <button type="button" class="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" class="button primary">
            Schedule
          </button>
        </div>
        </form>
      </div>
    </div>
  );
}
