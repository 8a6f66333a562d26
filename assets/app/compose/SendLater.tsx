/**
 * "Send later": the menu beside Send (suggested times, a time of one's own), and while a scheduled
 * message is being edited, "Send now" and new times for it.
 */
import { useState } from "preact/hooks";
import { settings } from "../state/store";
import { closeDialog, FormDialog, openDialog } from "../views/Dialog";
import { MenuButton, type MenuItem } from "../views/Menu";
import { CalendarIcon, ChevronDownIcon } from "../views/icons-writing";
import { SendIcon } from "../views/icons";
import { fromLocalInput, sendLaterOptions, toLocalInput } from "./send-later";
import { scheduleCompose, sendEditedNow } from "./scheduled";
import { compose } from "./state";

function items(): MenuItem[] {
  const editing = compose.scheduled.value;
  const options = sendLaterOptions(new Date(), settings.value.twenty_four_hour_time).map((o) => ({
    label: o.label,
    icon: <CalendarIcon size={16} />,
    onSelect: () => void scheduleCompose(o.at),
  }));
  const custom = { label: "Choose a time…", icon: <CalendarIcon size={16} />, onSelect: () => openDialog(() => <ScheduleDialog />) };
  return editing ? [{ label: "Send now", icon: <SendIcon size={16} />, onSelect: () => void sendEditedNow() }, ...options, custom] : [...options, custom];
}

export function SendLaterMenu({ disabled }: { disabled: boolean }) {
  return (
    <MenuButton label={compose.scheduled.value ? "Send now or reschedule" : "Send later"} items={items} class={`send-later ${disabled ? "disabled" : ""}`} alignEnd>
      <ChevronDownIcon size={16} />
    </MenuButton>
  );
}

/** A time of one's own for the message (a date-time field, at least a few minutes ahead). */
function ScheduleDialog() {
  const editing = compose.scheduled.peek();
  const soon = Math.ceil((Date.now() / 1000 + 3600) / 300) * 300;
  const [value, setValue] = useState(toLocalInput(editing?.at ?? soon));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    const at = fromLocalInput(value);
    if (at === null) return setError("Choose a date and a time.");
    if (at <= Date.now() / 1000 + 60) return setError("Choose a time in the future.");
    setBusy(true);
    if (await scheduleCompose(at)) {
      closeDialog();
      // back to writing the next message, not to the menu's button
      document.querySelector<HTMLTextAreaElement>(".compose-text")?.focus();
    } else {
      setError(compose.error.peek() ?? "The message could not be scheduled.");
      setBusy(false);
    }
  };
  return (
    <FormDialog
      title={editing ? "Reschedule the message" : "Schedule the message"}
      class="schedule-dialog"
      formId="schedule-form"
      submitLabel="Schedule"
      busyLabel="Scheduling…"
      busy={busy}
      error={error}
      onSubmit={() => void submit()}
    >
      <label class="field">
        <span>Send it on</span>
        <input type="datetime-local" value={value} min={toLocalInput(Date.now() / 1000)} onInput={(e) => (setValue(e.currentTarget.value), setError(null))} required />
      </label>
    </FormDialog>
  );
}
