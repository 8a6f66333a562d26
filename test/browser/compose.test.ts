/**
 * Writing and reacting in the web app, in a real browser (see helpers.ts): autocomplete, preview,
 * drafts, typing notices, sending later, uploads, reactions and polls. Each journey checks what the
 * person sees and what the server stored. Screenshots land in /tmp/parley-web-*.png.
 */
import { describe, expect, test } from "bun:test";
import type { Page, Route } from "playwright-core";
import type { CastName } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { makePng } from "../helpers/uploads";
import { Scheduler } from "../../src/scheduler";
import { defaultJobs } from "../../src/scheduler/jobs";
import { browserSuite, eventually, row, shot, topicHash } from "./helpers";

/** The server's clock runs with the real one, and can be moved ahead (to reach a scheduled time). */
const shift = { ms: 0 };
let general: number;
const suite = browserSuite(
  async (s) => {
    s.clock.now = () => Date.now() + shift.ms;
    general = await createChannel(s, "iago", "general", { subscribers: ["hamlet", "othello", "cordelia"] });
    await createChannel(s, "iago", "design", { subscribers: ["hamlet", "othello"] });
    (await s.users.iago.client.post("/user_groups/create", { name: "actors", description: "The players", members: [s.users.othello.id, s.users.cordelia.id] })).success();
    (await s.users.cordelia.client.post("/messages", { type: "stream", to: general, topic: "ramparts", content: "The air bites shrewdly." })).success();
    // the organization's own emoji
    (await s.users.iago.client.post("/realm/emoji/elsinore", { file: new File([(await makePng(32, 32, "#c2726a")) as BlobPart], "elsinore.png") })).success();
    for (const who of ["hamlet", "othello"] as const) (await s.users[who].client.post("/mark_all_as_read")).success();
  },
  { realClock: false },
);
const { open, logIn } = suite;
const db = () => suite.s.app.db;
const hash = (topic: string) => "/" + topicHash(general, "general", topic);
const userId = (who: CastName) => suite.userId(who);
const text = (page: Page) => page.inputValue(".compose-text");
/** Types into the message box at its end, key by key (so the autocomplete follows). */
async function type(page: Page, keys: string) {
  await page.locator(".compose-text").focus();
  await page.keyboard.press("End");
  await page.keyboard.type(keys);
}

describe("writing and reacting in the web app", () => {
  test("the autocomplete offers people, groups, channels with their topics, and emoji; picks go into the text and the message is stored as typed", async () => {
    const { page, errors } = await open();
    await logIn(page, "hamlet", `/#narrow/channel/${general}-general`);
    await page.locator(".view-title", { hasText: "general" }).waitFor();

    // the topic field suggests the channel's topics
    await page.locator(".compose-topic").pressSequentially("ram");
    const topicOption = page.locator("#topic-suggestions [role=option]", { hasText: "ramparts" });
    await topicOption.waitFor();
    await page.keyboard.press("Enter");
    expect(await page.inputValue(".compose-topic")).toBe("ramparts");

    // @: a person, by the start of a word of their name; the list is a listbox the text box points into
    await type(page, "Well met, @oth");
    const list = page.getByRole("listbox", { name: "People and groups" });
    await list.waitFor();
    expect(await list.getByRole("option").first().textContent()).toContain("Othello, the Moor of Venice");
    const active = await page.locator(".compose-text").getAttribute("aria-activedescendant");
    expect(await page.locator(`#${active}`).getAttribute("aria-selected")).toBe("true");
    await page.screenshot({ path: shot("autocomplete") });
    await page.keyboard.press("Tab");
    expect(await text(page)).toBe("Well met, @**Othello, the Moor of Venice** ");

    // a group, and the wildcards Zulip offers in a channel; Esc closes without picking
    await type(page, "and @act");
    await page.getByRole("option", { name: /actors/ }).waitFor();
    await page.keyboard.press("Enter");
    await type(page, "@to");
    await page.getByRole("option", { name: /topic/ }).waitFor();
    await page.keyboard.press("Escape");
    await list.waitFor({ state: "detached" });
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Backspace");

    // #: a channel, then its topics (the first offers the channel itself)
    await type(page, "see #des");
    await page.getByRole("listbox", { name: "Channels" }).getByRole("option", { name: /design/ }).waitFor();
    await page.keyboard.press("Enter");
    expect(await text(page)).toEndWith("see #**design>");
    const topics = page.getByRole("listbox", { name: "Topics" });
    await topics.getByRole("option", { name: /link to channel/ }).waitFor();
    await page.keyboard.type("plans");
    await topics.getByRole("option", { name: /plans.*New topic/ }).waitFor();
    await page.screenshot({ path: shot("autocomplete-topics") });
    await page.keyboard.press("Enter");
    expect(await text(page)).toEndWith("see #**design>plans** ");

    // :: Zulip's emoji names, loaded when first needed
    await type(page, "now :octo");
    await page.getByRole("listbox", { name: "Emoji" }).getByRole("option", { name: /:octopus:/ }).waitFor();
    await page.screenshot({ path: shot("autocomplete-emoji") });
    await page.keyboard.press("Enter");
    const expected = "Well met, @**Othello, the Moor of Venice** and @*actors* see #**design>plans** now :octopus: ";
    expect(await text(page)).toBe(expected);

    await page.keyboard.press("Control+Enter");
    const sent = row(page, "Well met");
    await sent.locator(".user-mention", { hasText: "Othello" }).waitFor();
    await sent.locator(".user-group-mention", { hasText: "actors" }).waitFor();
    await sent.locator("a.stream-topic", { hasText: "design" }).waitFor();
    expect(await sent.locator(".emoji").getAttribute("aria-label")).toBe("octopus");
    const stored = await db().get<{ content: string; topic: string }>("SELECT content, topic FROM messages WHERE content LIKE 'Well met%'");
    expect(stored).toEqual({ content: expected.trimEnd(), topic: "ramparts" });
    expect(errors).toEqual([]);
  }, 20_000);

  test("the preview shows the message as the server renders it, and writing goes on where it was", async () => {
    const { page, errors } = await open();
    await logIn(page, "hamlet", hash("preview"));
    await page.fill(".compose-text", "A **bold** word and `code`");
    const rendered = page.waitForRequest((r) => r.url().endsWith("/json/messages/render") && r.method() === "POST");
    await page.getByRole("tab", { name: "Preview" }).click();
    expect((await rendered).postData()).toContain("content=A+**bold**");
    const preview = page.getByRole("tabpanel", { name: "Preview" });
    await preview.locator("strong", { hasText: "bold" }).waitFor();
    expect(await preview.locator("code").textContent()).toBe("code");
    await page.screenshot({ path: shot("preview") });
    await page.getByRole("tab", { name: "Write" }).click();
    expect(await text(page)).toBe("A **bold** word and `code`");
    // what was written was kept as a draft; emptying the box lets it go
    const drafts = () => db().all<{ content: string }>("SELECT content FROM drafts WHERE user_id = ? AND topic = 'preview'", [userId("hamlet")]);
    await eventually(drafts, [{ content: "A **bold** word and `code`" }]);
    await page.fill(".compose-text", "");
    await eventually(drafts, []);
    expect(errors).toEqual([]);
  }, 20_000);

  test("a draft is kept while typing, survives a reload, follows its conversation, and is listed to restore or delete (on the server, or in the browser when synchronization is off)", async () => {
    const { page, errors } = await open();
    await logIn(page, "hamlet", hash("drafts"));
    await page.locator(".view-title", { hasText: "drafts" }).waitFor();
    await type(page, "To be, or not to be");
    // saved on the server after a pause (Parley's default: drafts follow the person)
    const stored = () => db().all<{ type: string; to_ids: string; topic: string; content: string }>("SELECT type, to_ids, topic, content FROM drafts WHERE user_id = ?", [userId("hamlet")]);
    await eventually(stored, [{ type: "stream", to_ids: JSON.stringify([general]), topic: "drafts", content: "To be, or not to be" }]);
    await type(page, ": that is the question");
    await eventually(async () => (await stored()).map((d) => d.content), ["To be, or not to be: that is the question"]);

    // a reload brings it back into the box; the sidebar counts it
    await page.reload();
    await eventually(() => text(page), "To be, or not to be: that is the question");
    const nav = page.locator(".views-nav a", { hasText: "Drafts" });
    expect(await nav.locator(".unread-count").textContent()).toBe("1");

    // another conversation starts empty; coming back finds the draft again
    await page.goto(suite.base + hash("elsewhere"));
    await page.locator(".view-title", { hasText: "elsewhere" }).waitFor();
    expect(await text(page)).toBe("");
    await page.goto(suite.base + "/#drafts");
    const card = page.locator(".draft-card", { hasText: "that is the question" });
    await card.waitFor();
    expect(await card.locator(".conversation-label").textContent()).toContain("drafts");
    await page.screenshot({ path: shot("drafts") });
    await card.getByRole("button", { name: "Restore" }).click();
    await page.locator(".view-title", { hasText: "drafts" }).waitFor();
    expect(await text(page)).toBe("To be, or not to be: that is the question");
    await eventually(() => page.evaluate(() => document.activeElement?.classList.contains("compose-text")), true);
    // sent: the draft is done with
    await page.locator(".compose-text").press("Control+Enter");
    await row(page, "that is the question").waitFor();
    await eventually(stored, []);
    await nav.locator(".unread-count").waitFor({ state: "detached" });

    // a draft deleted from the list is gone from the server
    await type(page, "Words, words, words");
    await eventually(async () => (await stored()).length, 1);
    await page.goto(suite.base + "/#drafts");
    await page.locator(".draft-card", { hasText: "Words, words" }).getByRole("button", { name: "Delete" }).click();
    await eventually(stored, []);
    await page.locator(".overview-empty", { hasText: "No drafts" }).waitFor();

    // with synchronization off, drafts stay in this browser (localStorage) and still survive a reload
    (await suite.s.users.hamlet.client.patch("/settings", { enable_drafts_synchronization: false })).success();
    await page.getByText("Kept in this browser only.").waitFor();
    await page.goto(suite.base + hash("drafts"));
    await type(page, "The rest is silence");
    await eventually(async () => Object.values(JSON.parse((await page.evaluate(() => localStorage.getItem(Object.keys(localStorage).find((k) => k.startsWith("parley.drafts."))!))) ?? "{}")).map((d: any) => d.content), ["The rest is silence"]);
    await page.reload();
    await eventually(() => text(page), "The rest is silence");
    expect(await stored()).toEqual([]);
    (await suite.s.users.hamlet.client.patch("/settings", { enable_drafts_synchronization: true })).success();
    await page.fill(".compose-text", "");
    expect(errors).toEqual([]);
  }, 25_000);

  test("typing is shown to the other person in the conversation and ends when the message is sent", async () => {
    const hamlet = await open();
    const othello = await open();
    await logIn(hamlet.page, "hamlet", hash("whispers"));
    await logIn(othello.page, "othello", hash("whispers"));
    await othello.page.locator(".view-title", { hasText: "whispers" }).waitFor();
    const typing = hamlet.page.locator(".typing-notice");
    expect(await typing.textContent()).toBe("");
    const started = othello.page.waitForRequest((r) => r.url().endsWith("/json/typing") && r.postData()?.includes("op=start") === true);
    await type(othello.page, "I will wear my heart upon my sleeve");
    expect((await started).postData()).toContain(`stream_id=${general}`);
    await typing.getByText("Othello, the Moor of Venice is typing…").waitFor();
    // othello does not see his own typing
    expect(await othello.page.locator(".typing-notice").textContent()).toBe("");
    await hamlet.page.screenshot({ path: shot("typing") });
    // another conversation of hamlet's does not show it
    await hamlet.page.goto(suite.base + hash("elsewhere"));
    await hamlet.page.locator(".view-title", { hasText: "elsewhere" }).waitFor();
    expect(await hamlet.page.locator(".typing-notice").textContent()).toBe("");
    await hamlet.page.goBack();
    await typing.getByText("is typing…").waitFor();
    // sending says "stop" at once
    await othello.page.keyboard.press("Control+Enter");
    await row(hamlet.page, "upon my sleeve").waitFor();
    await eventually(() => typing.textContent(), "");
    expect([...hamlet.errors, ...othello.errors]).toEqual([]);
  }, 20_000);

  test("a message scheduled from the send-later menu is listed, edited, and delivered at its time by the server's timer", async () => {
    const hamlet = await open();
    const othello = await open();
    await logIn(hamlet.page, "hamlet", hash("later"));
    await logIn(othello.page, "othello", hash("later"));
    const page = hamlet.page;
    await page.locator(".view-title", { hasText: "later" }).waitFor();
    await type(page, "The play's the thing");
    await page.getByRole("button", { name: "Send later" }).click();
    // Zulip's suggestions: tomorrow morning and afternoon are always there
    await page.getByRole("menuitem", { name: /^Tomorrow at 9:00\sAM$/ }).waitFor();
    await page.screenshot({ path: shot("send-later-menu") });
    await page.getByRole("menuitem", { name: "Choose a time…" }).click();
    const dialog = page.getByRole("dialog", { name: "Schedule the message" });
    const at = new Date(Date.now() + 2 * 3600_000);
    at.setSeconds(0, 0);
    const local = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}T${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
    // this very minute is too soon (the field's min already keeps past times out): refused in the
    // dialog, which stays open with the message unscheduled
    await dialog.getByLabel("Send it on").fill(local(new Date()));
    await dialog.getByRole("button", { name: "Schedule" }).click();
    await dialog.getByRole("alert").filter({ hasText: "Choose a time in the future." }).waitFor();
    expect(await db().all("SELECT id FROM scheduled_messages WHERE sender_id = ?", [userId("hamlet")])).toEqual([]);
    await dialog.getByLabel("Send it on").fill(local(at));
    expect(await dialog.getByRole("alert").count()).toBe(0);
    await page.screenshot({ path: shot("schedule-dialog") });
    await dialog.getByRole("button", { name: "Schedule" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.locator(".notice", { hasText: "Your message is scheduled for" }).waitFor();
    expect(await text(page)).toBe("");
    const scheduled = () => db().all<{ id: number; content: string; topic: string; scheduled_timestamp: number; delivered: number }>("SELECT id, content, topic, scheduled_timestamp, delivered FROM scheduled_messages WHERE sender_id = ?", [userId("hamlet")]);
    const [row1] = await scheduled();
    expect(row1).toMatchObject({ content: "The play's the thing", topic: "later", scheduled_timestamp: at.getTime() / 1000, delivered: 0 });

    // listed in the sidebar and its view; edited from there, then rescheduled at the same time
    const nav = page.locator(".views-nav a", { hasText: "Scheduled messages" });
    expect(await nav.locator(".unread-count").textContent()).toBe("1");
    await nav.click();
    const card = page.locator(".scheduled-card", { hasText: "The play's the thing" });
    await card.waitFor();
    await page.screenshot({ path: shot("scheduled") });
    await card.getByRole("button", { name: "Edit" }).click();
    await page.locator(".view-title", { hasText: "later" }).waitFor();
    await page.locator(".compose-banner", { hasText: "Editing a message scheduled for" }).waitFor();
    await type(page, " wherein I'll catch the conscience of the king");
    await page.screenshot({ path: shot("compose-editing-scheduled") });
    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    await eventually(async () => (await scheduled())[0]?.content, "The play's the thing wherein I'll catch the conscience of the king");
    expect((await scheduled())[0]!.scheduled_timestamp).toBe(at.getTime() / 1000);
    await page.locator(".compose-banner").waitFor({ state: "detached" });
    expect(await text(page)).toBe("");

    // the server's clock reaches the time; its timer loop delivers the message, and the list empties
    shift.ms = 2 * 3600_000 + 60_000;
    const loop = new Scheduler(suite.s.app, defaultJobs().filter((j) => j.name === "deliver-scheduled-messages"));
    await loop.tick();
    await loop.stop();
    shift.ms = 0;
    await row(othello.page, "catch the conscience of the king").waitFor();
    await row(page, "catch the conscience of the king").waitFor();
    expect((await scheduled())[0]!.delivered).toBe(1);
    await nav.waitFor({ state: "detached" });

    // two more for tomorrow morning, from the menu's suggestion: one sent now from the list, one cancelled
    for (const words of ["Now cracks a noble heart", "Good night, sweet prince"]) {
      await type(page, words);
      await page.getByRole("button", { name: "Send later" }).click();
      await page.getByRole("menuitem", { name: /^Tomorrow at 9:00\sAM$/ }).click();
      await eventually(() => text(page), "");
    }
    const tomorrow = new Date();
    tomorrow.setDate(tomorrow.getDate() + 1);
    tomorrow.setHours(9, 0, 0, 0);
    expect((await scheduled()).filter((m) => !m.delivered).map((m) => [m.content, m.scheduled_timestamp])).toEqual([
      ["Now cracks a noble heart", tomorrow.getTime() / 1000],
      ["Good night, sweet prince", tomorrow.getTime() / 1000],
    ]);
    await nav.click();
    await page.locator(".scheduled-card", { hasText: "Now cracks" }).getByRole("button", { name: "Send now" }).click();
    await row(othello.page, "Now cracks a noble heart").waitFor();
    await page.locator(".scheduled-card", { hasText: "Good night" }).getByRole("button", { name: "Cancel" }).click();
    await page.locator(".overview-empty", { hasText: "No scheduled messages" }).waitFor();
    expect((await scheduled()).filter((m) => !m.delivered)).toEqual([]);
    expect(await db().get("SELECT id FROM messages WHERE content = 'Good night, sweet prince'")).toBeUndefined();
    expect([...hamlet.errors, ...othello.errors]).toEqual([]);
  }, 20_000);

  test("files dropped on the message view upload with a progress bar and become links (an image a thumbnail once sent); large files go through tus; too large and cancelled ones leave nothing", async () => {
    const { page, errors } = await open();
    await logIn(page, "hamlet", hash("gallery"));
    await page.locator(".view-title", { hasText: "gallery" }).waitFor();
    await type(page, "Behold:");
    /** Drops files made in the page (name, bytes or a size, type) onto the message view. */
    const drop = (files: { name: string; bytes?: number[]; size?: number; type: string }[]) =>
      page.evaluate((files) => {
        const dt = new DataTransfer();
        for (const f of files) dt.items.add(new File([f.bytes ? new Uint8Array(f.bytes) : new Uint8Array(f.size!)], f.name, { type: f.type }));
        const target = document.querySelector(".message-scroller")!;
        for (const type of ["dragenter", "dragover", "drop"]) target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, files);

    // the upload is held back a moment, so its progress shows
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/json/user_uploads", async (route) => {
      await held;
      await route.continue();
    });
    const png = [...(await makePng(320, 200, "#4f9a8c"))];
    await drop([{ name: "sea.png", bytes: png, type: "image/png" }]);
    const progress = page.getByRole("progressbar", { name: "Uploading sea.png" });
    await progress.waitFor();
    expect(await progress.getAttribute("max")).toBe(String(png.length));
    expect(await text(page)).toBe("Behold:\n[Uploading sea.png…]()\n");
    await page.screenshot({ path: shot("upload-progress") });
    release();
    await progress.waitFor({ state: "detached" });
    const link = /^Behold:\n\[sea\.png\]\((\/user_uploads\/[^)]+)\)\n$/.exec(await text(page));
    expect(link).not.toBeNull();
    await page.unroute("**/json/user_uploads");

    // a file over 5 MB goes through tus (/json/tus), in chunks
    const tus = page.waitForRequest((r) => r.url().endsWith("/json/tus") && r.method() === "POST");
    await drop([{ name: "tape.bin", size: 6 * 1024 * 1024, type: "application/octet-stream" }]);
    expect((await tus).headers()["upload-length"]).toBe(String(6 * 1024 * 1024));
    await eventually(async () => /\[tape\.bin\]\(\/user_uploads\/[^)]+\)/.test(await text(page)), true, 10_000);

    // over the server's limit (25 MiB): refused before sending, said plainly
    await drop([{ name: "film.mov", size: 26 * 1024 * 1024, type: "video/quicktime" }]);
    await page.locator(".compose-error", { hasText: "“film.mov” is too large to upload: this server accepts files up to 25 MiB." }).waitFor();

    // a cancelled upload leaves no placeholder and no file
    const heldBack: Route[] = [];
    await page.route("**/json/user_uploads", (route) => void heldBack.push(route));
    await drop([{ name: "draft.txt", bytes: [104, 105], type: "text/plain" }]);
    await page.getByRole("button", { name: "Cancel uploading draft.txt" }).click();
    await page.getByRole("progressbar").waitFor({ state: "detached" });
    expect(await text(page)).not.toContain("draft.txt");
    // (the interception holds the cancelled request: it is let go without reaching the server)
    for (const route of heldBack) await route.abort().catch(() => {});
    await page.unroute("**/json/user_uploads");

    // the upload button, and a pasted file, insert their links where the cursor is
    await page.locator("input[type=file]").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("Sweets to the sweet") });
    await eventually(async () => /\[notes\.txt\]\(\/user_uploads\/[^)]+\)\n$/.test(await text(page)), true);
    await page.locator(".compose-text").evaluate((el) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array([1, 2, 3])], "clip.bin", { type: "application/octet-stream" }));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
    });
    await eventually(async () => /\[clip\.bin\]\(\/user_uploads\/[^)]+\)/.test(await text(page)), true);

    await page.locator(".compose-text").press("Control+Enter");
    const sent = row(page, "Behold:");
    await sent.locator(".message_inline_image img").waitFor();
    const attachments = await db().all<{ file_name: string; size: number }>("SELECT file_name, size FROM attachments WHERE owner_id = ? ORDER BY id", [userId("hamlet")]);
    expect(attachments).toEqual([
      { file_name: "sea.png", size: png.length },
      { file_name: "tape.bin", size: 6 * 1024 * 1024 },
      { file_name: "notes.txt", size: 19 },
      { file_name: "clip.bin", size: 3 },
    ]);
    const stored = await db().get<{ content: string }>("SELECT content FROM messages WHERE content LIKE 'Behold:%'");
    expect(stored!.content).toContain(`[sea.png](${link![1]})`);
    await page.screenshot({ path: shot("upload-sent") });
    expect(errors).toEqual([]);
  }, 25_000);

  test("reactions: hamlet reacts with the emoji picker (search, keyboard), both see each other's reactions live, and clicks toggle them", async () => {
    const id = (await suite.s.users.othello.client.post("/messages", { type: "stream", to: general, topic: "reactions", content: "Put out the light." })).success().id as number;
    const hamlet = await open();
    const othello = await open();
    await logIn(hamlet.page, "hamlet", hash("reactions"));
    await logIn(othello.page, "othello", hash("reactions"));
    const mine = row(hamlet.page, "Put out the light.");
    const his = row(othello.page, "Put out the light.");
    await his.waitFor();
    const stored = () => db().all<{ user_id: number; emoji_name: string; emoji_code: string; reaction_type: string }>("SELECT user_id, emoji_name, emoji_code, reaction_type FROM reactions WHERE message_id = ? ORDER BY user_id", [id]);

    // the picker opens from the message's hover actions; its search takes Zulip's names
    await mine.hover();
    await mine.locator(".message-controls").getByRole("button", { name: "Add emoji reaction" }).click();
    const picker = hamlet.page.getByRole("dialog", { name: "Add a reaction to this message" });
    const search = picker.getByRole("combobox", { name: "Search emoji" });
    await expect(search.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    // nothing used yet: the frequently used row starts with Zulip's popular emoji
    await picker.getByRole("option").first().waitFor();
    expect(await picker.getByRole("option").first().getAttribute("aria-label")).toBe("+1");
    await hamlet.page.screenshot({ path: shot("emoji-picker") });
    await search.fill("octo");
    await picker.getByRole("option", { name: "octopus" }).waitFor();
    await hamlet.page.keyboard.press("Enter");
    await picker.waitFor({ state: "detached" });
    const octopus = mine.locator(".reaction", { hasText: "1" });
    await octopus.waitFor();
    expect(await octopus.getAttribute("aria-pressed")).toBe("true");
    expect(await octopus.getAttribute("title")).toBe("You (click to remove) reacted with :octopus:");
    expect(await stored()).toEqual([{ user_id: userId("hamlet"), emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji" }]);

    // othello sees it live, and adds his own by clicking it
    const theirs = his.getByRole("button", { name: "King Hamlet reacted with :octopus:" });
    await theirs.waitFor();
    expect(await theirs.getAttribute("aria-pressed")).toBe("false");
    await theirs.click();
    await mine.getByRole("button", { name: "You (click to remove) and Othello, the Moor of Venice reacted with :octopus:" }).locator(".reaction-count", { hasText: "2" }).waitFor();
    // and reacts with another emoji from the keyboard: the picker opens on the frequently used, arrows move, Enter picks
    await his.hover();
    await his.locator(".message-controls").getByRole("button", { name: "Add emoji reaction" }).click();
    const hisPicker = othello.page.getByRole("dialog", { name: "Add a reaction to this message" });
    await hisPicker.getByRole("option").first().waitFor();
    // his frequently used row starts with octopus, which he just used
    expect(await hisPicker.getByRole("option").first().getAttribute("aria-label")).toBe("octopus");
    await othello.page.keyboard.press("ArrowRight");
    const chosen = await hisPicker.getByRole("option", { selected: true }).getAttribute("aria-label");
    await othello.page.keyboard.press("Enter");
    await mine.locator(".reaction").nth(1).waitFor();
    await hamlet.page.screenshot({ path: shot("reactions") });

    // the organization's own emoji are there too, by name
    await mine.hover();
    await mine.locator(".message-controls").getByRole("button", { name: "Add emoji reaction" }).click();
    await search.fill("elsin");
    await picker.getByRole("option", { name: "elsinore" }).locator("img").waitFor();
    await hamlet.page.keyboard.press("Enter");
    await his.getByRole("button", { name: "King Hamlet reacted with :elsinore:" }).locator("img[src*='/emoji/']").waitFor();

    // hamlet takes his back: othello's stay
    await mine.locator(".reaction.reacted", { hasText: "2" }).click();
    await mine.locator(".reaction.reacted", { has: hamlet.page.locator("img") }).click();
    await eventually(async () => (await stored()).map((r) => [r.user_id, r.emoji_name.replace(/_/g, " "), r.reaction_type]), [
      [userId("othello"), "octopus", "unicode_emoji"],
      [userId("othello"), chosen!, "unicode_emoji"],
    ]);
    await his.getByRole("button", { name: "You (click to remove) reacted with :octopus:" }).waitFor();
    expect([...hamlet.errors, ...othello.errors]).toEqual([]);
  }, 20_000);

  test("a poll and a to-do list sent from the compose box work in two browsers: votes, options, the question, tasks and strikes", async () => {
    const hamlet = await open();
    const othello = await open();
    await logIn(hamlet.page, "hamlet", hash("lunch"));
    await logIn(othello.page, "othello", hash("lunch"));
    await hamlet.page.locator(".view-title", { hasText: "lunch" }).waitFor();
    await hamlet.page.fill(".compose-text", "/poll Where to eat?\nThe Globe\nThe Mermaid");
    await hamlet.page.press(".compose-text", "Control+Enter");
    const poll = (page: Page) => page.getByRole("group", { name: /^Poll:/ });
    await poll(othello.page).waitFor();
    const message = (await db().get<{ id: number }>("SELECT id FROM messages WHERE content LIKE '/poll Where%'"))!.id;
    const submessages = async () => (await db().all<{ sender_id: number; content: string }>("SELECT sender_id, content FROM submessages WHERE message_id = ? ORDER BY id", [message])).slice(1).map((r) => [r.sender_id, JSON.parse(r.content)]);

    // othello votes for the Globe; hamlet sees the count and the voter
    await poll(othello.page).getByRole("button", { name: /^Vote for The Globe/ }).click();
    const globe = poll(hamlet.page).locator(".poll-option", { hasText: "The Globe" });
    await globe.locator(".poll-vote", { hasText: "1" }).waitFor();
    expect(await globe.locator(".poll-voters").textContent()).toBe("(Othello, the Moor of Venice)");
    await poll(hamlet.page).getByRole("button", { name: /^Vote for The Globe/ }).click();
    await poll(othello.page).locator(".poll-option", { hasText: "The Globe" }).locator(".poll-vote", { hasText: "2" }).waitFor();
    // othello changes his mind, and adds an option
    await poll(othello.page).getByRole("button", { name: /^Take back your vote for The Globe/ }).click();
    await poll(othello.page).getByRole("textbox", { name: "New option" }).fill("The Boar's Head");
    await poll(othello.page).getByRole("button", { name: "Add option" }).click();
    await poll(hamlet.page).locator(".poll-option", { hasText: "The Boar's Head" }).waitFor();
    await globe.locator(".poll-vote", { hasText: "1" }).waitFor();
    // only the author may change the question
    expect(await poll(othello.page).getByRole("button", { name: "Edit the question" }).count()).toBe(0);
    await poll(hamlet.page).getByRole("button", { name: "Edit the question" }).click();
    await poll(hamlet.page).getByRole("textbox", { name: "Poll question" }).fill("Where shall we dine?");
    await hamlet.page.keyboard.press("Enter");
    await othello.page.getByRole("group", { name: "Poll: Where shall we dine?" }).waitFor();
    await hamlet.page.screenshot({ path: shot("poll") });
    expect(await submessages()).toEqual([
      [userId("othello"), { type: "vote", key: "canned,0", vote: 1 }],
      [userId("hamlet"), { type: "vote", key: "canned,0", vote: 1 }],
      [userId("othello"), { type: "vote", key: "canned,0", vote: -1 }],
      [userId("othello"), { type: "new_option", idx: 1, option: "The Boar's Head" }],
      [userId("hamlet"), { type: "question", question: "Where shall we dine?" }],
    ]);

    // a to-do list: othello adds a task, hamlet ticks it, both see it struck
    await hamlet.page.fill(".compose-text", "/todo Before the play\nHire the players: at the inn");
    await hamlet.page.press(".compose-text", "Control+Enter");
    const todo = (page: Page) => page.getByRole("group", { name: "To-do list: Before the play" });
    await todo(othello.page).getByRole("textbox", { name: "New task" }).fill("Write some lines");
    await todo(othello.page).getByRole("button", { name: "Add task" }).click();
    await todo(hamlet.page).getByRole("checkbox", { name: "Write some lines" }).check();
    await todo(othello.page).locator(".todo-task.done", { hasText: "Write some lines" }).waitFor();
    expect(await todo(othello.page).getByRole("checkbox", { name: /Hire the players/ }).isChecked()).toBe(false);
    const list = (await db().get<{ id: number }>("SELECT id FROM messages WHERE content LIKE '/todo Before%'"))!.id;
    const tasks = (await db().all<{ content: string }>("SELECT content FROM submessages WHERE message_id = ? ORDER BY id", [list])).slice(1).map((r) => JSON.parse(r.content));
    expect(tasks).toEqual([
      { type: "new_task", key: 2, task: "Write some lines", desc: "", completed: false },
      { type: "strike", key: `2,${userId("othello")}` },
    ]);
    expect([...hamlet.errors, ...othello.errors]).toEqual([]);
  }, 20_000);

  test("at phone width in the dark theme, the compose tools, the autocomplete and the emoji picker stay on the screen", async () => {
    (await suite.s.users.othello.client.post("/messages", { type: "stream", to: general, topic: "supper", content: "/poll Supper?\nSoup\nStew" })).success();
    const { page, errors } = await open({ width: 390, height: 844, dark: true });
    await logIn(page, "hamlet", hash("supper"));
    await page.getByRole("group", { name: /^Poll:/ }).waitFor();
    await page.screenshot({ path: shot("compose-phone-dark") });
    const inside = async (selector: string) =>
      page.locator(selector).evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
      });
    await type(page, "Cheers @cor");
    await page.getByRole("option", { name: /Cordelia/ }).waitFor();
    expect(await inside(".suggestions")).toBe(true);
    await page.screenshot({ path: shot("autocomplete-phone-dark") });
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Add an emoji" }).click();
    const picker = page.getByRole("dialog", { name: "Insert an emoji" });
    await picker.getByRole("option").first().waitFor();
    expect(await inside(".emoji-picker")).toBe(true);
    await page.screenshot({ path: shot("emoji-picker-phone-dark") });
    await picker.getByRole("option", { name: "tada" }).first().click();
    expect(await text(page)).toBe("Cheers @**Cordelia, Lear's daughter** :tada: ");
    expect(await inside(".send-group")).toBe(true);
    await page.fill(".compose-text", "");
    expect(errors).toEqual([]);
  }, 20_000);

  test("the message box grows with the lines written and, emptied, has the height it opened with (the height one measured line gives)", async () => {
    const { page, errors } = await open();
    await logIn(page, "hamlet", hash("ramparts"));
    await page.locator(".view-title", { hasText: "general" }).waitFor();
    const box = page.locator(".compose-text");
    const height = () => box.evaluate((el) => el.getBoundingClientRect().height);
    // the empty box is not measured when drawn; a line of text is: both are the two rows' height
    const empty = await height();
    expect(await box.evaluate((el) => (el as HTMLTextAreaElement).style.height)).toBe("");
    await box.fill("One line.");
    expect(await box.evaluate((el) => (el as HTMLTextAreaElement).style.height)).not.toBe("");
    expect(await height()).toBe(empty);
    await box.fill("1\n2\n3\n4\n5\n6");
    expect(await height()).toBeGreaterThan(empty + 40);
    await box.fill("");
    expect(await height()).toBe(empty);
    expect(errors).toEqual([]);
  }, 20_000);
});
