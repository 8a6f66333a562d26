/**
 * A member who forgot their password gets back in alone: "Forgot password?" on the login page, the
 * email's one-time link (read from the outbox), a new password, and they land in the web app logged
 * in. The link is dead afterwards. What the pages show and what the server stored are both checked.
 */
import { describe, expect, test } from "bun:test";
import { browserSuite, dialogViolations, shot } from "./helpers";

const suite = browserSuite();

describe("forgotten password", () => {
  test("from the login page to a new password and into the app; the link then says it is dead", async () => {
    // (the pages' CSP allows no script: axe is injected around it)
    const { page } = await suite.open({ context: { bypassCSP: true } });
    const accessible = async (where: string) => expect({ where, violations: await dialogViolations(page, "html") }).toEqual({ where, violations: [] });
    await page.goto(suite.base + "/");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.getByRole("heading", { name: "Forgot your password?" }).waitFor();
    await accessible("reset form");
    await page.getByRole("textbox", { name: "Email" }).fill("hamlet@zulip.com");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByRole("heading", { name: "Check your email" }).waitFor();
    await accessible("check your email");
    expect(await page.locator("main").textContent()).toContain("hamlet@zulip.com");

    // the email waits in the outbox; its link is on external_url (the test server's http://parley.test)
    const mail = await suite.s.app.db.get<{ subject: string; body: string }>("SELECT subject, body FROM outbox_emails WHERE to_address = 'hamlet@zulip.com'");
    expect(mail!.subject).toBe("Reset your password for Zulip Dev");
    const link = /http:\/\/parley\.test(\/accounts\/password\/reset\/\w+\/)/.exec(mail!.body)![1]!;

    await page.goto(suite.base + link);
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await accessible("choose a password");
    await page.getByLabel("New password", { exact: true }).fill("a fresh start 2026");
    await page.screenshot({ path: shot("password-reset") });
    await page.getByRole("button", { name: "Set password and log in" }).click();
    await page.locator(".app-shell").waitFor();
    expect(new URL(page.url()).pathname).toBe("/");

    // stored: the new password works, the old one does not, and the browser holds hamlet's only session
    const hamlet = suite.s.users.hamlet;
    (await suite.s.anonymous.post("/fetch_api_key", { username: hamlet.email, password: "a fresh start 2026" })).success();
    (await suite.s.anonymous.post("/fetch_api_key", { username: hamlet.email, password: "hamlet-pass" })).error("Your username or password is incorrect", "AUTHENTICATION_FAILED", 401);
    const cookie = (await page.context().cookies()).find((c) => c.name === "parley_session")!;
    expect(await suite.s.app.db.all("SELECT token FROM sessions WHERE user_id = ?", [hamlet.id])).toEqual([{ token: cookie.value }]);

    // the footer link of every missed-message email opens the notification settings, in an open app and at start
    const notifications = page.getByRole("dialog", { name: "Settings" }).getByRole("region", { name: "Notifications" });
    await page.goto(suite.base + "/#settings/notifications");
    await notifications.waitFor();
    await page.goto("about:blank");
    await page.goto(suite.base + "/#settings/notifications");
    await notifications.waitFor();

    await page.goto(suite.base + link);
    await page.getByRole("heading", { name: "Link expired or used" }).waitFor();
    await accessible("dead link");
    expect(await page.locator("main").textContent()).toContain("This link has expired or has already been used.");
  }, 30_000);
});
