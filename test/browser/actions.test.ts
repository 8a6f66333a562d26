/**
 * Acting on messages, finding them, being told of them, and the keyboard, in a real browser: each
 * journey checks what the person sees and what the server stored. Screenshots land in
 * /tmp/parley-web-*.png.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { createChannel } from "../helpers/channels";
import type { CastName } from "../helpers/server";
import { browserSuite, eventually, row, shot, topicHash } from "./helpers";

let general: number;
let design: number;

const w = browserSuite(async (s) => {
  general = await createChannel(s, "iago", "general", { subscribers: ["hamlet", "othello", "cordelia"] });
  design = await createChannel(s, "iago", "design", { subscribers: ["hamlet", "othello"] });
  for (const who of ["hamlet", "othello"] as const) (await s.users[who].client.post("/mark_all_as_read")).success();
});

const id = (who: CastName) => w.s.users[who].id;
const send = async (who: CastName, topic: string, content: string, channel = general) =>
  (await w.s.users[who].client.post("/messages", { type: "stream", to: channel, topic, content })).success().id as number;
const stored = (messageId: number) => w.s.app.db.get<{ content: string; topic: string; stream_id: number }>("SELECT content, topic, stream_id FROM messages WHERE id = ?", [messageId]);
const generalTopic = (topic: string) => "/" + topicHash(general, "general", topic);

/** Opens a message's menu (hovering it first, as a person would). */
async function messageMenu(page: Page, text: string) {
  const r = row(page, text);
  await r.hover();
  await r.getByRole("button", { name: "Message actions" }).click();
  return page.getByRole("menu");
}

describe("acting on messages in the browser", () => {
  test("hamlet edits his message in place and othello sees the change live; the history shows both versions; then he deletes it", async () => {
    const first = await send("hamlet", "edits", "The rest is silence.");
    const hamlet = await w.open();
    const othello = await w.open();
    await w.logIn(hamlet.page, "hamlet", generalTopic("edits"));
    await w.logIn(othello.page, "othello", generalTopic("edits"));
    await row(othello.page, "The rest is silence.").waitFor();

    // othello's message offers hamlet neither editing nor deleting
    const theirs = await send("othello", "edits", "Speak of me as I am.");
    const menu = await messageMenu(hamlet.page, "Speak of me as I am.");
    const labels = await menu.getByRole("menuitem").allTextContents();
    expect(labels).toContain("Quote and reply");
    expect(labels).not.toContain("Edit message");
    expect(labels).not.toContain("Delete message");
    await hamlet.page.keyboard.press("Escape");

    // his own: "Edit message" opens the editor in place with the Markdown source
    await (await messageMenu(hamlet.page, "The rest is silence.")).getByRole("menuitem", { name: "Edit message" }).click();
    const editor = hamlet.page.getByRole("textbox", { name: "Message text" });
    await eventually(() => editor.inputValue(), "The rest is silence.");
    await editor.fill("The rest is **silence**.");
    await hamlet.page.screenshot({ path: shot("edit-in-place") });
    await editor.press("Control+Enter");
    await row(hamlet.page, "The rest is silence.").locator("strong", { hasText: "silence" }).waitFor();
    await row(othello.page, "The rest is silence.").locator("strong", { hasText: "silence" }).waitFor();
    await row(othello.page, "The rest is silence.").locator(".edit-mark", { hasText: "EDITED" }).waitFor();
    expect((await stored(first))!.content).toBe("The rest is **silence**.");

    // the history shows the original and the edit
    await (await messageMenu(hamlet.page, "The rest is silence.")).getByRole("menuitem", { name: "View edit history" }).click();
    const history = hamlet.page.getByRole("dialog", { name: "Message edit history" });
    await history.locator(".history-version").nth(1).waitFor();
    expect(await history.locator(".history-what").allTextContents()).toEqual(["Posted by King Hamlet", "Edited by King Hamlet"]);
    expect(await history.locator(".history-version").first().locator(".message-content").textContent()).toBe("The rest is silence.");
    await hamlet.page.screenshot({ path: shot("edit-history") });
    await hamlet.page.keyboard.press("Escape");
    await history.waitFor({ state: "detached" });

    // when the organization turns editing off meanwhile, the server's refusal is shown in the editor, which stays open
    await (await messageMenu(hamlet.page, "The rest is silence.")).getByRole("menuitem", { name: "Edit message" }).click();
    await eventually(() => editor.inputValue(), "The rest is **silence**.");
    (await w.s.users.desdemona.client.patch("/realm", { allow_message_editing: false })).success();
    try {
      await editor.fill("Words, words, words.");
      await hamlet.page.getByRole("button", { name: "Save" }).click();
      await hamlet.page.locator(".editor-error", { hasText: "Your edit was not saved: Your organization has turned off message editing" }).waitFor();
      expect((await stored(first))!.content).toBe("The rest is **silence**.");
      await editor.press("Escape");
      await editor.waitFor({ state: "detached" });
      // and the menu no longer offers it
      const labels = await (await messageMenu(hamlet.page, "The rest is silence.")).getByRole("menuitem").allTextContents();
      expect(labels).not.toContain("Edit message");
      await hamlet.page.keyboard.press("Escape");
    } finally {
      (await w.s.users.desdemona.client.patch("/realm", { allow_message_editing: true })).success();
    }

    // deleting asks first; then it is gone for both, and from the server
    await (await messageMenu(hamlet.page, "The rest is silence.")).getByRole("menuitem", { name: "Delete message" }).click();
    const confirm = hamlet.page.getByRole("dialog", { name: "Delete message?" });
    await confirm.getByRole("button", { name: "Delete" }).click();
    await confirm.waitFor({ state: "detached" });
    await row(hamlet.page, "The rest is silence.").waitFor({ state: "detached" });
    await row(othello.page, "The rest is silence.").waitFor({ state: "detached" });
    expect(await stored(first)).toBeUndefined();
    expect(await stored(theirs)).toBeDefined();
    expect([...hamlet.errors, ...othello.errors]).toEqual([]);
  }, 30_000);

  test("hamlet moves a topic to another channel from its menu: both people's views follow, the server moved every message; then he resolves it", async () => {
    const ids = [await send("othello", "old plans", "First, the ghost."), await send("othello", "old plans", "Then, the play.")];
    const hamlet = await w.open();
    const othello = await w.open();
    await w.logIn(hamlet.page, "hamlet", generalTopic("old plans"));
    await w.logIn(othello.page, "othello", "/" + `#narrow/channel/${general}-general`);
    await row(hamlet.page, "Then, the play.").waitFor();
    await row(othello.page, "Then, the play.").waitFor();

    // from a message's menu, only that message moves (to another topic of the channel)
    const aside = await send("othello", "old plans", "An aside.");
    await (await messageMenu(hamlet.page, "An aside.")).getByRole("menuitem", { name: "Move messages" }).click();
    const moveOne = hamlet.page.getByRole("dialog", { name: "Move messages" });
    expect(await moveOne.getByRole("combobox", { name: "Which messages should be moved?" }).inputValue()).toBe("change_one");
    await moveOne.getByRole("textbox", { name: "Topic" }).fill("asides");
    await moveOne.getByRole("button", { name: "Confirm" }).click();
    await moveOne.waitFor({ state: "detached" });
    await eventually(async () => (await stored(aside))!.topic, "asides");
    await row(hamlet.page, "An aside.").waitFor({ state: "detached" });
    expect((await stored(ids[1]!))!.topic).toBe("old plans");

    await hamlet.page.locator(".view-header").getByRole("button", { name: "Topic actions for old plans" }).click();
    await hamlet.page.getByRole("menuitem", { name: "Move topic" }).click();
    const dialog = hamlet.page.getByRole("dialog", { name: "Move topic" });
    await dialog.getByRole("combobox", { name: "Channel" }).selectOption({ label: "#design" });
    await dialog.getByRole("textbox", { name: "Topic" }).fill("new plans");
    await hamlet.page.screenshot({ path: shot("move-topic") });
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await dialog.waitFor({ state: "detached" });

    // the server moved both; hamlet's view followed the topic; othello's channel view let them go
    await eventually(async () => (await Promise.all(ids.map(stored))).map((m) => [m!.stream_id, m!.topic]), [[design, "new plans"], [design, "new plans"]]);
    await hamlet.page.locator(".view-title", { hasText: "new plans" }).waitFor();
    expect(hamlet.page.url()).toContain(`#narrow/channel/${design}-design/topic/new.20plans`);
    await row(hamlet.page, "Then, the play.").waitFor();
    await row(othello.page, "Then, the play.").waitFor({ state: "detached" });
    // the old topic left hamlet's sidebar
    expect(await hamlet.page.locator(".topic-row", { hasText: "old plans" }).count()).toBe(0);

    // resolving renames it with Zulip's check mark, and the view follows again
    await hamlet.page.locator(".view-header").getByRole("button", { name: "Topic actions for new plans" }).click();
    await hamlet.page.getByRole("menuitem", { name: "Mark as resolved" }).click();
    await eventually(async () => (await stored(ids[0]!))!.topic, "✔ new plans");
    await hamlet.page.locator(".view-title", { hasText: "✔ new plans" }).waitFor();
    await hamlet.page.locator(".topic-row", { hasText: "✔ new plans" }).waitFor();
    expect([...hamlet.errors, ...othello.errors]).toEqual([]);
  }, 30_000);

  test("a link copied from a message's menu is on the clipboard and opens at the message; quote and reply writes Zulip's quote and sends it", async () => {
    const quoted = await send("othello", "quotes", "Now cracks a noble heart.");
    const { page, errors } = await w.open({ context: { permissions: ["clipboard-read", "clipboard-write"] } });
    await w.logIn(page, "hamlet", generalTopic("quotes"));
    await row(page, "Now cracks a noble heart.").waitFor();

    await (await messageMenu(page, "Now cracks a noble heart.")).getByRole("menuitem", { name: "Copy link to message" }).click();
    const link = `${w.base}/#narrow/channel/${general}-general/topic/quotes/near/${quoted}`;
    await eventually(() => page.evaluate(() => navigator.clipboard.readText()), link);
    await page.locator(".notice", { hasText: "Copied a link to the message." }).waitFor();

    // the link opens the topic with that message selected
    await page.goto(w.base + "/#inbox");
    await page.locator(".view-title", { hasText: "Inbox" }).waitFor();
    await page.goto(link);
    await row(page, "Now cracks a noble heart.").and(page.locator(".selected")).waitFor();

    await (await messageMenu(page, "Now cracks a noble heart.")).getByRole("menuitem", { name: "Quote and reply" }).click();
    const quote = `@_**Othello, the Moor of Venice|${id("othello")}** [said](${link}):\n\`\`\`quote\nNow cracks a noble heart.\n\`\`\`\n`;
    await eventually(() => page.inputValue(".compose-text"), quote);
    expect(await page.evaluate(() => document.activeElement?.className)).toContain("compose-text");
    await page.keyboard.type("Good night, sweet prince.");
    await page.keyboard.press("Control+Enter");
    await row(page, "Good night, sweet prince.").locator("blockquote", { hasText: "Now cracks a noble heart." }).waitFor();
    const sent = await w.s.app.db.get<{ content: string; topic: string }>("SELECT content, topic FROM messages WHERE content LIKE '%sweet prince.'");
    expect(sent).toEqual({ content: quote + "Good night, sweet prince.", topic: "quotes" });
    expect(errors).toEqual([]);
  }, 20_000);

  test("the keyboard: j/k and the arrows move the selection, * stars, r replies, c and x start messages, n and p go to unread ones, ? shows the help, Esc goes back", async () => {
    const ids = [await send("cordelia", "keys", "One."), await send("cordelia", "keys", "Two."), await send("cordelia", "keys", "Three.")];
    await send("cordelia", "more keys", "Another topic.");
    (await w.s.users.othello.client.post("/messages", { type: "direct", to: [id("hamlet")], content: "A private word." })).success();
    const { page, errors } = await w.open();
    await w.logIn(page, "hamlet", generalTopic("keys"));
    const selected = () => page.locator(".message-row.selected .message-content").textContent();
    // it opens at the first unread message, selected
    await eventually(selected, "One.");
    await page.keyboard.press("j");
    await eventually(selected, "Two.");
    await page.keyboard.press("ArrowDown");
    await eventually(selected, "Three.");
    await page.keyboard.press("k");
    await eventually(selected, "Two.");

    // * stars the selected message, and again unstars it
    await page.keyboard.press("*");
    // the star stays shown on a starred message
    await row(page, "Two.").getByRole("button", { name: "Unstar message" }).waitFor({ state: "visible" });
    const starred = async () => ((await w.s.app.db.get<{ flags: number }>("SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?", [id("hamlet"), ids[1]!]))!.flags & 2) === 2;
    await eventually(starred, true);
    await page.screenshot({ path: shot("keyboard-selected") });
    await page.keyboard.press("*");
    await eventually(starred, false);

    // e: his own message opens in the editor (Esc cancels, the focus back on it); someone else's says why not
    const mine = await send("hamlet", "keys", "Four, mine.");
    await row(page, "Four, mine.").waitFor();
    await page.keyboard.press("End");
    await eventually(selected, "Four, mine.");
    await page.keyboard.press("e");
    const editor = page.getByRole("textbox", { name: "Message text" });
    await eventually(() => editor.inputValue(), "Four, mine.");
    await page.keyboard.press("Escape");
    await editor.waitFor({ state: "detached" });
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.messageId)).toBe(String(mine));
    // someone else's: only its topic, which members may move here
    await page.keyboard.press("k");
    await page.keyboard.press("e");
    const topicField = page.locator(".message-editor").getByRole("textbox", { name: "Topic" });
    await topicField.waitFor();
    expect(await page.getByRole("textbox", { name: "Message text" }).count()).toBe(0);
    await page.keyboard.press("Escape");
    await topicField.waitFor({ state: "detached" });

    // r: a reply to the topic, in the compose box; Esc leaves it
    await page.keyboard.press("r");
    await eventually(() => page.evaluate(() => document.activeElement?.className ?? ""), "compose-text");
    expect(await page.inputValue(".compose-topic")).toBe("keys");
    await page.keyboard.press("Escape");
    await eventually(() => page.evaluate(() => document.activeElement === document.body), true);
    // c: a new topic in this channel; x: a new direct message
    await page.keyboard.press("c");
    await eventually(() => page.evaluate(() => document.activeElement?.className ?? ""), "compose-topic");
    expect(await page.inputValue(".compose-topic")).toBe("");
    await page.keyboard.press("Escape");
    await page.keyboard.press("x");
    await eventually(() => page.evaluate(() => document.activeElement?.className ?? ""), "recipient-input");
    await page.keyboard.press("Escape");
    await eventually(() => page.evaluate(() => document.activeElement === document.body), true);

    // n: the next topic with unread messages; p: the conversation with one
    await page.keyboard.press("n");
    await page.locator(".view-title", { hasText: "more keys" }).waitFor();
    await page.keyboard.press("p");
    await page.locator(".view-title", { hasText: "Othello, the Moor of Venice" }).waitFor();
    await row(page, "A private word.").waitFor();
    // a direct message from someone else: nothing of it can be edited, and that is said
    await page.keyboard.press("e");
    await page.locator(".notice", { hasText: "You can edit only your own messages." }).waitFor();

    // ?: the help, a dialog the focus stays in; Esc closes it and the focus comes back
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await help.waitFor();
    await page.screenshot({ path: shot("keyboard-help") });
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press("Tab");
      expect(await help.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await help.waitFor({ state: "detached" });
    // from the personal menu, the focus comes back to its button
    await page.getByRole("button", { name: /^Personal menu/ }).click();
    await page.getByRole("menuitem", { name: "Keyboard shortcuts" }).click();
    await help.waitFor();
    await page.keyboard.press("Escape");
    await help.waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toMatch(/^Personal menu/);
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    // Esc with nothing open: back to the home view
    await page.keyboard.press("Escape");
    await page.locator(".view-title", { hasText: "Inbox" }).waitFor();
    // nothing fires while typing: "j" and "?" in the search field are letters
    await page.keyboard.press("/");
    await page.keyboard.type("j?");
    expect(await page.inputValue(".search-input")).toBe("j?");
    expect(await page.getByRole("dialog").count()).toBe(0);
    expect(errors).toEqual([]);
  }, 30_000);

  test("search: suggestions complete operators and people, the results highlight the words, and the URL brings the search back", async () => {
    const match = await send("othello", "watch", "The ramparts are cold tonight.");
    await send("hamlet", "watch", "Meet me on the ramparts.");
    await send("othello", "watch", "Nothing of that here.");
    const { page, errors } = await w.open();
    await w.logIn(page, "hamlet");
    await page.locator(".view-title", { hasText: "Inbox" }).waitFor();

    // "/" focuses the bar; "sen" offers the sender operator, "oth" then offers Othello
    await page.keyboard.press("/");
    await page.keyboard.type("sen");
    const options = page.getByRole("listbox", { name: "Suggestions" }).getByRole("option");
    await options.filter({ hasText: "sender:" }).first().waitFor();
    expect(await options.first().textContent()).toContain("Search for “sen”");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    expect(await page.inputValue(".search-input")).toBe("sender:");
    await page.keyboard.type("oth");
    await options.filter({ hasText: "Sent by Othello, the Moor of Venice" }).waitFor();
    await page.screenshot({ path: shot("search-suggestions") });
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Tab");
    expect(await page.inputValue(".search-input")).toBe("sender:othello@zulip.com ");
    await page.keyboard.type("ramparts");
    await page.keyboard.press("Enter");

    // one result, the word marked as the server marked it; the URL is Zulip's
    await page.locator(".view-title", { hasText: "Search results" }).waitFor();
    await row(page, "The ramparts are cold tonight.").waitFor();
    expect(await page.locator(".message-row").count()).toBe(1);
    expect(await row(page, "The ramparts").locator(".highlight").allTextContents()).toEqual(["ramparts"]);
    expect(await row(page, "The ramparts").getAttribute("data-message-id")).toBe(String(match));
    expect(page.url()).toEndWith(`#narrow/sender/${id("othello")}-Othello.2C-the-Moor-of-Venice/search/ramparts`);
    await page.screenshot({ path: shot("search-results") });

    // a reload (or the link) brings the same search back, its terms in the bar
    await page.reload();
    await row(page, "The ramparts are cold tonight.").locator(".highlight").waitFor();
    expect(await page.inputValue(".search-input")).toBe("sender:othello@zulip.com ramparts");
    expect(await page.locator(".message-row").count()).toBe(1);

    // the clear button empties the bar; an operator alone is the plain view it names
    await page.locator(".search-input").click();
    await page.getByRole("button", { name: "Clear the search" }).click();
    expect(await page.inputValue(".search-input")).toBe("");
    await page.keyboard.type("channel:design");
    await page.keyboard.press("Enter");
    await page.locator(".view-title", { hasText: "design" }).waitFor();
    expect(page.url()).toEndWith(`#narrow/channel/${design}-design`);
    // a name that is nobody's is said, and the view stays
    await page.keyboard.press("/");
    await page.keyboard.press("Control+a");
    await page.keyboard.type("sender:nobody@example.com");
    await page.keyboard.press("Enter");
    await page.locator(".notice", { hasText: "No one here is known as “nobody@example.com”." }).waitFor();
    await page.keyboard.press("Escape");
    expect(page.url()).toEndWith(`#narrow/channel/${design}-design`);
    expect(errors).toEqual([]);
  }, 30_000);

  test("a desktop notification pops up for a direct message while the page is hidden, not for a muted topic, and clicking it opens the message", async () => {
    (await w.s.users.hamlet.client.patch("/settings", { enable_stream_desktop_notifications: true })).success();
    (await w.s.users.hamlet.client.post("/user_topics", { stream_id: general, topic: "muted chatter", visibility_policy: 1 })).success();
    const { page, context, errors } = await w.open();
    // a stand-in for the browser's Notification (permission granted) that records what the page shows,
    // and a switch that makes the page look hidden (another tab in front)
    await context.addInitScript(() => {
      const shown: { title: string; body: string; tag: string; onclick: (() => void) | null }[] = [];
      (window as any).__shown = shown;
      class FakeNotification {
        static permission = "default";
        static requestPermission = async () => (FakeNotification.permission = "granted");
        onclick: (() => void) | null = null;
        constructor(title: string, opts: { body: string; tag: string }) {
          shown.push(Object.assign(this, { title, body: opts.body, tag: opts.tag }) as any);
        }
        close() {}
      }
      (window as any).Notification = FakeNotification;
      // the sound: the notes the page plays are counted
      (window as any).__notes = 0;
      class FakeAudio {
        state = "running";
        currentTime = 0;
        destination = {};
        resume = async () => {};
        createGain = () => ({ gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (x: unknown) => x });
        createOscillator = () => ({ frequency: {}, connect: (x: unknown) => x, start: () => (window as any).__notes++, stop() {} });
      }
      (window as any).AudioContext = FakeAudio;
      let hidden = false;
      Object.defineProperty(document, "visibilityState", { get: () => (hidden ? "hidden" : "visible") });
      Object.defineProperty(document, "hidden", { get: () => hidden });
      document.hasFocus = () => !hidden;
      (window as any).__hide = (h: boolean) => {
        hidden = h;
        document.dispatchEvent(new Event("visibilitychange"));
      };
    });
    await w.logIn(page, "hamlet", generalTopic("open chatter"));
    await page.locator(".view-title", { hasText: "open chatter" }).waitFor();
    // the banner asks for the browser's permission, on the person's click
    await page.getByRole("button", { name: "Enable notifications" }).click();
    await page.locator(".notification-banner").waitFor({ state: "detached" });
    const shown = () => page.evaluate(() => (window as any).__shown.map((n: any) => [n.title, n.body]));

    await page.evaluate(() => (window as any).__hide(true));
    await send("othello", "muted chatter", "Nobody should hear this.");
    const dm = (await w.s.users.othello.client.post("/messages", { type: "direct", to: [id("hamlet")], content: "Are you **awake**?" })).success().id as number;
    await send("othello", "open chatter", "The channel speaks.");
    await eventually(shown, [
      ["Othello, the Moor of Venice", "Are you awake?"],
      ["Othello, the Moor of Venice (#general › open chatter)", "The channel speaks."],
    ]);
    // a sound (Zulip's three notes) for the direct message; none for the channel, whose sound is off
    expect(await page.evaluate(() => (window as any).__notes)).toBe(3);

    // while the page is shown, nothing pops up
    await page.evaluate(() => (window as any).__hide(false));
    await send("othello", "open chatter", "Seen where it lands.");
    await row(page, "Seen where it lands.").waitFor();
    expect((await shown()).length).toBe(2);

    // clicking the first opens the conversation at that message
    await page.evaluate(() => (window as any).__shown[0].onclick());
    await row(page, "Are you awake?").and(page.locator(".selected")).waitFor();
    expect(page.url()).toContain(`/near/${dm}`);
    (await w.s.users.hamlet.client.patch("/settings", { enable_stream_desktop_notifications: false })).success();
    expect(errors).toEqual([]);
  }, 20_000);

  test("the notification settings save each choice to the server, and dark and phone-width pages stay readable", async () => {
    await send("cordelia", "night", "How all occasions do inform against me.");
    const { page, errors } = await w.open({ dark: true });
    await w.logIn(page, "hamlet", generalTopic("night"));
    await page.getByRole("button", { name: /^Personal menu/ }).click();
    await page.getByRole("menuitem", { name: "Notification settings" }).click();
    // the personal menu's entry opens the Notifications section of the settings overlay
    const dialog = page.getByRole("dialog", { name: "Settings" });
    await dialog.getByRole("heading", { name: "Notifications" }).waitFor();
    const sound = dialog.getByRole("checkbox", { name: "Sound notifications for direct messages, mentions and alerts" });
    expect(await sound.isChecked()).toBe(true);
    await sound.click();
    const settingNow = async (name: string) => (await w.s.users.hamlet.client.post("/register", { fetch_event_types: ["user_settings"] })).success().user_settings[name];
    await eventually(() => settingNow("enable_sounds"), false);
    await eventually(() => sound.isChecked(), false);
    await dialog.getByRole("combobox", { name: "Notification sound" }).selectOption({ label: "Chime" });
    await eventually(() => settingNow("notification_sound"), "chime");
    await page.screenshot({ path: shot("notification-settings-dark") });
    await sound.click();
    await eventually(() => settingNow("enable_sounds"), true);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    // the message menu in the dark
    await (await messageMenu(page, "How all occasions")).getByRole("menuitem").first().waitFor();
    await page.screenshot({ path: shot("message-actions-dark") });
    await page.keyboard.press("Escape");

    // at phone width: the search bar fits beside the toggles, and a message's menu still opens
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator(".search-input").click();
    await page.keyboard.type("is:");
    await page.getByRole("option", { name: /Starred messages/ }).waitFor();
    await page.screenshot({ path: shot("phone-search") });
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    await row(page, "How all occasions").click();
    await row(page, "How all occasions").getByRole("button", { name: "Message actions" }).click();
    await page.getByRole("menuitem", { name: "Copy link to message" }).waitFor();
    await page.screenshot({ path: shot("phone-message-menu") });
    expect(errors).toEqual([]);
  }, 20_000);

  test("only a message in use draws its actions: hovering shows them, the selected and a starred message keep theirs, and the keyboard still reaches the topic's menu", async () => {
    const ids: number[] = [];
    for (const text of ["Light one.", "Light two.", "Light three.", "Light four."]) ids.push(await send("othello", "light rows", text));
    (await w.s.users.hamlet.client.post("/messages/flags", { messages: JSON.stringify([ids[1]]), op: "add", flag: "starred" })).success();
    const { page, errors } = await w.open();
    await w.logIn(page, "hamlet", generalTopic("light rows"));
    await row(page, "Light four.").waitFor();
    await page.mouse.move(0, 0);
    // it opens at the first unread message, selected: that one and the starred one have their buttons, the others none
    const drawn = () => page.locator(".message-row .message-controls").evaluateAll((els) => els.map((e) => e.closest(".message-row")!.querySelector(".message-content")!.textContent));
    await eventually(drawn, ["Light one.", "Light two."]);
    await row(page, "Light two.").getByRole("button", { name: "Unstar message" }).waitFor({ state: "visible" });
    expect(await page.locator(".message-row .hover-time").count()).toBe(0);
    expect(await page.locator(".recipient-bar .row-menu").count()).toBe(0);

    // hovering a message shows its time and its buttons; its menu stays open when the pointer leaves, Escape gives the focus back
    const third = row(page, "Light three.");
    await third.hover();
    await third.locator(".hover-time").waitFor({ state: "visible" });
    await third.getByRole("button", { name: "Message actions" }).click();
    await page.mouse.move(0, 0);
    await page.getByRole("menuitem", { name: "Copy link to message" }).waitFor();
    await page.keyboard.press("Escape");
    expect(await page.evaluate(() => `${document.activeElement?.getAttribute("aria-label")} ${document.activeElement?.closest(".message-row")?.querySelector(".message-content")?.textContent}`)).toBe("Message actions Light three.");

    // from the topic's link in the bar above the messages, Tab reaches the topic's menu
    await page.locator(".recipient-bar .recipient-topic").focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Topic actions for light rows");
    await page.keyboard.press("Enter");
    await page.getByRole("menuitem", { name: "Mark topic as read" }).waitFor();
    expect(errors).toEqual([]);
  }, 20_000);

  test("Home and End reach the first and the last loaded message even when they are outside the rows the page holds", async () => {
    for (let i = 1; i <= 260; i++) await send("cordelia", "long keys", `Line ${i}`);
    (await w.s.users.hamlet.client.post("/mark_all_as_read")).success();
    const { page, errors } = await w.open({ height: 700 });
    await w.logIn(page, "hamlet", generalTopic("long keys"));
    const line = (n: number) => page.locator(".message-row", { has: page.locator(".message-content", { hasText: new RegExp(`^Line ${n}$`) }) });
    await line(260).waitFor();
    // scrolled up to the first line: everything is loaded, and the newest lines have left the page
    const scroller = page.locator(".message-scroller");
    for (let i = 0; i < 60 && !(await page.locator(".list-start").count()); i++) {
      await scroller.evaluate((el) => (el.scrollTop = 0));
      await page.waitForTimeout(60);
    }
    await line(1).waitFor();
    expect(await line(260).count()).toBe(0);
    const selectedLine = () => page.locator(".message-row.selected .message-content").textContent();
    const inView = (n: number) =>
      line(n).evaluate((el) => {
        const box = el.getBoundingClientRect();
        const view = el.closest(".message-scroller")!.getBoundingClientRect();
        return box.top >= view.top - 2 && box.bottom <= view.bottom + 2;
      });
    await page.locator(".message-scroller").focus();
    await page.keyboard.press("End");
    await eventually(selectedLine, "Line 260");
    await eventually(() => inView(260), true);
    await page.keyboard.press("k");
    await eventually(selectedLine, "Line 259");
    await page.keyboard.press("Home");
    await eventually(selectedLine, "Line 1");
    await eventually(() => inView(1), true);
    expect(await page.locator(".message-row").count()).toBeLessThanOrEqual(225);
    expect(errors).toEqual([]);
  }, 30_000);
});
