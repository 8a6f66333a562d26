/**
 * "Send later": the times Zulip's web app suggests (scheduled_messages.ts get_filtered_send_opts), at
 * least five minutes ahead: today at 9:00 and 16:00 while those are still to come, tomorrow at both,
 * and Monday at 9:00 from Friday on; plus how a scheduled time reads.
 */
import { formatTime } from "../lib/time";

export interface SendLaterOption {
  label: string;
  /** seconds since the epoch */
  at: number;
}

/** Zulip's MINIMUM_SCHEDULED_MESSAGE_DELAY_SECONDS. */
export const MINIMUM_DELAY_SECONDS = 5 * 60;

function at(day: Date, plusDays: number, hour: number): number {
  const d = new Date(day.getFullYear(), day.getMonth(), day.getDate() + plusDays, hour, 0, 0, 0);
  return Math.floor(d.getTime() / 1000);
}

export function sendLaterOptions(now: Date, twentyFourHour: boolean): SendLaterOption[] {
  const minutes = now.getHours() * 60 + now.getMinutes();
  const margin = MINIMUM_DELAY_SECONDS / 60;
  const option = (day: string, plusDays: number, hour: number) => {
    const t = at(now, plusDays, hour);
    return { label: `${day} at ${formatTime(t, twentyFourHour)}`, at: t };
  };
  const out: SendLaterOption[] = [];
  if (minutes < 9 * 60 - margin) out.push(option("Today", 0, 9));
  if (minutes < 16 * 60 - margin) out.push(option("Today", 0, 16));
  out.push(option("Tomorrow", 1, 9), option("Tomorrow", 1, 16));
  // Friday and Saturday: Monday morning (Sunday's "tomorrow" is Monday already)
  const day = now.getDay();
  if (day === 5 || day === 6) out.push(option("Monday", 8 - day, 9));
  return out;
}

let dayFormat: Intl.DateTimeFormat | undefined;

/** "Thu, Nov 26 at 4:00 PM" */
export const formatScheduled = (seconds: number, twentyFourHour: boolean) => `${(dayFormat ??= new Intl.DateTimeFormat(undefined, { weekday: "short", month: "short", day: "numeric" })).format(seconds * 1000)} at ${formatTime(seconds, twentyFourHour)}`;

/** The value of a datetime-local field for a time (local, to the minute), and back. */
export function toLocalInput(seconds: number): string {
  const d = new Date(seconds * 1000);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function fromLocalInput(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi] = m.map(Number) as number[];
  return Math.floor(new Date(y!, mo! - 1, d!, h!, mi!).getTime() / 1000);
}
