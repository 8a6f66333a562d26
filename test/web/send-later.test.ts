/** "Send later": the times offered, as Zulip's web app offers them (assets/app/compose/send-later.ts). */
import { expect, test } from "bun:test";
import { fromLocalInput, sendLaterOptions, toLocalInput } from "../../assets/app/compose/send-later";

const at = (y: number, mo: number, d: number, h: number, mi = 0) => new Date(y, mo - 1, d, h, mi);
const labels = (now: Date) => sendLaterOptions(now, true).map((o) => o.label);

test("today's times while they are at least five minutes ahead, tomorrow's always, Monday's from Friday", () => {
  // Thursday 26 November 2026
  expect(labels(at(2026, 11, 26, 8, 0))).toEqual(["Today at 09:00", "Today at 16:00", "Tomorrow at 09:00", "Tomorrow at 16:00"]);
  expect(labels(at(2026, 11, 26, 8, 56))).toEqual(["Today at 16:00", "Tomorrow at 09:00", "Tomorrow at 16:00"]);
  expect(labels(at(2026, 11, 26, 15, 56))).toEqual(["Tomorrow at 09:00", "Tomorrow at 16:00"]);
  expect(labels(at(2026, 11, 27, 20, 0))).toEqual(["Tomorrow at 09:00", "Tomorrow at 16:00", "Monday at 09:00"]);
  expect(labels(at(2026, 11, 28, 10, 0))).toEqual(["Today at 16:00", "Tomorrow at 09:00", "Tomorrow at 16:00", "Monday at 09:00"]);
  const friday = sendLaterOptions(at(2026, 11, 27, 20, 0), false);
  expect(friday.map((o) => new Date(o.at * 1000).toString())).toEqual([at(2026, 11, 28, 9), at(2026, 11, 28, 16), at(2026, 11, 30, 9)].map(String));
  expect(friday[0]!.label).toMatch(/^Tomorrow at 9:00\sAM$/);
});

test("a date-time field's value and the time it stands for", () => {
  const t = at(2026, 3, 5, 7, 9).getTime() / 1000;
  expect(toLocalInput(t)).toBe("2026-03-05T07:09");
  expect(fromLocalInput("2026-03-05T07:09")).toBe(t);
  expect(fromLocalInput("tomorrow")).toBeNull();
});
