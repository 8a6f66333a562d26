/**
 * One's own account from the personal menu: changing the password. The server checks the current
 * password; this session stays logged in; the next login takes the new password and not the old one.
 */
import { describe, expect, test } from "bun:test";
import { browserSuite, eventually, shot } from "./helpers";

const suite = browserSuite();

const storedHash = async () => (await suite.s.app.db.get<{ password_hash: string }>("SELECT password_hash FROM users WHERE id = ?", [suite.userId("hamlet")]))!.password_hash;
const verifies = async (password: string) => Bun.password.verify(password, await storedHash());

describe("changing one's password in the web app", () => {
  test("a wrong current password or a mistyped new one changes nothing; the right one changes it, the session stays, and only the new password logs in", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet");
    await page.getByRole("button", { name: /^Personal menu/ }).click();
    await page.getByRole("menuitem", { name: "Change password" }).click();
    const dialog = page.getByRole("dialog", { name: "Change your password" });
    await dialog.waitFor();
    await eventually(() => page.evaluate(() => document.activeElement?.getAttribute("autocomplete")), "current-password");
    const fill = async (current: string, next: string, again: string) => {
      await dialog.getByLabel("Current password").fill(current);
      await dialog.getByLabel("New password", { exact: true }).fill(next);
      await dialog.getByLabel("New password again").fill(again);
      await dialog.getByRole("button", { name: "Change password" }).click();
    };

    // mistyped: refused in the page, nothing sent
    let sent = 0;
    page.on("request", (r) => r.url().endsWith("/json/settings") && sent++);
    await fill("hamlet-pass", "to be or not", "to be or nit");
    await dialog.getByRole("alert").getByText("The new passwords do not match.").waitFor();
    await fill("hamlet-pass", "ghost", "ghost");
    await dialog.getByRole("alert").getByText("The new password needs at least 6 characters.").waitFor();
    expect(sent).toBe(0);

    // the wrong current password: the server's refusal, shown in the dialog; the stored password is the old one
    await fill("hamlet-wrong", "to be or not", "to be or not");
    await dialog.getByRole("alert").getByText("Wrong password!").waitFor();
    expect(sent).toBe(1);
    expect(await verifies("hamlet-pass")).toBe(true);
    await page.screenshot({ path: shot("change-password") });

    // the right one: changed, said, and this page still works
    await fill("hamlet-pass", "to be or not", "to be or not");
    await dialog.waitFor({ state: "detached" });
    await page.locator(".notice", { hasText: "Your password is changed." }).waitFor();
    expect(await verifies("to be or not")).toBe(true);
    expect(await verifies("hamlet-pass")).toBe(false);
    expect(await page.locator(".app-shell").isVisible()).toBe(true);

    // logged out: the old password is refused, the new one lets them in
    await page.getByRole("button", { name: /^Personal menu/ }).click();
    await page.getByRole("menuitem", { name: "Log out" }).click();
    await page.locator("#login-email").waitFor();
    await page.fill("#login-email", "hamlet@zulip.com");
    await page.fill("#login-password", "hamlet-pass");
    await page.click(".login-form button[type=submit]");
    await page.locator(".login-error").waitFor();
    await page.fill("#login-email", "hamlet@zulip.com");
    await page.fill("#login-password", "to be or not");
    await page.click(".login-form button[type=submit]");
    await page.locator(".app-shell").waitFor();
    expect(errors).toEqual([]);
  }, 30_000);
});
