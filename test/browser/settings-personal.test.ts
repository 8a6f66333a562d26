/**
 * Personal settings in the web app: the settings overlay (its URL, Escape, the keyboard), and each change
 * made there asserted twice, on the page (and another person's page, through events) and in what the
 * server stored.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { browserSuite, eventually, row, shot, topicHash } from "./helpers";
import { createChannel } from "../helpers/channels";
import { makePng } from "../helpers/uploads";
import { hashPassword } from "../../src/actions/users";

const suite = browserSuite(async (s) => {
  for (const who of ["desdemona", "cordelia"] as const) await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword(`${who}-pass`), s.users[who].id]);
});

const storedUser = async (id: number) => (await suite.s.app.db.get<{ full_name: string; avatar_source: string }>("SELECT full_name, avatar_source FROM users WHERE id = ?", [id]))!;
const settingsOf = async (who: "hamlet" | "othello") => (await suite.s.users[who].client.post("/register", { fetch_event_types: ["user_settings"] })).success().user_settings;
const overlay = (page: Page) => page.getByRole("dialog", { name: "Settings" });
const basicAuth = (email: string, key: string) => ({ Authorization: `Basic ${btoa(`${email}:${key}`)}` });

describe("the settings overlay", () => {
  test("opens from the personal menu at its URL, moves the focus in, and Escape closes it back to the view beneath", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/#recent");
    await page.getByRole("button", { name: /^Personal menu/ }).click();
    await page.getByRole("menuitem", { name: "Personal settings" }).click();
    await overlay(page).waitFor();
    expect(new URL(page.url()).hash).toBe("#settings");
    await overlay(page).getByRole("heading", { name: "Profile" }).waitFor();
    // the menu lists the sections; the focus is on the current one, and Enter on another moves it into that section
    await eventually(() => page.evaluate(() => document.activeElement?.textContent), "Profile");
    const nav = overlay(page).getByRole("navigation", { name: "Personal settings" });
    expect(await nav.getByRole("link", { name: "Profile" }).getAttribute("aria-current")).toBe("page");
    await nav.getByRole("link", { name: "Alert words" }).focus();
    await page.keyboard.press("Enter");
    await overlay(page).getByRole("heading", { name: "Alert words" }).waitFor();
    expect(new URL(page.url()).hash).toBe("#settings/alert-words");
    await eventually(() => page.evaluate(() => document.activeElement?.classList.contains("settings-panel")), true);
    // the shortcuts of the page beneath are asleep: "/" does not open the search
    await page.keyboard.press("/");
    expect(await page.locator(".search-input:focus").count()).toBe(0);
    await page.keyboard.press("Escape");
    await overlay(page).waitFor({ state: "detached" });
    expect(new URL(page.url()).hash).toBe("#recent");
    // the keyboard goes on from the page beneath, not from nowhere
    await eventually(() => page.evaluate(() => document.activeElement !== document.body && !!document.activeElement?.closest(".app-shell")), true);
    // a link to a section opens it directly (a reload, a shared link)
    await page.goto(`${suite.base}/#settings/profile`);
    await overlay(page).getByLabel("Name", { exact: true }).waitFor();
    await overlay(page).getByRole("button", { name: "Close settings" }).click();
    await overlay(page).waitFor({ state: "detached" });
    expect(errors).toEqual([]);
  }, 20_000);

  test("at phone width the menu and the section take the screen in turn", async () => {
    const { page, errors } = await suite.open({ width: 390, height: 844 });
    await suite.logIn(page, "hamlet", "/#settings");
    const nav = overlay(page).getByRole("navigation", { name: "Personal settings" });
    await nav.waitFor();
    expect(await overlay(page).locator(".settings-panel").isVisible()).toBe(false);
    await nav.getByRole("link", { name: "Preferences" }).click();
    await overlay(page).getByRole("heading", { name: "Preferences" }).waitFor();
    expect(await nav.isVisible()).toBe(false);
    // nothing wider than the phone: the close button is on screen, and the page does not scroll sideways
    const close = (await overlay(page).getByRole("button", { name: "Close settings" }).boundingBox())!;
    expect(close.x + close.width).toBeLessThanOrEqual(390);
    expect(await overlay(page).locator(".settings-panel").evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await page.screenshot({ path: shot("settings-phone") });
    await overlay(page).getByRole("link", { name: "All sections" }).click();
    await nav.waitFor();
    expect(errors).toEqual([]);
  }, 20_000);
});

describe("Profile", () => {
  test("a member renames themselves: the server stores it and another person's open page shows it live", async () => {
    const other = await suite.open();
    await suite.logIn(other.page, "othello");
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/#settings/profile");
    await page.getByLabel("Name", { exact: true }).fill("Prince Hamlet");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").getByText("Saved").waitFor();
    expect((await storedUser(suite.userId("hamlet"))).full_name).toBe("Prince Hamlet");
    await other.page.locator("#right-sidebar", { hasText: "Prince Hamlet" }).waitFor();
    await page.screenshot({ path: shot("settings-profile") });
    expect(errors).toEqual([]);
  }, 20_000);

  test("a refused name shows the server's reason beside the field, and nothing changes; with name changes off the field is closed", async () => {
    const { page } = await suite.open();
    await suite.logIn(page, "hamlet", "/#settings/profile");
    const before = (await storedUser(suite.userId("hamlet"))).full_name;
    const name = page.getByLabel("Name", { exact: true });
    await name.fill("Hamlet @ Elsinore");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("alert").getByText("Invalid characters in name!").waitFor();
    expect(await name.inputValue()).toBe(before);
    expect((await storedUser(suite.userId("hamlet"))).full_name).toBe(before);

    // the owner turns name changes off: the open page closes the field and says why
    (await suite.s.users.desdemona.client.patch("/realm", { name_changes_disabled: true })).success();
    await eventually(() => name.isDisabled(), true);
    await page.getByText("Your organization's administrators have turned off name changes.").waitFor();
    (await suite.s.users.desdemona.client.patch("/realm", { name_changes_disabled: false })).success();
    await eventually(() => name.isDisabled(), false);
  }, 20_000);

  test("a member uploads an avatar, which another person's open page shows live, and deletes it", async () => {
    const channel = await createChannel(suite.s, "hamlet", "portraits", { subscribers: ["othello"] });
    (await suite.s.users.hamlet.client.post("/messages", { type: "stream", to: channel, topic: "likeness", content: "Look here, upon this picture." })).success();
    const other = await suite.open();
    await suite.logIn(other.page, "othello", topicHash(channel, "portraits", "likeness"));
    await row(other.page, "Look here, upon this picture.").waitFor();
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/#settings/profile");
    await page.getByLabel("Upload a new avatar").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: await makePng(120, 120, "#aa3355") });
    await page.getByRole("button", { name: "Delete avatar" }).waitFor();
    expect((await storedUser(suite.userId("hamlet"))).avatar_source).toBe("U");
    await page.locator(".avatar-setting img.avatar").waitFor();
    await row(other.page, "Look here, upon this picture.").locator(`img.avatar[src*="/user_avatars/"]`).waitFor();
    await page.getByRole("button", { name: "Delete avatar" }).click();
    await page.getByRole("button", { name: "Delete avatar" }).waitFor({ state: "detached" });
    expect((await storedUser(suite.userId("hamlet"))).avatar_source).toBe("G");
    // a file that is no image: the server's refusal beside the button
    await page.getByLabel("Upload a new avatar").setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not a picture") });
    await page.getByRole("alert").getByText("Invalid image format").waitFor();
    expect((await storedUser(suite.userId("hamlet"))).avatar_source).toBe("G");
    expect(errors).toEqual([]);
  }, 20_000);
});

describe("Preferences and notifications", () => {
  test("the dark theme chosen in one browser holds after a reload in another", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/#settings/preferences");
    await page.getByRole("combobox", { name: "Theme" }).selectOption({ label: "Dark" });
    await eventually(() => page.evaluate(() => document.documentElement.dataset.theme), "dark");
    expect((await settingsOf("hamlet")).color_scheme).toBe(2);
    await page.screenshot({ path: shot("settings-preferences-dark") });

    // another browser (its own cookies, a light system theme): dark from the account, and after a reload
    const second = await suite.open();
    await suite.logIn(second.page, "hamlet");
    await eventually(() => second.page.evaluate(() => document.documentElement.dataset.theme), "dark");
    await second.page.reload();
    await second.page.locator(".app-shell").waitFor();
    await eventually(() => second.page.evaluate(() => document.documentElement.dataset.theme), "dark");
    await page.getByRole("combobox", { name: "Theme" }).selectOption({ label: "Light" });
    await eventually(() => second.page.evaluate(() => document.documentElement.dataset.theme), "light");
    expect(errors).toEqual([]);
  }, 20_000);

  test("notification switches and the email delay are stored with the account", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/#settings/notifications");
    const cell = (name: string) => page.getByRole("checkbox", { name });
    const before = await settingsOf("hamlet");
    await cell("Email notifications for channels").click();
    await cell("Mobile notifications for followed topics").click();
    await cell("@all mentions notifications for direct messages, mentions and alerts").click();
    await eventually(async () => {
      const s = await settingsOf("hamlet");
      return [s.enable_stream_email_notifications, s.enable_followed_topic_push_notifications, s.wildcard_mentions_notify];
    }, [!before.enable_stream_email_notifications, !before.enable_followed_topic_push_notifications, !before.wildcard_mentions_notify]);
    await eventually(() => cell("Email notifications for channels").isChecked(), !before.enable_stream_email_notifications);
    await page.getByRole("combobox", { name: "Delay before sending message notification emails" }).selectOption({ label: "1 hour" });
    await eventually(async () => (await settingsOf("hamlet")).email_notifications_batching_period_seconds, 3600);
    // the page shows the stored choice (its request answered, the control enabled again) before the next one
    const delay = page.getByRole("combobox", { name: "Delay before sending message notification emails" });
    await eventually(async () => [await delay.inputValue(), await delay.isEnabled()], ["3600", true]);
    // a custom delay beyond Zulip's week: the server's refusal, and the stored delay stays
    await delay.selectOption({ label: "Custom" });
    await page.getByLabel("Minutes").fill("20000");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("alert").first().waitFor();
    expect((await settingsOf("hamlet")).email_notifications_batching_period_seconds).toBe(3600);
    await page.screenshot({ path: shot("settings-notifications") });
    expect(errors).toEqual([]);
  }, 20_000);
});

describe("Account & privacy", () => {
  test("the API key shows after the password, works with the API, and a new one replaces it", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/#settings/account-and-privacy");
    await page.getByRole("button", { name: "Manage your API key" }).click();
    const password = page.getByLabel("Your password, to show your API key");
    await password.fill("wrong-pass");
    await page.getByRole("button", { name: "Show API key" }).click();
    await page.getByRole("alert").getByText("Password is incorrect.").waitFor();
    expect(await page.locator(".api-key-value").count()).toBe(0);
    await password.fill("hamlet-pass");
    await page.getByRole("button", { name: "Show API key" }).click();
    const key = (await page.locator(".api-key-value").textContent())!.trim();
    const email = suite.s.users.hamlet.email;
    const me = await fetch(`${suite.base}/api/v1/users/me`, { headers: basicAuth(email, key) });
    expect((await me.json()).user_id).toBe(suite.userId("hamlet"));

    // the zuliprc carries the key and this server's address
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download zuliprc" }).click();
    const file = await (await download).path();
    expect(await Bun.file(file!).text()).toBe(`[api]\nemail=${email}\nkey=${key}\nsite=${suite.base}\n`);

    await page.getByRole("button", { name: "Generate a new API key" }).click();
    await eventually(async () => (await page.locator(".api-key-value").textContent())!.trim() !== key, true);
    const fresh = (await page.locator(".api-key-value").textContent())!.trim();
    expect((await fetch(`${suite.base}/api/v1/users/me`, { headers: basicAuth(email, key) })).status).toBe(401);
    expect((await fetch(`${suite.base}/api/v1/users/me`, { headers: basicAuth(email, fresh) })).status).toBe(200);
    await page.screenshot({ path: shot("settings-account") });
    expect(errors).toEqual([]);
  }, 20_000);

  test("privacy switches are stored, and the only owner is told why they cannot deactivate their account", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "othello", "/#settings/account-and-privacy");
    await page.getByRole("switch", { name: "Let recipients see when I'm typing direct messages" }).click();
    await eventually(async () => (await settingsOf("othello")).send_private_typing_notifications, false);
    await page.getByRole("combobox", { name: "Who can access your email address" }).selectOption({ label: "Admins only" });
    await eventually(async () => (await settingsOf("othello")).email_address_visibility, 3);
    // the organization turns email changes off: the open page closes the field and says why
    const email = page.getByLabel("Email", { exact: true });
    expect(await email.inputValue()).toBe("othello@zulip.com");
    (await suite.s.users.desdemona.client.patch("/realm", { email_changes_disabled: true })).success();
    await eventually(() => email.isDisabled(), true);
    await page.getByText("Your organization's administrators have turned off email address changes.").waitFor();
    (await suite.s.users.desdemona.client.patch("/realm", { email_changes_disabled: false })).success();
    await eventually(() => email.isDisabled(), false);

    const owner = await suite.open();
    await owner.page.goto(`${suite.base}/#settings/account-and-privacy`);
    await owner.page.fill("#login-email", "desdemona@zulip.com");
    await owner.page.fill("#login-password", "desdemona-pass");
    await owner.page.click(".login-form button[type=submit]");
    await owner.page.getByRole("button", { name: "Deactivate your account" }).click();
    const confirm = owner.page.getByRole("dialog", { name: "Deactivate your account?" });
    await confirm.getByRole("button", { name: "Deactivate" }).click();
    await confirm.getByRole("alert").getByText("Cannot deactivate the only organization owner").waitFor();
    expect((await suite.s.app.db.get<{ is_active: number }>("SELECT is_active FROM users WHERE id = ?", [suite.userId("desdemona")]))!.is_active).toBeTruthy();
    expect(errors).toEqual([]);
  }, 20_000);
});

describe("muting, topics, alert words, status and snippets", () => {
  test("each list changes through the API and shows what the server now holds", async () => {
    // othello: hamlet's key was replaced above
    const hamlet = suite.s.users.othello.client;
    (await hamlet.post(`/users/me/muted_users/${suite.userId("cordelia")}`)).success();
    const { page, errors } = await suite.open();
    await suite.logIn(page, "othello", "/#settings/muted-users");
    await page.getByRole("button", { name: "Unmute Cordelia" }).click();
    await page.getByText("You have not muted anyone.").waitFor();
    expect((await hamlet.post("/register", { fetch_event_types: ["muted_users"] })).success().muted_users).toEqual([]);

    const channel = await createChannel(suite.s, "othello", "battlements");
    (await hamlet.post("/user_topics", { stream_id: channel, topic: "watch", visibility_policy: 3 })).success();
    await page.goto(`${suite.base}/#settings/topics`);
    await page.getByRole("button", { name: "Unfollow #battlements › watch" }).click();
    await page.getByText("You have not muted or followed any topic.").waitFor();
    expect((await hamlet.post("/register", { fetch_event_types: ["user_topic"] })).success().user_topics).toEqual([]);

    await page.goto(`${suite.base}/#settings/alert-words`);
    await page.getByLabel("New alert word").fill("Yorick");
    await page.getByRole("button", { name: "Add" }).click();
    await page.getByRole("list", { name: "Your alert words" }).getByText("Yorick").waitFor();
    expect((await hamlet.get("/users/me/alert_words")).success().alert_words).toEqual(["Yorick"]);
    await page.getByRole("button", { name: "Remove the alert word Yorick" }).click();
    await page.getByText("You have no alert words.").waitFor();
    expect((await hamlet.get("/users/me/alert_words")).success().alert_words).toEqual([]);

    await page.goto(`${suite.base}/#settings/saved-snippets`);
    await page.getByLabel("Title").fill("Greeting");
    await page.getByLabel("Text").fill("Good morrow, sweet lady.");
    await page.getByRole("button", { name: "Save snippet" }).click();
    await page.getByRole("list", { name: "Your saved snippets" }).getByText("Good morrow, sweet lady.").waitFor();
    const snippets = (await hamlet.get("/saved_snippets")).success().saved_snippets;
    expect(snippets.map((s: { title: string }) => s.title)).toEqual(["Greeting"]);
    await page.getByRole("button", { name: "Delete the snippet Greeting" }).click();
    await page.getByText("You have no saved snippets.").waitFor();

    await page.goto(`${suite.base}/#settings/status`);
    await page.getByRole("button", { name: "Choose a status emoji" }).click();
    await page.getByRole("combobox", { name: "Search emoji" }).fill("tada");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Status emoji: tada. Choose another" }).waitFor();
    await page.getByLabel("Your status").fill("At the play");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("status").getByText("Saved").waitFor();
    const status = async () => (await hamlet.post("/register", { fetch_event_types: ["user_status"] })).success().user_status[suite.userId("othello")];
    expect(await status()).toMatchObject({ status_text: "At the play", emoji_name: "tada" });
    await page.getByRole("switch", { name: "Appear away to others" }).click();
    await eventually(async () => (await status())?.away, true);
    await page.getByRole("button", { name: "Clear status" }).click();
    await eventually(async () => (await status())?.status_text, undefined);
    expect(errors).toEqual([]);
  }, 30_000);
});

describe("deactivating one's own account", () => {
  test("a member confirms, the server deactivates them, and the page lands on the login screen", async () => {
    const { page } = await suite.open();
    await page.goto(`${suite.base}/#settings/account-and-privacy`);
    await page.fill("#login-email", "cordelia@zulip.com");
    await page.fill("#login-password", "cordelia-pass");
    await page.click(".login-form button[type=submit]");
    await page.getByRole("button", { name: "Deactivate your account" }).click();
    const confirm = page.getByRole("dialog", { name: "Deactivate your account?" });
    // Cancel changes nothing
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "detached" });
    const active = async () => !!(await suite.s.app.db.get<{ is_active: number }>("SELECT is_active FROM users WHERE id = ?", [suite.userId("cordelia")]))!.is_active;
    expect(await active()).toBe(true);
    await page.getByRole("button", { name: "Deactivate your account" }).click();
    await confirm.getByRole("button", { name: "Deactivate" }).click();
    await page.locator("#login-email").waitFor({ timeout: 10_000 });
    expect(await active()).toBe(false);
  }, 30_000);
});
