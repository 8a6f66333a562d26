/**
 * Administering the organization in the web app: each change made in the organization's settings
 * asserted on the page, on another person's open page (through events) and in what the server stored;
 * the owner's server page with a backup made and downloaded.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { browserSuite, eventually, shot } from "./helpers";
import { hashPassword } from "../../src/actions/users";
import { restoreBackup } from "../../src/backup/restore";
import { createChannel } from "../helpers/channels";
import { makePng } from "../helpers/uploads";
import type { CastName } from "../helpers/server";

let general = 0;
const suite = browserSuite(async (s) => {
  for (const who of ["desdemona", "iago"] as const) await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword(`${who}-pass`), s.users[who].id]);
  general = await createChannel(s, "iago", "general", { subscribers: ["hamlet", "othello", "desdemona", "iago"] });
});

async function logIn(page: Page, who: CastName, path = "/") {
  await page.goto(suite.base + path);
  await page.fill("#login-email", `${who}@zulip.com`);
  await page.fill("#login-password", `${who}-pass`);
  await page.click(".login-form button[type=submit]");
  await page.locator(".app-shell").waitFor();
}

const realmRow = async () => (await suite.s.app.db.get<{ name: string; settings: string }>("SELECT name, settings FROM realm"))!;
const overlay = (page: Page) => page.getByRole("dialog", { name: "Settings" });

describe("organization profile", () => {
  test("the owner renames the organization and a member's open page shows the new name live", async () => {
    const member = await suite.open();
    await suite.logIn(member.page, "hamlet");
    const { page, errors } = await suite.open();
    await logIn(page, "desdemona", "/#organization/organization-profile");
    const name = overlay(page).getByLabel("Organization name");
    await name.fill("Elsinore Castle");
    await overlay(page).getByRole("button", { name: "Save" }).first().click();
    await overlay(page).getByRole("status").getByText("Saved").waitFor();
    expect((await realmRow()).name).toBe("Elsinore Castle");
    await member.page.locator(".brand-name", { hasText: "Elsinore Castle" }).waitFor();
    await page.screenshot({ path: shot("settings-org-profile") });
    expect(errors).toEqual([]);
    expect(member.errors).toEqual([]);
  }, 25_000);

  test("a refused change shows the server's reason next to the control, and nothing changes", async () => {
    const { page } = await suite.open();
    await logIn(page, "desdemona", "/#organization/organization-profile");
    const before = (await realmRow()).name;
    const name = overlay(page).getByLabel("Organization name");
    await name.fill("   ");
    await overlay(page).getByRole("button", { name: "Save" }).first().click();
    await overlay(page).getByRole("alert").getByText("Organization name can't be empty.").waitFor();
    expect(await name.inputValue()).toBe(before);
    expect((await realmRow()).name).toBe(before);
  }, 20_000);

  test("the owner uploads an icon and removes it: the page shows each, and the server stores the source", async () => {
    const { page, errors } = await suite.open();
    await logIn(page, "desdemona", "/#organization/organization-profile");
    const png = join(mkdtempSync(join(tmpdir(), "parley-icon-")), "icon.png");
    await Bun.write(png, await makePng(200, 200, "#2d6a4f"));
    const icon = overlay(page).getByRole("img", { name: "The organization's icon" });
    const before = await icon.getAttribute("src");
    await page.locator("#org-icon-file").setInputFiles(png);
    await overlay(page).getByRole("button", { name: "Remove icon" }).waitFor();
    expect(await icon.getAttribute("src")).not.toBe(before);
    await eventually(() => icon.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0), true);
    expect(JSON.parse((await realmRow()).settings).icon_source).toBe("U");
    await overlay(page).getByRole("button", { name: "Remove icon" }).click();
    await overlay(page).getByRole("button", { name: "Remove icon" }).waitFor({ state: "detached" });
    expect(JSON.parse((await realmRow()).settings).icon_source).toBe("G");
    expect(errors).toEqual([]);
  }, 20_000);

  test("a member sees the organization's settings read-only, and no server page", async () => {
    const { page } = await suite.open();
    await suite.logIn(page, "hamlet", "/#organization/organization-permissions");
    await overlay(page).getByText("Only organization administrators can change these settings.").waitFor();
    expect(await overlay(page).getByLabel("Who can create public channels").isDisabled()).toBe(true);
    expect(await overlay(page).getByRole("link", { name: "Server" }).count()).toBe(0);
  }, 20_000);
});

describe("at phone width", () => {
  test("the organization's sections fit the screen: nothing reaches past its right edge", async () => {
    const { page } = await suite.open({ width: 390, height: 844 });
    await logIn(page, "desdemona", "/#organization/organization-permissions");
    for (const section of ["organization-permissions", "linkifier-settings", "default-channels-list", "server"]) {
      await page.goto(`${suite.base}/#organization/${section}`);
      await page.locator(".settings-section").waitFor();
      if (section === "server") await page.getByRole("button", { name: "Back up now" }).waitFor();
      const beyond = await page.evaluate(() =>
        Array.from(document.querySelectorAll(".settings-overlay *")).filter((el) => el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > window.innerWidth + 1).map((el) => `${el.tagName}.${el.className}`),
      );
      expect({ section, beyond }).toEqual({ section, beyond: [] });
    }
    await overlay(page).getByRole("button", { name: "Close settings" }).waitFor();
  }, 25_000);
});

describe("organization permissions", () => {
  test("the owner limits channel creation to administrators: a member's create control goes away live and the API refuses them", async () => {
    const member = await suite.open();
    await suite.logIn(member.page, "hamlet");
    const plus = member.page.getByRole("button", { name: "Create a channel" });
    await plus.waitFor();
    const { page, errors } = await suite.open();
    await logIn(page, "desdemona", "/#organization/organization-permissions");
    const admins = suite.s.app.db.get<{ id: number }>("SELECT id FROM user_groups WHERE name = 'role:administrators'");
    const adminsId = (await admins)!.id;
    for (const label of ["Who can create public channels", "Who can create private channels"]) {
      await overlay(page).getByLabel(label).selectOption({ label: "Admins" });
      await eventually(async () => overlay(page).getByLabel(label).inputValue(), String(adminsId));
    }
    const stored = JSON.parse((await realmRow()).settings);
    expect([stored.can_create_public_channel_group, stored.can_create_private_channel_group]).toEqual([adminsId, adminsId]);
    await plus.waitFor({ state: "detached" });
    (await suite.s.users.hamlet.client.post("/users/me/subscriptions", { subscriptions: [{ name: "hamlets corner" }] })).error("Insufficient permission", "BAD_REQUEST");
    await page.screenshot({ path: shot("settings-org-permissions") });
    expect(errors).toEqual([]);
  }, 25_000);
});

describe("default user settings", () => {
  test("an administrator chooses what Enter does for new users; the server stores the default, and existing people keep theirs", async () => {
    const defaults = async () => (await suite.s.users.hamlet.client.post("/register", { fetch_event_types: ["realm_user_settings_defaults"] })).success().realm_user_settings_defaults;
    const before = (await defaults()).enter_sends as boolean;
    const own = (await suite.s.users.hamlet.client.post("/register", { fetch_event_types: ["user_settings"] })).success().user_settings.enter_sends;
    const { page, errors } = await suite.open();
    await logIn(page, "iago", "/#organization/organization-level-user-defaults");
    const select = overlay(page).getByLabel("Pressing Enter");
    await select.selectOption({ label: before ? "Ctrl+Enter sends, Enter makes a new line" : "Enter sends, Shift+Enter makes a new line" });
    await overlay(page).getByRole("status").getByText("Saved").waitFor();
    await eventually(async () => (await defaults()).enter_sends, !before);
    expect((await suite.s.users.hamlet.client.post("/register", { fetch_event_types: ["user_settings"] })).success().user_settings.enter_sends).toBe(own);
    expect(errors).toEqual([]);
  }, 20_000);
});

describe("custom emoji", () => {
  test("a member uploads an emoji, it is listed with its author, and a message using it shows the image", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/#organization/emoji-settings");
    const png = join(mkdtempSync(join(tmpdir(), "parley-emoji-")), "skull.png");
    await Bun.write(png, await makePng(48, 48, "#777777"));
    await overlay(page).getByLabel("Emoji name").fill("yorick");
    await overlay(page).getByLabel(/^Image/).setInputFiles(png);
    await overlay(page).getByRole("button", { name: "Add emoji" }).click();
    const listed = overlay(page).getByRole("list", { name: "Custom emoji" }).getByRole("listitem").filter({ hasText: ":yorick:" });
    await listed.getByText("added by King Hamlet").waitFor();
    const row = await suite.s.app.db.get<{ author_id: number }>("SELECT author_id FROM realm_emoji WHERE name = 'yorick'");
    expect(row?.author_id).toBe(suite.userId("hamlet"));
    await page.screenshot({ path: shot("settings-emoji") });
    await overlay(page).getByRole("button", { name: "Close settings" }).click();
    (await suite.s.users.othello.client.post("/messages", { type: "stream", to: general, topic: "graveyard", content: "Alas :yorick:" })).success();
    await page.goto(`${suite.base}/#narrow/channel/${general}-general/topic/graveyard`);
    const img = page.locator(".message-row", { hasText: "Alas" }).locator("img.emoji");
    await img.waitFor();
    expect(await img.getAttribute("alt")).toBe(":yorick:");
    expect(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  }, 25_000);
});

describe("linkifiers", () => {
  test("an administrator previews a linkifier, adds it, and a message then links", async () => {
    const { page, errors } = await suite.open();
    await logIn(page, "iago", "/#organization/linkifier-settings");
    const form = overlay(page).getByRole("form", { name: "Add a linkifier" });
    await form.getByLabel("Pattern").fill("#(?P<id>[0-9]+)");
    await form.getByLabel("URL template").fill("https://tracker.example/issues/{id}");
    await form.getByLabel("Try it on a sample text").fill("Fixed in #123");
    const preview = form.locator(".linkifier-preview").getByRole("link", { name: "#123" });
    expect(await preview.getAttribute("href")).toBe("https://tracker.example/issues/123");
    await page.screenshot({ path: shot("settings-linkifiers") });
    await form.getByRole("button", { name: "Add linkifier" }).click();
    await overlay(page).getByRole("list", { name: /^Linkifiers/ }).getByText("#(?P<id>[0-9]+)").waitFor();
    const stored = await suite.s.app.db.all<{ pattern: string; url_template: string }>("SELECT pattern, url_template FROM linkifiers");
    expect(stored).toEqual([{ pattern: "#(?P<id>[0-9]+)", url_template: "https://tracker.example/issues/{id}" }]);
    await overlay(page).getByRole("button", { name: "Close settings" }).click();
    (await suite.s.users.hamlet.client.post("/messages", { type: "stream", to: general, topic: "bugs", content: "The ghost is #42" })).success();
    await page.goto(`${suite.base}/#narrow/channel/${general}-general/topic/bugs`);
    const link = page.locator(".message-row", { hasText: "The ghost is" }).getByRole("link", { name: "#42" });
    expect(await link.getAttribute("href")).toBe("https://tracker.example/issues/42");
    expect(errors).toEqual([]);
  }, 25_000);

  test("an administrator moves a linkifier up and edits it; the server stores the new order and pattern, and a member's page follows", async () => {
    (await suite.s.users.iago.client.post("/realm/filters", { pattern: "CVE-(?P<y>[0-9]{4})-(?P<n>[0-9]+)", url_template: "https://cve.example/{y}/{n}" })).success();
    const member = await suite.open();
    await suite.logIn(member.page, "othello", "/#organization/linkifier-settings");
    const { page, errors } = await suite.open();
    await logIn(page, "iago", "/#organization/linkifier-settings");
    await overlay(page).getByRole("button", { name: "Move CVE-(?P<y>[0-9]{4})-(?P<n>[0-9]+) up" }).click();
    const order = async () => (await suite.s.app.db.all<{ pattern: string }>('SELECT pattern FROM linkifiers ORDER BY "order", id')).map((r) => r.pattern);
    await eventually(order, ["CVE-(?P<y>[0-9]{4})-(?P<n>[0-9]+)", "#(?P<id>[0-9]+)"]);
    // the member sees the list in the new order, without the buttons
    await eventually(() => member.page.locator(".linkifier-pattern").allTextContents(), ["CVE-(?P<y>[0-9]{4})-(?P<n>[0-9]+)", "#(?P<id>[0-9]+)"]);
    expect(await member.page.getByRole("button", { name: /^Move / }).count()).toBe(0);
    await overlay(page).getByRole("button", { name: "Edit #(?P<id>[0-9]+)" }).click();
    const form = overlay(page).getByRole("form", { name: "Edit the linkifier #(?P<id>[0-9]+)" });
    await form.getByLabel("Pattern").fill("#(?P<id>[0-9]{2,})");
    await form.getByRole("button", { name: "Save" }).click();
    await overlay(page).locator(".linkifier-pattern", { hasText: "#(?P<id>[0-9]{2,})" }).waitFor();
    expect(await order()).toEqual(["CVE-(?P<y>[0-9]{4})-(?P<n>[0-9]+)", "#(?P<id>[0-9]{2,})"]);
    expect(errors).toEqual([]);
  }, 25_000);

  test("a bad URL template is refused with the server's reason beside the form", async () => {
    const { page } = await suite.open();
    await logIn(page, "iago", "/#organization/linkifier-settings");
    const form = overlay(page).getByRole("form", { name: "Add a linkifier" });
    await form.getByLabel("Pattern").fill("PR-(?P<n>[0-9]+)");
    await form.getByLabel("URL template").fill("https://git.example/{m}");
    await form.getByRole("button", { name: "Add linkifier" }).click();
    await form.getByRole("alert").getByText("Group 'm' in URL template is not present in linkifier pattern.").waitFor();
    expect((await suite.s.app.db.all("SELECT id FROM linkifiers WHERE pattern LIKE 'PR-%'")).length).toBe(0);
  }, 20_000);
});

describe("default channels", () => {
  test("an administrator creates a default channel group with a channel; it is stored and listed", async () => {
    const { page, errors } = await suite.open();
    await logIn(page, "iago", "/#organization/default-channels-list");
    const form = overlay(page).getByRole("form", { name: "Create a default channel group" });
    await form.getByLabel("Name").fill("Newcomers");
    await form.getByLabel("Description").fill("Where to start");
    await form.getByRole("checkbox", { name: "#general" }).check();
    await form.getByRole("button", { name: "Create group" }).click();
    await overlay(page).getByRole("list", { name: "Channels of Newcomers" }).getByText("#general").waitFor();
    const rows = await suite.s.app.db.all<{ name: string; stream_id: number }>("SELECT g.name, s.stream_id FROM default_stream_groups g JOIN default_stream_group_streams s ON s.group_id = g.id");
    expect(rows).toEqual([{ name: "Newcomers", stream_id: general }]);
    await page.screenshot({ path: shot("settings-default-channels") });
    expect(errors).toEqual([]);
  }, 20_000);
});

describe("the owner's server page", () => {
  test("the owner backs up now, the page shows the new backup, and the download restores", async () => {
    const { page, errors } = await suite.open({ context: { acceptDownloads: true } });
    await logIn(page, "desdemona", "/#organization/server");
    await overlay(page).getByText("Latest backup").waitFor();
    await overlay(page).locator(".latest-backup", { hasText: "None yet" }).waitFor();
    await overlay(page).getByText("Off: emails go to the log file", { exact: false }).waitFor();
    await overlay(page).getByRole("button", { name: "Back up now" }).click();
    await overlay(page).locator(".latest-backup", { hasText: "parley-backup-" }).waitFor({ timeout: 15_000 });
    const dir = join(suite.s.dataDir, "backups");
    const archives = readdirSync(dir);
    expect(archives).toHaveLength(1);
    expect(await overlay(page).locator(".latest-backup").textContent()).toContain(archives[0]!);
    await page.screenshot({ path: shot("settings-server") });
    const [download] = await Promise.all([page.waitForEvent("download"), overlay(page).getByRole("link", { name: "Download the latest backup" }).click()]);
    expect(download.suggestedFilename()).toBe(archives[0]!);
    const scratch = mkdtempSync(join(tmpdir(), "parley-download-"));
    const file = join(scratch, archives[0]!);
    await download.saveAs(file);
    const manifest = await restoreBackup(file, join(scratch, "restored"));
    expect(manifest.counts.messages).toBeGreaterThanOrEqual(0);
    expect(existsSync(join(scratch, "restored", "parley.db"))).toBe(true);
    rmSync(scratch, { recursive: true, force: true });
    expect(errors).toEqual([]);
  }, 40_000);

  test("an administrator has no server page, and its address opens the first section instead", async () => {
    const { page } = await suite.open();
    await logIn(page, "iago", "/#organization/server");
    await overlay(page).getByRole("heading", { name: "Organization profile" }).waitFor();
    expect(await overlay(page).getByRole("link", { name: "Server" }).count()).toBe(0);
  }, 20_000);
});
