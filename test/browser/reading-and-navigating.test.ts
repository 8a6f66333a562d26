/**
 * Coming back to a view, and the left sidebar's menus, in a real browser (see helpers.ts): a view still
 * in memory opens where the person left it, and a link into it goes straight to the message; a search
 * marks its words in topics; a topic's and a channel's menus mark them read, follow, unfollow, mute,
 * unmute and pin; a topic with nothing left in it leaves the channel's topic list; and the page reports
 * the person idle while it is hidden. Each journey checks what the person sees and what the server stored.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { CastName } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { makePng, upload } from "../helpers/uploads";
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
    const row = Array.from(el.querySelectorAll<HTMLElement>(".message-row[data-message-id]")).find((r) => r.getBoundingClientRect().bottom > edge)!;
    return { text: row.querySelector(".message-content")!.textContent, offset: Math.round(row.getBoundingClientRect().top - edge) };
  });

describe("reading and finding one's way: coming back to a view, links, the sidebar's menus, presence", () => {
  test("a view still in memory opens where the person left it, with the same message selected; one left at its bottom opens there, or at the first of many messages that came meanwhile", async () => {
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
      const rows = Array.from(el.querySelectorAll<HTMLElement>(".message-row[data-message-id]"));
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

    // many came meanwhile: it comes back at the first of them (the first unread), not past them
    await page.goForward();
    await page.locator(".view-title", { hasText: "Recent conversations" }).waitFor();
    const many: number[] = [];
    for (let i = 122; i <= 140; i++) many.push(await send("cordelia", general, "chronicle", `Entry ${i}`));
    // (all of them reached the page: its sidebar counts them)
    await page.locator(".channel-row", { hasText: "general" }).locator(".unread-count", { hasText: "19" }).waitFor();
    await page.goBack();
    await page.locator(".message-row.selected .message-content", { hasText: /^Entry 122$/ }).waitFor();
    await page.waitForTimeout(300);
    expect(await scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeGreaterThan(100);
    expect(await isRead("hamlet", many.at(-1)!)).toBe(false);
    expect(errors).toEqual([]);
  }, 30_000);

  test("a link to a message the open view holds goes straight to it; to one it does not hold, the view's old messages leave the page while those around it are fetched", async () => {
    const { page, errors } = await open({ height: 700 });
    await logIn(page, "hamlet", "/" + topicHash(general, "general", "chronicle"));
    await row(page, "Entry 120").waitFor();
    const fetches: string[] = [];
    // the fetches that open a view (50 messages either side of its anchor; scrolling fetches pages of 60)
    page.on("request", (r) => r.url().includes("/json/messages?") && r.url().includes("num_before=50&num_after=50") && fetches.push(r.url()));
    const go = (id: number) => page.evaluate((h) => (location.hash = h), `${topicHash(general, "general", "chronicle")}/near/${id}`);

    // Entry 90 is among the loaded messages: selected at once, nothing fetched
    await go(chronicle[89]!);
    await page.locator(".message-row.selected", { hasText: "Entry 90" }).waitFor();
    expect(fetches).toEqual([]);

    // Entry 5 is not: while its neighbours are fetched, the page shows no row of the old place
    const held: (() => void)[] = [];
    await page.route("**/json/messages?**num_before=50&num_after=50**", (route) => void held.push(() => void route.continue()));
    await go(chronicle[4]!);
    await eventually(() => held.length, 1);
    await page.locator(".list-loading").waitFor();
    expect(await page.locator(".message-row").count()).toBe(0);
    held[0]!();
    await page.locator(".message-row.selected .message-content", { hasText: /^Entry 5$/ }).waitFor();
    await page.unroute("**/json/messages?**num_before=50&num_after=50**");
    expect(await row(page, "Entry 120").count()).toBe(0);
    expect(errors).toEqual([]);
  }, 20_000);

  test("a search marks the words it found in topics too (the server's match_subject), in the recipient bar", async () => {
    await send("cordelia", general, "the old ledger", "Accounts settled.");
    const { page, errors } = await open();
    await logIn(page, "hamlet", "/#narrow/search/ledger");
    const bar = page.locator(".recipient-bar", { hasText: "the old ledger" });
    await bar.waitFor();
    expect(await bar.locator(".recipient-topic .highlight").allTextContents()).toEqual(["ledger"]);
    expect(await page.inputValue(".search-input")).toBe("ledger");
    expect(errors).toEqual([]);
  }, 20_000);

  test("a list at its bottom stays there when an image in a new message finishes loading and grows its row", async () => {
    const { page, errors } = await open({ height: 700 });
    await logIn(page, "hamlet", "/" + topicHash(general, "general", "gallery"));
    await page.locator(".list-empty").waitFor();
    for (let i = 1; i <= 12; i++) await send("othello", general, "gallery", `Caption ${i}`);
    await row(page, "Caption 12").waitFor();
    const scroller = page.locator(".message-scroller");
    const fromBottom = () => scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    await eventually(async () => (await fromBottom()) < 2, true);
    // othello sends a picture: its row grows once the thumbnail has loaded
    // (its thumbnail held back until the row is in the page)
    const held: (() => void)[] = [];
    await page.route("**/user_uploads/thumbnail/**", (route) => void held.push(() => void route.continue()));
    const uploaded = (await upload(suite.s, "othello", "field.png", await makePng(900, 700, "#3a7d44"), "image/png")).url;
    const dawn = await send("othello", general, "gallery", `The field at dawn:\n[field.png](${uploaded})`);
    await row(page, "The field at dawn").waitFor();
    await eventually(async () => held.length > 0 && (await fromBottom()) < 2, true);
    // seen, and marked read (so no later change to its row scrolls the list for another reason)
    await eventually(() => isRead("hamlet", dawn), true);
    await row(page, "The field at dawn").and(page.locator(".message-row:not(.unread)")).waitFor();
    await page.waitForTimeout(300);
    for (const go of held.splice(0)) go();
    const img = row(page, "The field at dawn").locator(".message_inline_image img");
    await eventually(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0 && !el.classList.contains("image-loading-placeholder")), true, 10_000);
    await page.waitForTimeout(200);
    expect(await fromBottom()).toBeLessThan(2);
    await page.unroute("**/user_uploads/thumbnail/**");
    expect(errors).toEqual([]);
  }, 30_000);

  test("an image loading above the row being read does not push that row down the screen", async () => {
    const uploaded = (await upload(suite.s, "othello", "hill.png", await makePng(900, 700, "#7d3a44"), "image/png")).url;
    await send("othello", general, "album", `The hill:\n[hill.png](${uploaded})`);
    for (let i = 1; i <= 30; i++) await send("othello", general, "album", `Note ${i}`);
    (await suite.s.users.hamlet.client.post("/mark_topic_as_read", { stream_id: general, topic_name: "album" })).success();
    const { page, errors } = await open({ height: 700 });
    const note3 = page.locator(".message-row", { has: page.locator(".message-content", { hasText: /^Note 3$/ }) });
    // the thumbnails are held back until the test lets them through
    const held: (() => void)[] = [];
    await page.route("**/user_uploads/thumbnail/**", (route) => void held.push(() => void route.continue()));
    await logIn(page, "hamlet", "/" + topicHash(general, "general", "album"));
    await row(page, "Note 30").waitFor();
    // the person reads from Note 3, the picture just above the screen
    const scroller = page.locator(".message-scroller");
    await note3.evaluate((el) => {
      const s = el.closest(".message-scroller")!;
      s.scrollTop += el.getBoundingClientRect().top - s.getBoundingClientRect().top - 10;
    });
    await page.waitForTimeout(200);
    await eventually(() => held.length > 0, true);
    const where = () => note3.evaluate((el) => Math.round(el.getBoundingClientRect().top - el.closest(".message-scroller")!.getBoundingClientRect().top));
    const before = await where();
    const heightBefore = await scroller.evaluate((el) => el.scrollHeight);
    for (const go of held.splice(0)) go();
    const img = row(page, "The hill").locator(".message_inline_image img");
    await eventually(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), true);
    await page.waitForTimeout(200);
    // the picture did grow its row, and Note 3 stayed where the person was reading
    expect((await scroller.evaluate((el) => el.scrollHeight)) - heightBefore).toBeGreaterThan(50);
    expect(Math.abs((await where()) - before)).toBeLessThan(3);
    await page.unroute("**/user_uploads/thumbnail/**");
    expect(errors).toEqual([]);
  }, 30_000);

  test("a topic whose messages were all deleted or moved away leaves the channel's topic list; one whose newest was deleted moves down to its older ones", async () => {
    const fleeting = await send("othello", design, "fleeting", "Here and gone.");
    await send("othello", design, "lasting", "The first word.");
    await send("othello", design, "middle", "In between.");
    const lastWord = await send("othello", design, "lasting", "The last word.");
    const wandering = await send("othello", design, "wandering", "Where am I?");
    const { page, errors } = await open();
    await logIn(page, "hamlet", `/#narrow/channel/${design}-design`);
    const topics = () => page.locator(".topic-list .topic-row .nav-label").allTextContents();
    await eventually(topics, ["wandering", "lasting", "middle", "fleeting", "channel events"]);

    // iago (an administrator) deletes the only message of one topic, and the newest of another
    (await suite.s.users.iago.client.delete(`/messages/${fleeting}`)).success();
    await eventually(topics, ["wandering", "lasting", "middle", "channel events"]);
    (await suite.s.users.iago.client.delete(`/messages/${lastWord}`)).success();
    await eventually(topics, ["wandering", "middle", "lasting", "channel events"]);
    // othello moves his one message of a topic to another topic, on its own
    (await suite.s.users.othello.client.patch(`/messages/${wandering}`, { topic: "settled", propagate_mode: "change_one" })).success();
    await eventually(topics, ["settled", "middle", "lasting", "channel events"]);
    // the server's topics say the same
    const stored = (await suite.s.users.hamlet.client.get(`/users/me/${design}/topics`)).success().topics.map((t: { name: string }) => t.name);
    expect(stored).toEqual(["settled", "middle", "lasting", "channel events"]);
    expect(errors).toEqual([]);
  }, 20_000);

  test("the menus of a topic and a channel mark them read, follow and unfollow, mute and unmute; the Inbox marks everything read", async () => {
    await send("cordelia", general, "elsewhere", "Nothing to see.");
    const a = [await send("cordelia", general, "menu a", "First of A."), await send("cordelia", general, "menu a", "Second of A.")];
    const b = await send("cordelia", general, "menu b", "Only B.");
    const sketch = await send("cordelia", design, "sketches", "A sketch.");
    const { page, errors } = await open();
    await logIn(page, "hamlet", "/" + topicHash(general, "general", "elsewhere"));
    await row(page, "Nothing to see.").waitFor();
    const topicRow = (name: string) => page.locator(".topic-list .topic-row", { hasText: name });
    const topicMenu = async (name: string, item: string) => {
      await topicRow(name).hover();
      await topicRow(name).getByRole("button", { name: `Topic actions for ${name}` }).click();
      await page.getByRole("menuitem", { name: item }).click();
    };
    await topicRow("menu a").locator(".unread-count", { hasText: "2" }).waitFor();

    // "Mark topic as read": that topic's messages, no other
    await topicMenu("menu a", "Mark topic as read");
    await topicRow("menu a").locator(".unread-count").waitFor({ state: "detached" });
    expect([await isRead("hamlet", a[0]!), await isRead("hamlet", a[1]!), await isRead("hamlet", b)]).toEqual([true, true, false]);

    // "Mark channel as read" from another channel's row
    const designRow = page.locator(".channel-row", { hasText: "design" });
    await designRow.locator(".unread-count").waitFor();
    await designRow.hover();
    await designRow.getByRole("button", { name: "Channel actions for design" }).click();
    await page.getByRole("menuitem", { name: "Mark channel as read" }).click();
    await designRow.locator(".unread-count").waitFor({ state: "detached" });
    expect([await isRead("hamlet", sketch), await isRead("hamlet", b)]).toEqual([true, false]);

    // follow, then unfollow; mute, then unmute
    await topicMenu("menu b", "Follow topic");
    await eventually(() => policyOf("hamlet", "menu b"), 3);
    await topicRow("menu b").locator(".topic-followed").waitFor();
    await topicMenu("menu b", "Unfollow topic");
    await eventually(() => policyOf("hamlet", "menu b"), 0);
    await topicRow("menu b").locator(".topic-followed").waitFor({ state: "detached" });
    await topicMenu("menu b", "Mute topic");
    await eventually(() => policyOf("hamlet", "menu b"), 1);
    await page.locator(".topic-item.muted", { hasText: "menu b" }).waitFor();
    await topicMenu("menu b", "Unmute topic");
    await eventually(() => policyOf("hamlet", "menu b"), 0);
    await page.locator(".topic-item.muted", { hasText: "menu b" }).waitFor({ state: "detached" });

    // in a muted channel, "Unmute topic" makes that topic heard (Zulip's "unmuted" policy)
    await designRow.hover();
    await designRow.getByRole("button", { name: "Channel actions for design" }).click();
    await page.getByRole("menuitem", { name: "Mute channel" }).click();
    await page.locator(".channel-item.muted", { hasText: "design" }).waitFor();
    await eventually(async () => (await db().get<{ is_muted: number }>("SELECT is_muted FROM subscriptions WHERE user_id = ? AND stream_id = ?", [userId("hamlet"), design]))!.is_muted, 1);
    await page.goto(suite.base + "/" + topicHash(design, "design", "sketches"));
    await row(page, "A sketch.").waitFor();
    await page.locator(".view-header").getByRole("button", { name: "Topic actions for sketches" }).click();
    await page.getByRole("menuitem", { name: "Unmute topic" }).click();
    await eventually(() => policyOf("hamlet", "sketches"), 2);

    // pinning a channel puts it first, in a list of its own
    await designRow.hover();
    await designRow.getByRole("button", { name: "Channel actions for design" }).click();
    await page.getByRole("menuitem", { name: "Pin channel to top" }).click();
    await page.getByRole("list", { name: "Pinned channels" }).locator(".channel-row", { hasText: "design" }).waitFor();
    await eventually(async () => (await db().get<{ pin_to_top: number }>("SELECT pin_to_top FROM subscriptions WHERE user_id = ? AND stream_id = ?", [userId("hamlet"), design]))!.pin_to_top, 1);
    expect(await page.locator(".channel-row .nav-label").first().textContent()).toBe("design");

    // the Inbox's "Mark all as read" reads what is left
    await page.locator(".views-nav a", { hasText: "Inbox" }).click();
    await page.locator(".inbox-topic", { hasText: "menu b" }).waitFor();
    await page.locator(".view-header").getByRole("button", { name: "Mark all as read" }).click();
    await eventually(() => isRead("hamlet", b), true);
    await page.locator(".inbox-topic").first().waitFor({ state: "detached" });
    await page.screenshot({ path: shot("menus") });
    expect(errors).toEqual([]);
  }, 30_000);

  test("the page reports the person active while they use it, idle as soon as it is hidden or after five minutes without input, and active again when they come back", async () => {
    const { page, context, errors } = await open();
    // a switch that makes the page look hidden (another tab in front), and a clock the test can move
    await context.addInitScript(() => {
      let hidden = false;
      Object.defineProperty(document, "visibilityState", { get: () => (hidden ? "hidden" : "visible") });
      Object.defineProperty(document, "hidden", { get: () => hidden });
      (window as any).__hide = (h: boolean) => {
        hidden = h;
        document.dispatchEvent(new Event("visibilitychange"));
      };
    });
    await page.clock.install();
    const reports: { status: string; new_user_input: string }[] = [];
    page.on("request", (r) => {
      if (r.method() !== "POST" || !r.url().endsWith("/json/users/me/presence")) return;
      const body = new URLSearchParams(r.postData() ?? "");
      reports.push({ status: body.get("status")!, new_user_input: body.get("new_user_input")! });
    });
    const last = () => reports.at(-1) ?? null;
    await logIn(page, "othello");
    await eventually(() => last()?.status, "active");
    const stored = async () => (await suite.s.users.hamlet.client.get(`/users/${userId("othello")}/presence`)).success().presence.aggregated.status;
    await eventually(stored, "active");

    // someone's status shows beside their name as they set it
    (await suite.s.users.hamlet.client.post("/users/me/status", { status_text: "Reading", emoji_name: "books" })).success();
    const hamlet = page.locator(".person-row", { hasText: "King Hamlet" });
    await hamlet.locator(".person-status", { hasText: "Reading" }).waitFor();

    // another tab in front: at once, idle
    const before = reports.length;
    await page.evaluate(() => (window as any).__hide(true));
    await eventually(() => reports.slice(before).map((r) => r.status), ["idle"]);
    // back, with a key pressed: active again, saying the person did something
    await page.evaluate(() => (window as any).__hide(false));
    await page.keyboard.press("Shift");
    await eventually(() => last(), { status: "active", new_user_input: "true" });

    // shown but untouched for five minutes (the person stepped away): the minute's report says idle
    await page.clock.fastForward("06:00");
    await eventually(() => last()?.status, "idle");
    // nobody else sees them offline: their last activity is recent
    expect(await stored()).toBe("active");
    expect(errors).toEqual([]);
  }, 20_000);
});
