/**
 * People and bots in the web app, each journey asserting what the person sees and what the server stored:
 * an administrator deactivates a member (whose open page lands on the login page) and reactivates them,
 * changes a role, and a member creates a bot whose key, as the page shows it, works with the API.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { browserSuite, eventually, shot } from "./helpers";
import { hashPassword } from "../../src/actions/users";
import { makePng } from "../helpers/uploads";

const suite = browserSuite(async (s) => {
  await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword("iago-pass"), s.users.iago.id]);
});

/** Logs the administrator in (the suite's helper knows hamlet and othello). */
async function logInIago(page: Page, path: string) {
  await page.goto(suite.base + path);
  await page.fill("#login-email", "iago@zulip.com");
  await page.fill("#login-password", "iago-pass");
  await page.click(".login-form button[type=submit]");
  await page.locator(".app-shell").waitFor();
}

const stored = (id: number) => suite.s.app.db.get<{ role: number; is_active: number }>("SELECT role, is_active FROM users WHERE id = ?", [id]);
const userRow = (page: Page, name: string) => page.locator(".user-row", { hasText: name });

describe("an administrator manages people", () => {
  test("deactivates a member, whose open page goes to the login page, then reactivates them from the deactivated list", async () => {
    const member = await suite.open();
    await suite.logIn(member.page, "othello");
    const { page, errors } = await suite.open();
    await logInIago(page, "/#organization/user-list-admin");
    const row = userRow(page, "Othello, the Moor of Venice");
    await row.getByRole("button", { name: "Deactivate Othello, the Moor of Venice" }).click();
    const dialog = page.getByRole("dialog", { name: /^Deactivate Othello/ });
    await dialog.getByLabel("Notify them by email").check();
    await dialog.getByLabel("A note in the email (optional)").fill("Thank you for everything.");
    await dialog.getByRole("button", { name: "Deactivate" }).click();
    await dialog.waitFor({ state: "detached" });
    await row.waitFor({ state: "detached" });
    expect((await stored(suite.userId("othello")))!.is_active).toBe(0);
    // the member's open page ends on the login page
    await member.page.locator(".login-notice", { hasText: "Your session ended" }).waitFor({ timeout: 8000 });

    await page.goto(`${suite.base}/#organization/deactivated-users-admin`);
    const gone = userRow(page, "Othello, the Moor of Venice");
    await page.screenshot({ path: shot("settings-deactivated-users") });
    await gone.getByRole("button", { name: "Reactivate Othello, the Moor of Venice" }).click();
    await gone.waitFor({ state: "detached" });
    expect((await stored(suite.userId("othello")))!.is_active).toBe(1);
    // and they can log in again
    const again = await suite.open();
    await suite.logIn(again.page, "othello");
    expect(errors).toEqual([]);
  }, 30_000);

  test("changes a member's role; a member sees no role control and the API refuses them", async () => {
    const { page, errors } = await suite.open();
    await logInIago(page, "/#organization/user-list-admin");
    const role = userRow(page, "Cordelia").getByLabel("Role of Cordelia, Lear's daughter");
    // (the section's chunk may still be loading: wait for the control before reading its options)
    await role.waitFor();
    // an administrator is not offered the owner role
    expect(await role.locator("option").allTextContents()).toEqual(["Guest", "Member", "Moderator", "Administrator"]);
    await role.selectOption({ label: "Moderator" });
    await eventually(async () => (await stored(suite.userId("cordelia")))!.role, 300);
    await eventually(() => role.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent), "Moderator");
    await page.screenshot({ path: shot("settings-users") });

    const member = await suite.open();
    await suite.logIn(member.page, "hamlet", "/#organization/user-list-admin");
    await userRow(member.page, "Cordelia").waitFor();
    expect(await member.page.getByLabel("Role of Cordelia, Lear's daughter").count()).toBe(0);
    expect(await member.page.getByRole("button", { name: /^Deactivate / }).count()).toBe(0);
    const refused = await suite.s.users.hamlet.client.patch(`/users/${suite.userId("cordelia")}`, { role: 400 });
    expect(refused.status).toBe(400);
    expect((await stored(suite.userId("cordelia")))!.role).toBe(300);
    expect(errors).toEqual([]);
  }, 30_000);
});

describe("profile cards", () => {
  test("open from the people list, show the person, and start a direct message with them", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet");
    const row = page.locator("#right-sidebar li", { hasText: "Othello, the Moor of Venice" });
    await row.hover();
    await row.getByRole("button", { name: "Profile of Othello, the Moor of Venice" }).click();
    const card = page.getByRole("dialog", { name: "Othello, the Moor of Venice" });
    await card.getByText("Member", { exact: true }).waitFor();
    await card.getByRole("button", { name: "Send a direct message" }).click();
    await card.waitFor({ state: "detached" });
    expect(decodeURIComponent(new URL(page.url()).hash)).toMatch(new RegExp(`^#narrow/dm/${suite.userId("othello")}-`));
    expect(errors).toEqual([]);
  }, 20_000);
});

describe("bots", () => {
  test("a member creates a bot and the key the page shows works with the API", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/#settings/your-bots");
    await page.getByLabel("Name", { exact: true }).fill("Ghost Bot");
    await page.getByLabel(/^Bot email/).fill("ghost");
    await page.getByLabel("Avatar (optional)").setInputFiles({ name: "ghost.png", mimeType: "image/png", buffer: await makePng(64, 64, "#777777") });
    await page.getByRole("button", { name: "Create bot" }).click();
    const card = page.locator(".bot-card", { hasText: "Ghost Bot" });
    await card.waitFor();
    await card.getByRole("button", { name: "Show key of Ghost Bot" }).click();
    const key = (await card.locator(".api-key").textContent())!.trim();
    const email = "ghost-bot@parley.test";
    const row = await suite.s.app.db.get<{ api_key: string; bot_owner_id: number }>("SELECT api_key, bot_owner_id FROM users WHERE email = ?", [email]);
    expect(row).toEqual({ api_key: key, bot_owner_id: suite.userId("hamlet") });
    // the avatar chosen was stored (an uploaded one) and the card shows it from this server
    await eventually(async () => (await suite.s.app.db.get<{ avatar_source: string }>("SELECT avatar_source FROM users WHERE email = ?", [email]))!.avatar_source, "U");
    await card.locator("img.avatar").waitFor();
    const me = await fetch(`${suite.base}/api/v1/users/me`, { headers: { authorization: `Basic ${btoa(`${email}:${key}`)}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ result: "success", email, is_bot: true, full_name: "Ghost Bot" });
    await page.screenshot({ path: shot("settings-bots") });

    // a new key: the page shows it, the old one stops working
    await card.getByRole("button", { name: "Regenerate key of Ghost Bot" }).click();
    await eventually(async () => (await card.locator(".api-key").textContent())!.trim() !== key, true);
    const fresh = (await card.locator(".api-key").textContent())!.trim();
    expect((await fetch(`${suite.base}/api/v1/users/me`, { headers: { authorization: `Basic ${btoa(`${email}:${key}`)}` } })).status).toBe(401);
    expect((await fetch(`${suite.base}/api/v1/users/me`, { headers: { authorization: `Basic ${btoa(`${email}:${fresh}`)}` } })).status).toBe(200);

    // deactivated, its key stops working; reactivated, it works again
    await card.getByRole("button", { name: "Deactivate Ghost Bot" }).click();
    await card.getByRole("button", { name: "Reactivate Ghost Bot" }).waitFor();
    expect((await suite.s.app.db.get<{ is_active: number }>("SELECT is_active FROM users WHERE email = ?", [email]))!.is_active).toBe(0);
    expect((await fetch(`${suite.base}/api/v1/users/me`, { headers: { authorization: `Basic ${btoa(`${email}:${fresh}`)}` } })).status).toBe(401);
    await card.getByRole("button", { name: "Reactivate Ghost Bot" }).click();
    await card.getByRole("button", { name: "Deactivate Ghost Bot" }).waitFor();
    expect((await suite.s.app.db.get<{ is_active: number }>("SELECT is_active FROM users WHERE email = ?", [email]))!.is_active).toBe(1);
    expect(errors).toEqual([]);
  }, 30_000);
});
