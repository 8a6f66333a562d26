/**
 * The emoji set chosen in Preferences (Zulip's emojiset) as a person sees it: "Plain text" shows a
 * message's :smile: as text, in its reactions too, and still after a reload; Google's set draws the
 * emoji as images from the sheet the server serves.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { browserSuite, eventually, row, shot, topicHash } from "./helpers";
import { createChannel } from "../helpers/channels";
import { sendStream } from "../helpers/messages";

let general = 0;
let messageId = 0;
const suite = browserSuite(async (s) => {
  general = await createChannel(s, "iago", "general", { subscribers: ["hamlet", "othello", "iago"] });
  messageId = await sendStream(s, "othello", "general", "greetings", "Good morning :smile: to all");
  (await s.users.othello.client.post(`/messages/${messageId}/reactions`, { emoji_name: "smile" })).success();
  (await s.users.othello.client.post("/users/me/status", { status_text: "Reading", emoji_name: "books" })).success();
});

const emojisetOf = async () => (await suite.s.users.hamlet.client.post("/register", { fetch_event_types: ["user_settings"] })).success().user_settings.emojiset;
const overlay = (page: Page) => page.getByRole("dialog", { name: "Settings" });
const messageEmoji = (page: Page) => row(page, "Good morning").locator(".message-content span.emoji");
const reactionEmoji = (page: Page) => row(page, "Good morning").locator(".reaction").first().locator(".emoji-glyph");
const statusEmoji = (page: Page) => page.locator(".person-row", { hasText: "Othello" }).locator(".status-emoji .emoji-glyph");

describe("the emoji set", () => {
  test("Plain text shows :smile: as text in the message, its reaction, a status and the picker, and after a reload; Google's draws images from the sheet", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/" + topicHash(general, "general", "greetings"));
    // Zulip's default, google: an image from the sheet, with the name kept for copying and screen readers
    await row(page, "Good morning").waitFor();
    await eventually(() => messageEmoji(page).evaluate((el) => el.classList.contains("emoji-sprite")), true);
    expect(await messageEmoji(page).getAttribute("aria-label")).toBe("smile");
    const sheetUrl = await messageEmoji(page).evaluate((el) => getComputedStyle(el).backgroundImage);
    expect(sheetUrl).toMatch(/^url\("http:\/\/127\.0\.0\.1:\d+\/static\/emoji-sheet-google-64-[a-z0-9]+\.png"\)$/);
    // the sheet itself loads: one PNG of 62 × 62 cells of 66 px
    const size = await page.evaluate(async (u) => {
      const img = new Image();
      img.src = u;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    }, sheetUrl.slice(5, -2));
    expect(size).toEqual([4092, 4092]);
    await eventually(() => reactionEmoji(page).evaluate((el) => el.classList.contains("emoji-sprite")), true);
    await page.screenshot({ path: shot("emoji-set-google") });

    await page.evaluate(() => (location.hash = "#settings/preferences"));
    await overlay(page).getByRole("combobox", { name: "Emoji set" }).selectOption({ label: "Plain text (:smile:)" });
    await eventually(emojisetOf, "text");
    await page.keyboard.press("Escape");
    await eventually(() => messageEmoji(page).textContent(), ":smile:");
    expect(await messageEmoji(page).evaluate((el) => el.classList.contains("emoji-sprite"))).toBe(false);
    // in the message's own type size, like the words around it
    expect(await messageEmoji(page).evaluate((el) => getComputedStyle(el).fontSize === getComputedStyle(el.parentElement!).fontSize)).toBe(true);
    await eventually(() => reactionEmoji(page).textContent(), ":smile:");
    await page.screenshot({ path: shot("emoji-set-text") });

    await page.reload();
    await row(page, "Good morning").waitFor();
    await eventually(() => messageEmoji(page).textContent(), ":smile:");
    expect(await reactionEmoji(page).textContent()).toBe(":smile:");
    expect(await row(page, "Good morning").locator(".message-content").innerText()).toBe("Good morning :smile: to all");
    // a status beside a name, and the picker, as names too
    expect(await statusEmoji(page).textContent()).toBe(":books:");
    await row(page, "Good morning").locator(".reactions").getByRole("button", { name: "Add emoji reaction" }).click();
    const picker = page.getByRole("dialog", { name: "Add a reaction to this message" });
    await picker.getByRole("combobox", { name: "Search emoji" }).fill("octopus");
    await eventually(() => picker.getByRole("listbox", { name: "Emoji" }).locator(".emoji-glyph").first().textContent(), ":octopus:");
    await page.keyboard.press("Escape");

    // the choice changed from Zulip's API (as Zulip's apps would) reaches the open page live
    (await suite.s.users.hamlet.client.patch("/settings", { emojiset: "google" })).success();
    await eventually(() => messageEmoji(page).evaluate((el) => el.classList.contains("emoji-sprite")), true);
    await eventually(() => reactionEmoji(page).evaluate((el) => el.classList.contains("emoji-sprite")), true);
    await eventually(() => statusEmoji(page).evaluate((el) => el.classList.contains("emoji-sprite")), true);
    expect(errors).toEqual([]);
  }, 30_000);

  test("Zulip's other sets, set from Zulip's apps, are stored as sent and shown in Preferences for what they are", async () => {
    (await suite.s.users.hamlet.client.patch("/settings", { emojiset: "twitter" })).success();
    expect(await emojisetOf()).toBe("twitter");
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/#settings/preferences");
    const select = overlay(page).getByRole("combobox", { name: "Emoji set" });
    expect(await select.locator("option:checked").textContent()).toBe("Twitter (in Zulip's apps; drawn here with Google's images)");
    await select.selectOption({ label: "Google" });
    await eventually(emojisetOf, "google");
    expect(await select.locator("option").allTextContents()).toEqual(["Google", "Plain text (:smile:)"]);
    expect(errors).toEqual([]);
  }, 20_000);
});
