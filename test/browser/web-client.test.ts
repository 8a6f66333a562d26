/**
 * The web app end to end in a real browser: Debian's Chromium driven by playwright-core against an
 * in-process server. Each journey checks what the person sees and what the server stored. One browser,
 * a context per person; screenshots of the main views land in /tmp/parley-web-*.png.
 */
import { describe, expect, test } from "bun:test";
import type { CastName } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { makePng, upload } from "../helpers/uploads";
import { browserSuite, eventually, row, shot, topicHash as hashOf } from "./helpers";

let general: number;
const suite = browserSuite(async (s) => {
  general = await createChannel(s, "iago", "general", { subscribers: ["hamlet", "othello", "cordelia"], description: "Everything that does not fit elsewhere" });
  await createChannel(s, "iago", "design", { subscribers: ["hamlet", "othello"] });
  // the channels' creation notices start out read, so each journey counts only its own messages
  for (const who of ["hamlet", "othello"] as const) (await s.users[who].client.post("/mark_all_as_read")).success();
});
const open = suite.open;
const logIn = suite.logIn;

const topicHash = (topic: string) => hashOf(general, "general", topic);
const userId = (who: CastName) => suite.userId(who);
const flagsOf = async (who: CastName, messageId: number) =>
  (await suite.s.app.db.get<{ flags: number }>("SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?", [userId(who), messageId]))!.flags;
const isRead = async (who: CastName, messageId: number) => ((await flagsOf(who, messageId)) & 1) === 1;
/** A personal setting as the server has it now. */
const setting = async (who: CastName, name: string) => (await suite.s.users[who].client.post("/register", { fetch_event_types: ["user_settings"] })).success().user_settings[name];
const send = async (who: CastName, topic: string, content: string) =>
  (await suite.s.users[who].client.post("/messages", { type: "stream", to: general, topic, content })).success().id as number;

describe("the web app in a real browser", () => {
  test("a wrong password keeps the login form up and says so; no session is made", async () => {
    const { context, page } = await open();
    await page.goto(suite.base + "/");
    await expect(page.title()).resolves.toBe("Log in · Zulip Dev");
    await page.fill("#login-email", "hamlet@zulip.com");
    await page.fill("#login-password", "wrong-pass");
    await Promise.all([page.waitForURL("**/?login_failed=1"), page.click(".login-form button[type=submit]")]);
    expect(await page.locator(".login-error").textContent()).toBe("Your email or password is incorrect.");
    expect((await context.cookies()).map((c) => c.name)).not.toContain("parley_session");
    await page.screenshot({ path: shot("login") });
  }, 20_000);

  test("after too many failed logins the login page says how long to wait", async () => {
    for (let i = 0; i < 5; i++) {
      const r = await fetch(suite.base + "/login", { method: "POST", body: new URLSearchParams({ username: "cordelia@zulip.com", password: "guess" }), redirect: "manual" });
      expect(r.headers.get("location")).toBe("/?login_failed=1");
    }
    const { page } = await open();
    await page.goto(suite.base + "/");
    await page.fill("#login-email", "cordelia@zulip.com");
    await page.fill("#login-password", "guess again");
    await Promise.all([page.waitForURL(/login_throttled=\d+$/), page.click(".login-form button[type=submit]")]);
    // the first failure leaves the 30-minute window in a little under 1800 seconds (a real clock runs here)
    expect(await page.locator(".login-error").textContent()).toMatch(
      /^You're making too many attempts to sign in\. Try again in 1[78]\d\d seconds or contact your organization administrator for help\.$/,
    );
  }, 20_000);

  test("hamlet and othello exchange channel messages live, and the server stores them", async () => {
    const hamlet = await open();
    const othello = await open();
    await logIn(hamlet.page, "hamlet");
    await hamlet.page.locator(".view-title", { hasText: "Inbox" }).waitFor();
    await logIn(othello.page, "othello", "/" + topicHash("ramparts"));
    // othello came by a shared link while logged out: the login brought him to that topic
    await othello.page.locator(".view-title", { hasText: "ramparts" }).waitFor();

    // hamlet opens the channel from the sidebar and writes to a topic (Ctrl+Enter sends by default)
    await hamlet.page.locator(".channel-row a", { hasText: "general" }).click();
    await hamlet.page.locator(".view-title", { hasText: "general" }).waitFor();
    expect(hamlet.page.url()).toContain(`#narrow/channel/${general}-general`);
    await hamlet.page.fill(".compose-topic", "ramparts");
    await hamlet.page.fill(".compose-text", "Something is **rotten** in the state of Denmark.");
    await hamlet.page.press(".compose-text", "Control+Enter");
    const mine = row(hamlet.page, "Something is rotten");
    await mine.waitFor();
    expect(await mine.locator(".sender-name").textContent()).toBe("King Hamlet");
    expect(await mine.locator(".message-content strong").textContent()).toBe("rotten");
    expect(await hamlet.page.inputValue(".compose-text")).toBe("");
    const stored = await suite.s.app.db.get<{ id: number; sender_id: number; topic: string; content: string }>("SELECT id, sender_id, topic, content FROM messages WHERE content LIKE 'Something is%'");
    expect(stored).toMatchObject({ sender_id: userId("hamlet"), topic: "ramparts", content: "Something is **rotten** in the state of Denmark." });

    // othello sees it arrive without reloading; he turns "Enter sends" on and answers with Enter
    await row(othello.page, "Something is rotten").waitFor();
    await othello.page.locator(".enter-toggle input").check();
    await eventually(() => setting("othello", "enter_sends"), true);
    await othello.page.fill(".compose-text", "Look where it comes!");
    await othello.page.press(".compose-text", "Enter");
    const reply = row(hamlet.page, "Look where it comes!");
    await reply.waitFor();
    expect(await hamlet.page.locator(".message-row .sender-name").allTextContents()).toContain("Othello, the Moor of Venice");
    const replyRow = await suite.s.app.db.get<{ sender_id: number; topic: string }>("SELECT sender_id, topic FROM messages WHERE content = 'Look where it comes!'");
    expect(replyRow).toEqual({ sender_id: userId("othello"), topic: "ramparts" });
    // both are in one block under the topic's recipient bar
    const block = hamlet.page.locator(".message-block", { hasText: "Look where it comes!" });
    expect(await block.locator(".recipient-topic").textContent()).toBe("ramparts");
    await hamlet.page.screenshot({ path: shot("channel") });
    expect([...hamlet.errors, ...othello.errors]).toEqual([]);
  }, 20_000);

  test("a direct message from othello reaches hamlet's sidebar live, and reading it clears the count on the server too", async () => {
    const hamlet = await open();
    const othello = await open();
    await logIn(hamlet.page, "hamlet");
    await logIn(othello.page, "othello");
    // hamlet's page reported him active, and othello sees it in the people list
    await othello.page.locator(".person-row", { hasText: "King Hamlet" }).locator(".presence-active").waitFor();
    expect((await suite.s.users.othello.client.get(`/users/${userId("hamlet")}/presence`)).success().presence.aggregated.status).toBe("active");
    // othello picks hamlet from the people list, which opens their conversation
    await othello.page.locator(".person-row", { hasText: "King Hamlet" }).click();
    await othello.page.locator(".view-title", { hasText: "King Hamlet" }).waitFor();
    expect(await othello.page.locator(".recipient-picker .pill").textContent()).toContain("King Hamlet");
    await othello.page.fill(".compose-text", "A word in private, my lord?");
    await othello.page.press(".compose-text", "Control+Enter");
    await row(othello.page, "A word in private").waitFor();
    const dm = await suite.s.app.db.get<{ id: number }>("SELECT id FROM messages WHERE content = 'A word in private, my lord?'");

    const convo = hamlet.page.locator(".dm-row", { hasText: "Othello" });
    await convo.locator(".unread-count", { hasText: "1" }).waitFor();
    await hamlet.page.locator(".inbox-row", { hasText: "Othello" }).waitFor();
    expect(await isRead("hamlet", dm!.id)).toBe(false);
    await convo.click();
    await row(hamlet.page, "A word in private").waitFor();
    await eventually(() => isRead("hamlet", dm!.id), true);
    await convo.locator(".unread-count").waitFor({ state: "detached" });
    await hamlet.page.screenshot({ path: shot("dm") });
    expect([...hamlet.errors, ...othello.errors]).toEqual([]);
  }, 20_000);

  test("unread counts rise with new messages and fall as they are seen; marking unread and muting work from the menus", async () => {
    const { page, errors } = await open();
    await logIn(page, "hamlet");
    await page.locator(".view-title", { hasText: "Inbox" }).waitFor();
    (await suite.s.users.hamlet.client.post("/mark_all_as_read")).success();
    await eventually(() => page.title(), "Inbox · Zulip Dev");
    const ids = [await send("cordelia", "battle plans", "First, the left flank."), await send("cordelia", "battle plans", "Then the right."), await send("cordelia", "battle plans", "Then lunch.")];
    const inboxRow = page.locator(".inbox-topic", { hasText: "battle plans" });
    await inboxRow.locator(".unread-count", { hasText: "3" }).waitFor();
    await eventually(() => page.title(), "(3) Inbox · Zulip Dev");
    const favicon = () => page.evaluate(() => document.querySelector<HTMLLinkElement>("link[rel=icon]")!.href);
    await eventually(async () => (await favicon()).startsWith("data:image/png"), true);
    const withCount = await favicon();
    await page.screenshot({ path: shot("inbox") });

    // opening the topic shows the messages, and seeing them marks them read on the server
    await inboxRow.locator(".inbox-row").click();
    await row(page, "Then lunch.").waitFor();
    await eventually(async () => (await Promise.all(ids.map((id) => isRead("hamlet", id)))).every(Boolean), true);
    await eventually(() => page.title(), "#general › battle plans · Zulip Dev");
    await eventually(async () => (await favicon()) !== withCount, true); // the count left the icon
    const topicRow = page.locator(".topic-row", { hasText: "battle plans" });
    expect(await topicRow.locator(".unread-count").count()).toBe(0);

    // "mark as unread from here" on the second: it and the third are unread again, and stay so while shown
    const second = row(page, "Then the right.");
    await second.hover();
    await second.getByRole("button", { name: "Message actions" }).click();
    await page.screenshot({ path: shot("message-menu") });
    await page.getByRole("menuitem", { name: "Mark as unread from here" }).click();
    await topicRow.locator(".unread-count", { hasText: "2" }).waitFor();
    expect([await isRead("hamlet", ids[0]!), await isRead("hamlet", ids[1]!), await isRead("hamlet", ids[2]!)]).toEqual([true, false, false]);
    await page.waitForTimeout(600); // longer than the read batching: nothing is marked read again
    expect(await isRead("hamlet", ids[2]!)).toBe(false);
    expect(await page.locator(".message-row.unread").count()).toBe(2);

    // muting the topic from its menu: stored, dimmed, and its unread messages leave the channel's count
    const channelCount = page.locator(".channel-row", { hasText: "general" }).locator(".unread-count");
    await channelCount.waitFor();
    await page.locator(".view-header").getByRole("button", { name: "Topic actions for battle plans" }).click();
    await page.getByRole("menuitem", { name: "Mute topic" }).click();
    await eventually(async () => (await suite.s.app.db.get<{ visibility_policy: number }>("SELECT visibility_policy FROM user_topics WHERE user_id = ? AND topic = 'battle plans'", [userId("hamlet")]))?.visibility_policy, 1);
    await page.locator(".topic-item.muted", { hasText: "battle plans" }).waitFor();
    await channelCount.waitFor({ state: "detached" });
    // and "mark all as read" in the view's header reads the rest
    await page.locator(".view-header").getByRole("button", { name: "Mark all as read" }).click();
    await eventually(() => isRead("hamlet", ids[2]!), true);
    expect(errors).toEqual([]);
  }, 20_000);

  test("a dropped connection shows a banner and recovers, a lost event queue is replaced, and the compose box keeps its text", async () => {
    const { page, errors } = await open();
    await logIn(page, "hamlet", "/" + topicHash("watch"));
    await page.locator(".view-title", { hasText: "watch" }).waitFor();
    // writing sends a typing notice, whose event answers the poll in flight: wait for the next poll
    const nextPoll = page
      .waitForResponse(async (r) => r.url().includes("/json/events?") && (await r.text()).includes('"typing"'))
      .then(() => page.waitForRequest((r) => r.url().includes("/json/events?")));
    await page.fill(".compose-text", "A draft that must survive");
    await nextPoll;

    // the server cannot be reached: polls fail, the banner says so; a message sent meanwhile is not lost
    await page.route("**/json/events?**", (r) => r.abort("connectionrefused"));
    await send("othello", "watch", "Who's there?"); // answers the poll in flight; the next one fails
    await row(page, "Who's there?").waitFor();
    await page.locator(".connection-banner", { hasText: "Can't reach Parley's server" }).waitFor();
    await send("othello", "watch", "Nay, answer me.");
    await page.unroute("**/json/events?**");
    await page.locator(".connection-banner").getByRole("button", { name: "Try now" }).click();
    await row(page, "Nay, answer me.").waitFor();
    await page.locator(".connection-banner").waitFor({ state: "detached" });
    expect(await page.inputValue(".compose-text")).toBe("A draft that must survive");

    // the server forgot the queue (a restart): the app registers again and reloads the view
    suite.s.app.events.dropUser(userId("hamlet"));
    await eventually(() => suite.s.app.events.hasQueues(userId("hamlet")), true);
    await send("othello", "watch", "Stand, and unfold yourself.");
    await row(page, "Stand, and unfold yourself.").waitFor();
    expect(await page.inputValue(".compose-text")).toBe("A draft that must survive");
    expect(await page.locator(".view-title").textContent()).toContain("watch");
    expect(errors).toEqual([]);
  }, 20_000);

  test("the dark theme follows the system, and the personal menu sets it for the account", async () => {
    const { page, errors } = await open({ dark: true });
    await logIn(page, "hamlet", "/" + topicHash("ramparts"));
    await row(page, "Something is rotten").waitFor();
    // the account follows the system (color_scheme 1), and the system is dark
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await page.getByRole("button", { name: /^Personal menu/ }).click();
    await page.getByRole("menuitemradio", { name: "Light theme" }).click();
    await eventually(() => page.evaluate(() => document.documentElement.dataset.theme), "light");
    expect(await setting("hamlet", "color_scheme")).toBe(3);
    await page.getByRole("button", { name: /^Personal menu/ }).click();
    await page.getByRole("menuitemradio", { name: "Dark theme" }).click();
    await eventually(() => page.evaluate(() => document.documentElement.dataset.theme), "dark");
    expect(await setting("hamlet", "color_scheme")).toBe(2);
    const background = await page.evaluate(() => getComputedStyle(document.querySelector(".message-block")!).backgroundColor);
    expect(background).toBe("rgb(27, 30, 35)");
    await page.screenshot({ path: shot("dark") });
    // back to following the system, for the journeys after this one
    await page.getByRole("button", { name: /^Personal menu/ }).click();
    await page.getByRole("menuitemradio", { name: "Follow the system's theme" }).click();
    await eventually(() => setting("hamlet", "color_scheme"), 1);
    expect(errors).toEqual([]);
  }, 20_000);

  test("at phone width the sidebars fold into toggles, and links, reloads and the back button land in the same view", async () => {
    const { page, errors } = await open({ width: 390, height: 844 });
    await logIn(page, "hamlet");
    await page.locator(".view-title", { hasText: "Inbox" }).waitFor();
    const sidebar = page.locator("#left-sidebar");
    expect(await sidebar.isVisible()).toBe(false);
    expect(await page.locator("#right-sidebar").isVisible()).toBe(false);
    await page.getByRole("button", { name: "Channels and views" }).click();
    await sidebar.locator(".channel-row a", { hasText: "general" }).waitFor({ state: "visible" });
    await page.screenshot({ path: shot("phone-sidebar"), animations: "disabled" });
    await sidebar.locator(".channel-row a", { hasText: "general" }).click();
    await page.locator(".view-title", { hasText: "general" }).waitFor();
    await sidebar.waitFor({ state: "hidden" });
    await row(page, "Something is rotten").waitFor();
    await page.screenshot({ path: shot("phone") });

    // a topic by its link; a reload stays there; back returns to the channel
    await page.goto(suite.base + "/" + topicHash("ramparts"));
    await page.locator(".view-title", { hasText: "ramparts" }).waitFor();
    await page.reload();
    await page.locator(".view-title", { hasText: "ramparts" }).waitFor();
    await page.goBack();
    await page.locator(".view-title", { hasText: "general" }).waitFor();
    expect(await page.locator(".view-title").textContent()).not.toContain("ramparts");
    expect(errors).toEqual([]);
  }, 20_000);

  test("recent conversations list the latest topics and conversations, newest first, muted topics left out", async () => {
    const { page, errors } = await open();
    await logIn(page, "hamlet", "/#recent");
    await page.locator(".view-title", { hasText: "Recent conversations" }).waitFor();
    const topics = await page.locator(".recent-table .recent-topic").allTextContents();
    // the journeys above wrote to these, in this order; "battle plans" was muted, so it is left out
    const order = ["watch", "Othello, the Moor of Venice", "ramparts", "battle plans"].map((t) => topics.indexOf(t));
    expect(order).toEqual([0, 1, 2, -1]);
    await page.screenshot({ path: shot("recent") });
    expect(errors).toEqual([]);
  }, 20_000);

  test("messages render as Zulip renders them: the reader's mentions, emoji, code colours, spoilers, an image in a lightbox, edit marks, the reader's time format", async () => {
    const image = await upload(suite.s, "othello", "sunset.png", await makePng(600, 400, "#c2726a"), "image/png");
    const content = ["Look, @**King Hamlet**! :smile:", "```python", "def greet():", '    return "hi"', "```", "```spoiler How it ends", "They all die.", "```", `[sunset.png](${image.url})`].join("\n");
    const id = await send("othello", "gallery", content);
    const { page, errors } = await open();
    await logIn(page, "hamlet", "/" + topicHash("gallery"));
    const m = row(page, "Look,");
    await m.waitFor();
    expect(await m.locator(".user-mention.user-mention-me").textContent()).toBe("@King Hamlet");
    // the emoji is drawn from Google's sheet (the default emoji set) at the cell of the code point the
    // server names in its class, its :name: kept as the text that copying takes
    const emoji = m.locator(".emoji.emoji-sprite");
    await emoji.waitFor();
    expect(/emoji-([0-9a-f-]+)/.exec((await emoji.getAttribute("class")) ?? "")?.[1]).toBe("1f642");
    expect({ label: await emoji.getAttribute("aria-label"), text: await emoji.textContent() }).toEqual({ label: "smile", text: ":smile:" });
    expect(await emoji.evaluate((el) => getComputedStyle(el).backgroundImage)).toContain("/static/");
    await m.locator(".codehilite .k", { hasText: "def" }).waitFor();
    expect(await m.locator(".codehilite .s").textContent()).toBe('"hi"');
    const spoiler = m.locator(".spoiler-content");
    expect(await spoiler.isVisible()).toBe(false);
    await m.locator(".spoiler-header").click();
    await spoiler.waitFor({ state: "visible" });
    expect(await spoiler.textContent()).toContain("They all die.");
    // the thumbnail (made in the background, then re-rendered) opens the full image over the page
    const thumbnail = m.locator(".message_inline_image img[src*='/user_uploads/']");
    await thumbnail.waitFor();
    await thumbnail.click();
    const lightbox = page.getByRole("dialog");
    await lightbox.waitFor();
    expect(await lightbox.locator("img").getAttribute("src")).toContain(image.url);
    await page.screenshot({ path: shot("lightbox") });
    await page.keyboard.press("Escape");
    await lightbox.waitFor({ state: "detached" });
    // an edit shows at once; the reader's 24-hour setting changes the times shown
    expect(await m.locator(".message-time").textContent()).toMatch(/[AP]M$/);
    (await suite.s.users.othello.client.patch(`/messages/${id}`, { content: content.replace("Look,", "Behold,") })).success();
    await row(page, "Behold,").locator(".edit-mark", { hasText: "EDITED" }).waitFor();
    (await suite.s.users.hamlet.client.patch("/settings", { twenty_four_hour_time: true })).success();
    await eventually(async () => /^\d{2}:\d{2}$/.test((await row(page, "Behold,").locator(".message-time").textContent()) ?? ""), true);
    await page.screenshot({ path: shot("rendering") });
    expect(errors).toEqual([]);
  }, 20_000);

  test("a long topic opens at the first unread message, loads newer messages scrolling down and older ones scrolling up", async () => {
    const ids: number[] = [];
    for (let i = 1; i <= 130; i++) ids.push(await send("cordelia", "chronicle", `Entry ${i}`));
    (await suite.s.users.hamlet.client.post("/messages/flags", { messages: ids.slice(0, 30), op: "add", flag: "read" })).success();
    const { page, errors } = await open({ height: 700 });
    const entry = (n: number) => page.locator(".message-row", { has: page.locator(".message-content", { hasText: new RegExp(`^Entry ${n}$`) }) });
    const inView = (n: number) =>
      entry(n).evaluate((el) => {
        const box = el.getBoundingClientRect();
        const view = el.closest(".message-scroller")!.getBoundingClientRect();
        return box.top >= view.top - 2 && box.bottom <= view.bottom;
      });
    await logIn(page, "hamlet", "/" + topicHash("chronicle"));
    const scroller = page.locator(".message-scroller");
    // it opens on the first unread message, with the newest not fetched yet
    await entry(31).waitFor();
    await eventually(() => inView(31), true);
    expect({ newestShown: await entry(130).count() }).toEqual({ newestShown: 0 });
    for (let i = 0; i < 20 && !(await entry(130).count()); i++) {
      await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
      await page.waitForTimeout(150);
    }
    await entry(130).waitFor();

    // a link to a message late in the topic, opened afresh (a new page), opens there with Entry 70 onwards;
    // scrolling up brings the older ones
    await page.goto(suite.base + "/" + topicHash("chronicle") + `/near/${ids[119]}`);
    await page.reload();
    await eventually(async () => [await entry(69).count(), await entry(70).count()], [0, 1]);
    await eventually(() => inView(120), true);
    const before = await page.locator(".message-row").count();
    await scroller.evaluate((el) => (el.scrollTop = 0));
    await eventually(async () => (await page.locator(".message-row").count()) > before, true);
    // what was at the top stays where the person was looking, the older messages above it
    const stays = await entry(70).evaluate((el) => {
      const box = el.getBoundingClientRect();
      const view = el.closest(".message-scroller")!.getBoundingClientRect();
      return box.top >= view.top - 2 && box.top < view.bottom;
    });
    expect({ before, stays }).toEqual({ before, stays: true });
    for (let i = 0; i < 20 && !(await page.locator(".list-start").count()); i++) {
      await scroller.evaluate((el) => (el.scrollTop = 0));
      await page.waitForTimeout(150);
    }
    await entry(1).waitFor();
    const ordered = (await page.locator(".message-row .message-content").allTextContents()).map((t) => Number(t.replace("Entry ", "")));
    expect(ordered).toEqual(Array.from({ length: 130 }, (_, i) => i + 1));
    expect(errors).toEqual([]);
  }, 30_000);

  test("hamlet picks the people of a direct message by name; a message the server refuses says why and keeps its text", async () => {
    const { page, errors } = await open();
    await logIn(page, "hamlet", "/#narrow/is/dm");
    await page.locator(".view-title", { hasText: "Direct messages" }).waitFor();
    await page.getByRole("button", { name: "Direct message" }).click();
    await page.getByRole("combobox", { name: "Add a person" }).fill("cord");
    await page.getByRole("option", { name: /Cordelia/ }).waitFor();
    await page.keyboard.press("Enter");
    expect(await page.locator(".recipient-picker .pill").textContent()).toContain("Cordelia, Lear's daughter");
    await page.fill(".compose-text", "Speak, Cordelia.");
    await page.press(".compose-text", "Control+Enter");
    await row(page, "Speak, Cordelia.").waitFor();
    const dm = await suite.s.app.db.get<{ dm_key: string }>("SELECT dm_key FROM messages WHERE content = 'Speak, Cordelia.'");
    expect(dm?.dm_key).toBe([userId("hamlet"), userId("cordelia")].sort((a, b) => a - b).join(","));

    // cordelia leaves the organization; hamlet's next message to her is refused, and he is told
    (await suite.s.users.iago.client.delete(`/users/${userId("cordelia")}`)).success();
    try {
      await page.fill(".compose-text", "Nothing will come of nothing.");
      await page.press(".compose-text", "Control+Enter");
      const error = page.locator(".compose-error");
      await error.waitFor();
      expect(await error.textContent()).toMatch(/^Your message was not sent: .+/);
      expect(await page.inputValue(".compose-text")).toBe("Nothing will come of nothing.");
      expect(await row(page, "Nothing will come of nothing.").count()).toBe(0);
      expect(await suite.s.app.db.get("SELECT id FROM messages WHERE content = 'Nothing will come of nothing.'")).toBeUndefined();
    } finally {
      (await suite.s.users.iago.client.post(`/users/${userId("cordelia")}/reactivate`)).success();
    }
    expect(errors).toEqual([]);
  }, 20_000);
});
