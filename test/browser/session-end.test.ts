/**
 * A page whose session ended lands on the login page: an administrator deactivates a member through
 * the API, and the member's open page shows the login screen with a note, with no browser credentials
 * prompt (the server answers /json with Zulip's Session challenge, never Basic).
 */
import { describe, expect, test } from "bun:test";
import { browserSuite, eventually } from "./helpers";

const suite = browserSuite();

describe("when the session ends under an open page", () => {
  test("a deactivated member's page goes to the login screen at once, says why, and shows no browser login prompt", async () => {
    const { page, errors } = await suite.open();
    const challenges: string[] = [];
    page.on("response", (r) => {
      const c = r.headers()["www-authenticate"];
      if (c) challenges.push(c);
    });
    await suite.logIn(page, "othello", "/#inbox");
    const { s } = suite;
    const sessions = () => s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM sessions WHERE user_id = ?", [suite.userId("othello")]).then((r) => r!.n);
    expect(await sessions()).toBe(1);

    (await s.users.iago.client.delete(`/users/${suite.userId("othello")}`)).success();
    await page.locator(".login-notice", { hasText: "Your session ended" }).waitFor({ timeout: 5000 });
    expect(await page.locator("#login-email").isVisible()).toBe(true);
    expect(new URL(page.url()).hash).toBe("#inbox");
    expect(await page.locator(".app-shell").count()).toBe(0);
    // the server ended the session; the page was told with a Session challenge only
    expect(await sessions()).toBe(0);
    expect((await s.app.db.get<{ is_active: number }>("SELECT is_active FROM users WHERE id = ?", [suite.userId("othello")]))!.is_active).toBe(0);
    expect(challenges.length).toBeGreaterThan(0);
    expect(challenges.filter((c) => !c.startsWith("Session"))).toEqual([]);

    // reactivated, they log in from that page and are back where they were
    (await s.users.iago.client.post(`/users/${suite.userId("othello")}/reactivate`)).success();
    await page.fill("#login-email", "othello@zulip.com");
    await page.fill("#login-password", "othello-pass");
    await page.click(".login-form button[type=submit]");
    await page.locator(".app-shell").waitFor();
    await eventually(() => new URL(page.url()).hash, "#inbox");
    expect(errors).toEqual([]);
  }, 30_000);
});
