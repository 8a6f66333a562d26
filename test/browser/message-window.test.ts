/**
 * The message list's window in a real browser (Debian's Chromium through playwright-core): a topic far
 * longer than the window scrolls back to its first message and down again, the page never holds more
 * than the window's rows, the row being read stays where it was as older ones arrive above it, and
 * unread messages far back are marked read on the server when they come into view.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../helpers/chromium";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { hashPassword } from "../../src/actions/users";
import { createServer } from "../../src/server";

/** the app's window (assets/app/views/window.ts): WINDOW rows, plus one STEP while it moves */
const MOST_ROWS = 200 + 25;
const COUNT = 520;

let s: TestServer;
let http: ReturnType<typeof createServer>;
let browser: Browser;
let base: string;
let general: number;
const ids: number[] = [];

beforeAll(async () => {
  s = await startServer({ realClock: true });
  await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword("hamlet-pass"), s.users.hamlet.id]);
  general = await createChannel(s, "iago", "general", { subscribers: ["hamlet", "cordelia"] });
  for (let i = 1; i <= COUNT; i++) ids.push((await s.users.cordelia.client.post("/messages", { type: "stream", to: general, topic: "annals", content: `Record ${i}` })).success().id);
  (await s.users.hamlet.client.post("/mark_all_as_read")).success();
  // Records 100 to 120 are unread again: far above where the list opens
  (await s.users.hamlet.client.post("/messages/flags", { messages: ids.slice(99, 120), op: "remove", flag: "read" })).success();
  http = createServer(s.app).listen({ hostname: "127.0.0.1", port: 0, reusePort: false });
  base = `http://127.0.0.1:${http.server!.port}`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await http?.stop(true);
  await s?.close();
});

async function isRead(n: number): Promise<boolean> {
  const row = await s.app.db.get<{ flags: number }>("SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?", [s.users.hamlet.id, ids[n - 1]!]);
  return (row!.flags & 1) === 1;
}
const shownRecords = (page: Page) => page.locator(".message-row .message-content").evaluateAll((els) => els.map((el) => Number(el.textContent!.replace("Record ", ""))));

/** Where a record's row is, relative to the scroller's top, or null when it is not in the page. */
const offsetOf = (page: Page, n: number) =>
  page.locator(".message-scroller").evaluate((el, id) => {
    const row = el.querySelector(`.message-row[data-message-id="${id}"]`);
    return row ? row.getBoundingClientRect().top - el.getBoundingClientRect().top : null;
  }, ids[n - 1]!);

/**
 * Runs in the page: notes the rows of the frame that first paints any (a frame callback asked for when
 * they are inserted runs just before that paint), with each row's top relative to the scroller's top.
 */
const NOTE_FIRST_FRAME = () => {
  const w = window as unknown as { __firstFrame: unknown };
  w.__firstFrame = null;
  new MutationObserver((_, observer) => {
    if (!document.querySelector(".message-row")) return;
    observer.disconnect();
    requestAnimationFrame(() => {
      const scroller = document.querySelector(".message-scroller")!.getBoundingClientRect();
      const rows = Array.from(document.querySelectorAll<HTMLElement>(".message-row[data-message-id]"));
      // (marked, to tell whether the rows arriving later leave these elements in the page or draw them afresh)
      for (const r of rows) (r as unknown as { firstFrameRow: boolean }).firstFrameRow = true;
      w.__firstFrame = {
        ids: rows.map((r) => Number(r.dataset.messageId)),
        tops: rows.map((r) => r.getBoundingClientRect().top - scroller.top),
        // the rows reach above the scroller's top and below its bottom (or end in the list's bottom padding)
        firstTop: rows[0]!.getBoundingClientRect().top - scroller.top,
        lastBottom: rows.at(-1)!.getBoundingClientRect().bottom - scroller.bottom,
      };
    });
  }).observe(document, { childList: true, subtree: true });
};
interface FirstFrame {
  ids: number[];
  tops: number[];
  firstTop: number;
  lastBottom: number;
}

/** A page of its own (1280x800) that notes its first frame (NOTE_FIRST_FRAME), and its errors. */
async function notingFirstFrame() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(NOTE_FIRST_FRAME);
  const page = await context.newPage();
  page.setDefaultTimeout(5000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors };
}

/** What the page noted of its first frame with message rows, once it has. */
async function firstFrameOf(page: Page): Promise<FirstFrame> {
  await page.waitForFunction(() => (window as any).__firstFrame !== null);
  return (await page.evaluate(() => (window as any).__firstFrame)) as FirstFrame;
}

async function logIn(page: Page, hash: string) {
  await page.goto(`${base}/${hash}`);
  await page.fill("#login-email", "hamlet@zulip.com");
  await page.fill("#login-password", "hamlet-pass");
  await page.click(".login-form button[type=submit]");
}

describe("the message list's window", () => {
  test("a topic of 520 messages scrolls back to its first and down again with at most the window's rows in the page, the row being read stays put, and unread messages far back are marked read when seen", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 700 } });
    const page = await context.newPage();
    page.setDefaultTimeout(5000);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(`${base}/#narrow/channel/${general}-general/topic/annals/near/${ids[COUNT - 1]}`);
      await page.fill("#login-email", "hamlet@zulip.com");
      await page.fill("#login-password", "hamlet-pass");
      await page.click(".login-form button[type=submit]");
      await page.locator(".message-row", { hasText: `Record ${COUNT}` }).waitFor();
      const scroller = page.locator(".message-scroller");
      expect(await isRead(100)).toBe(false);
      // jumping to the top a few times, the first time while the opening's window is still coming in
      // after its first frame: each time, the row that was at the top of the view stays there as older
      // rows arrive above it (fetched, or already loaded and moved into the window)
      let most = 0;
      let kept = 0;
      for (let i = 0; i < 12; i++) {
        // the first row in the page, and where it shows once the list is at its top, before anything
        // arrives above it (read and jumped in one task: rows may be arriving all the while)
        const { top, expected } = await scroller.evaluate((el) => {
          const row = el.querySelector<HTMLElement>(".message-row[data-message-id]")!;
          const expected = row.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop;
          el.scrollTop = 0;
          return { top: Number(row.querySelector(".message-content")!.textContent!.replace("Record ", "")), expected };
        });
        await page.waitForTimeout(80);
        const after = await shownRecords(page);
        most = Math.max(most, after.length);
        if (after[0]! >= top) continue;
        const offset = await offsetOf(page, top);
        if (offset === null || Math.abs(offset - expected) > 2) throw new Error(`Record ${top} moved from ${expected} to ${offset} px when older rows arrived above it`);
        kept++;
      }
      expect(kept).toBeGreaterThan(3);

      // then with the mouse wheel, as a person scrolls, up to the first message: every row passes the view
      const box = (await scroller.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      for (let i = 0; i < 400 && !(await page.locator(".list-start").count()); i++) {
        await page.mouse.wheel(0, -400);
        await page.waitForTimeout(30);
        most = Math.max(most, await page.locator(".message-row").count());
      }
      await page.locator(".message-row", { has: page.locator(".message-content", { hasText: /^Record 1$/ }) }).waitFor();
      const atStart = await shownRecords(page);
      expect({ first: atStart[0], newestShown: atStart.includes(COUNT), contiguous: atStart.every((n, i) => i === 0 || n === atStart[i - 1]! + 1) }).toEqual({ first: 1, newestShown: false, contiguous: true });
      expect(most).toBeLessThanOrEqual(MOST_ROWS);
      // Records 100 to 120 came into view on the way: the server has them read now
      for (const n of [100, 110, 120]) {
        for (let i = 0; i < 40 && !(await isRead(n)); i++) await page.waitForTimeout(100);
      }
      expect([await isRead(100), await isRead(110), await isRead(120)]).toEqual([true, true, true]);

      // and down again: the window comes back over the loaded messages to the newest
      for (let i = 0; i < 200 && !(await page.locator(".message-row", { hasText: `Record ${COUNT}` }).count()); i++) {
        await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
        await page.waitForTimeout(40);
        most = Math.max(most, await page.locator(".message-row").count());
      }
      const atEnd = await shownRecords(page);
      expect({ last: atEnd[atEnd.length - 1], oldestShown: atEnd.includes(1) }).toEqual({ last: COUNT, oldestShown: false });
      expect(most).toBeLessThanOrEqual(MOST_ROWS);
      // a new message arrives at the bottom, where the person is
      await s.users.cordelia.client.post("/messages", { type: "stream", to: general, topic: "annals", content: "Record 521" });
      await page.locator(".message-row", { hasText: "Record 521" }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe("a view's first frame", () => {
  test("opening at the first unread message, the first frame draws only the rows that fill the screen; the rest arrive after it with that message kept where it was, and it is marked read", async () => {
    const { context, page, errors } = await notingFirstFrame();
    try {
      // Records 300 to 305 the only unread ones: the topic opens at Record 300, with the 50 before it and the 50 after
      (await s.users.hamlet.client.post("/messages/flags", { messages: ids, op: "add", flag: "read" })).success();
      (await s.users.hamlet.client.post("/messages/flags", { messages: ids.slice(299, 305), op: "remove", flag: "read" })).success();
      expect(await isRead(300)).toBe(false);
      await logIn(page, `#narrow/channel/${general}-general/topic/annals`);
      const first = await firstFrameOf(page);
      const at = first.ids.indexOf(ids[299]!);
      expect(at).toBeGreaterThan(0);
      // fewer rows than the 101 fetched, yet no gap on the screen: they reach past its top and bottom
      expect(first.ids.length).toBeLessThan(101);
      expect(first.firstTop).toBeLessThan(0);
      expect(first.lastBottom).toBeGreaterThan(0);

      // the deferred rows arrive: every fetched message, in order, Record 300 where the first frame put it
      for (const n of [250, 350]) await page.locator(".message-row", { has: page.locator(".message-content", { hasText: new RegExp(`^Record ${n}$`) }) }).waitFor({ state: "attached" });
      expect(await shownRecords(page)).toEqual(Array.from({ length: 101 }, (_, i) => 250 + i));
      await page.waitForTimeout(100);
      expect(Math.abs((await offsetOf(page, 300))! - first.tops[at]!)).toBeLessThanOrEqual(1);
      // the first frame's rows are still the same elements (their block kept its key: nothing drawn twice)
      const kept = await page.locator(".message-row[data-message-id]").evaluateAll((els) => els.filter((el) => (el as unknown as { firstFrameRow?: boolean }).firstFrameRow).length);
      expect(kept).toBe(first.ids.length);
      for (let i = 0; i < 40 && !(await isRead(300)); i++) await page.waitForTimeout(100);
      expect(await isRead(300)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 30_000);

  test("opening at the bottom, the first frame draws the newest rows that fill the screen; the older ones arrive above them after it and the newest stays at the bottom", async () => {
    const ledger: number[] = [];
    for (let i = 1; i <= 70; i++) ledger.push((await s.users.cordelia.client.post("/messages", { type: "stream", to: general, topic: "ledger", content: `Entry ${i}` })).success().id);
    (await s.users.hamlet.client.post("/messages/flags", { messages: ledger, op: "add", flag: "read" })).success();
    const { context, page, errors } = await notingFirstFrame();
    try {
      await logIn(page, `#narrow/channel/${general}-general/topic/ledger`);
      const first = await firstFrameOf(page);
      // the newest rows, down to the newest, reaching above the screen's top; the newest at the bottom
      expect(first.ids.at(-1)).toBe(ledger[69]!);
      expect(first.ids).toEqual(ledger.slice(70 - first.ids.length));
      expect(first.ids.length).toBeLessThan(50);
      expect(first.firstTop).toBeLessThan(0);
      expect(first.lastBottom).toBeLessThanOrEqual(0);

      // the 50 fetched (nothing unread: the newest 50) all arrive, and the list is still at its bottom
      await page.locator(".message-row", { has: page.locator(".message-content", { hasText: /^Entry 21$/ }) }).waitFor({ state: "attached" });
      await page.waitForTimeout(100);
      const shown = await page.locator(".message-row[data-message-id]").evaluateAll((els) => els.map((el) => Number((el as HTMLElement).dataset.messageId)));
      expect(shown).toEqual(ledger.slice(20));
      expect(await page.locator(".message-scroller").evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(2);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 30_000);

  test("opening a channel where every message is under a bar of its own, the first frame draws far fewer rows (each is three times as tall) and still leaves no gap on the screen", async () => {
    const scattered: number[] = [];
    const channel = await createChannel(s, "iago", "scattered", { subscribers: ["hamlet", "othello"] });
    for (let i = 1; i <= 40; i++) scattered.push((await s.users[i % 2 ? "othello" : "iago"].client.post("/messages", { type: "stream", to: channel, topic: `thread ${i}`, content: `Note ${i}` })).success().id);
    // (the channel's creation notice too): it opens at its newest
    (await s.users.hamlet.client.post("/mark_all_as_read")).success();
    const { context, page, errors } = await notingFirstFrame();
    try {
      await logIn(page, `#narrow/channel/${channel}-scattered`);
      const first = await firstFrameOf(page);
      // the newest, down to the newest, reaching above the screen's top with at most a dozen rows
      // (a screen of 32 px rows, the guess for one sender's run, would be 25)
      expect(first.ids).toEqual(scattered.slice(40 - first.ids.length));
      expect(first.ids.length).toBeLessThanOrEqual(12);
      expect(first.firstTop).toBeLessThan(0);
      // the rest of the fetched ones arrive above after that frame
      await page.locator(".message-row", { has: page.locator(".message-content", { hasText: /^Note 1$/ }) }).waitFor({ state: "attached" });
      const shown = await page.locator(".message-row[data-message-id]").evaluateAll((els) => els.map((el) => Number((el as HTMLElement).dataset.messageId)));
      expect(shown.slice(-40)).toEqual(scattered);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 30_000);
});
