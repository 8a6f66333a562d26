/** Times and days in the person's format (their twenty_four_hour_time setting) and locale. */

const timeFormats = new Map<boolean, Intl.DateTimeFormat>();

export function formatTime(seconds: number, twentyFourHour: boolean): string {
  let f = timeFormats.get(twentyFourHour);
  if (!f) timeFormats.set(twentyFourHour, (f = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit", hourCycle: twentyFourHour ? "h23" : "h12" })));
  return f.format(seconds * 1000);
}

const dayOf = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
export const sameDay = (a: number, b: number) => dayOf(new Date(a * 1000)) === dayOf(new Date(b * 1000));

const fullDay = new Intl.DateTimeFormat(undefined, { weekday: "long", month: "long", day: "numeric" });
// the formatters that the first screen of messages does not use are made when first needed (each costs locale data)
let fullDayYear: Intl.DateTimeFormat | undefined;

/** "Today", "Yesterday", "Monday, June 2", or with the year when it is not this year. */
export function formatDay(seconds: number, now = Date.now()): string {
  const d = new Date(seconds * 1000);
  const days = Math.round((dayOf(new Date(now)) - dayOf(d)) / 86_400_000);
  if (days === 0) return "Today";
  if (days === 1) return "Yesterday";
  return d.getFullYear() === new Date(now).getFullYear() ? fullDay.format(d) : (fullDayYear ??= new Intl.DateTimeFormat(undefined, { weekday: "short", month: "short", day: "numeric", year: "numeric" })).format(d);
}

let shortDay: Intl.DateTimeFormat | undefined;

/** A short "when" for lists: the time today, "Yesterday", else the date. */
export function formatWhen(seconds: number, twentyFourHour: boolean, now = Date.now()): string {
  const days = Math.round((dayOf(new Date(now)) - dayOf(new Date(seconds * 1000))) / 86_400_000);
  if (days === 0) return formatTime(seconds, twentyFourHour);
  if (days === 1) return "Yesterday";
  return (shortDay ??= new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" })).format(seconds * 1000);
}

const full = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "long" });
export const formatFull = (seconds: number) => full.format(seconds * 1000);

const dateTimes = new Map<boolean, Intl.DateTimeFormat>();

/** A date with its time, for lists of things made ("Nov 26, 2026, 6:30 PM"), in the person's clock format. */
export function formatDateTime(seconds: number, twentyFourHour: boolean): string {
  let f = dateTimes.get(twentyFourHour);
  if (!f) dateTimes.set(twentyFourHour, (f = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short", hourCycle: twentyFourHour ? "h23" : "h12" })));
  return f.format(seconds * 1000);
}
