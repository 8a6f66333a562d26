/**
 * Inviting by email from the browser: an administrator types addresses in the invite dialog's "By
 * email" tab, sees the server's reason for a bad one next to the field (nothing sent), sends the good
 * one with a channel, resends it from the Invitations list; the emailed link (read from the outbox)
 * opens the sign-up in a fresh browser with the address fixed, the newcomer lands in the app with the
 * invited channel, the inviter hears of it from Notification Bot and the invitation leaves the list.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { createChannel } from "../helpers/channels";
import { hashPassword } from "../../src/actions/users";
import { listOutboxEmails } from "../../src/store/outbox";
import { browserSuite, dialogViolations, eventually, shot } from "./helpers";

let garden: number;
let welcome: number;
const suite = browserSuite(async (s) => {
  await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword("iago-pass"), s.users.iago.id]);
  garden = await createChannel(s, "iago", "garden", { subscribers: ["iago"] });
  welcome = await createChannel(s, "iago", "welcome", { subscribers: ["iago", "hamlet"], is_default_stream: true });
  await createChannel(s, "iago", "back office", { subscribers: ["iago"] });
});

async function logInIago(page: Page) {
  await page.goto(suite.base + "/");
  await page.fill("#login-email", "iago@zulip.com");
  await page.fill("#login-password", "iago-pass");
  await page.click(".login-form button[type=submit]");
  await page.locator(".app-shell").waitFor();
}

describe("inviting by email from the web app", () => {
  test("an administrator invites by email; the newcomer signs up through the emailed link and sees the invited channel; the invitation leaves the list", async () => {
    // (axe is injected into the page for the accessibility check: the page's own CSP would refuse it)
    const inviter = await suite.open({ width: 390, height: 820, context: { bypassCSP: true } });
    const page = inviter.page;
    await logInIago(page);
    await page.getByRole("button", { name: /^Personal menu/ }).click();
    await page.getByRole("menuitem", { name: "Invite people" }).click();
    const dialog = page.getByRole("dialog", { name: "Invite people to Zulip Dev" });
    await dialog.getByRole("tab", { name: "By email" }).click();
    expect(await dialog.getByRole("tab", { name: "By email" }).getAttribute("aria-selected")).toBe("true");
    expect(await dialog.locator(".invite-email-role option").allTextContents()).toEqual(["Guest", "Member", "Moderator", "Administrator"]);
    expect(await dialog.locator(".invite-email-role").inputValue()).toBe("400");
    expect(await dialog.locator(".invite-channel").count()).toBe(3);

    // a bad address: the server's reason next to the field, nothing stored or sent
    await dialog.getByLabel("Email addresses").fill("Olivia <olivia@example.com>, not-an-address");
    await dialog.locator(".check", { hasText: "garden" }).locator("input").check();
    await dialog.getByRole("button", { name: "Send invitations" }).click();
    const problem = dialog.locator("#invite-email-problem");
    await problem.waitFor();
    expect(await problem.locator("p").textContent()).toBe("Some emails did not validate, so we didn't send any invitations.");
    expect(await problem.locator("li").allTextContents()).toEqual(["not-an-address: Invalid address."]);
    expect(await dialog.getByLabel("Email addresses").getAttribute("aria-invalid")).toBe("true");
    expect(await dialog.getByLabel("Email addresses").getAttribute("aria-describedby")).toBe("invite-email-problem");
    expect(await listOutboxEmails(suite.s.app.db, "olivia@example.com")).toEqual([]);
    const box = (await dialog.boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await page.screenshot({ path: shot("invite-email-phone") });
    expect(await dialogViolations(page)).toEqual([]);

    // the good address alone: sent, said, and the field emptied
    await dialog.getByLabel("Email addresses").fill("Olivia <olivia@example.com>");
    await dialog.getByRole("button", { name: "Send invitations" }).click();
    await eventually(() => dialog.locator(".invite-sent").textContent(), "An invitation was sent to olivia@example.com.");
    expect(await problem.count()).toBe(0);
    expect(await dialog.getByLabel("Email addresses").inputValue()).toBe("");
    const stored = (await suite.s.app.db.get<any>("SELECT * FROM invites WHERE email = 'olivia@example.com'"))!;
    expect(stored).toMatchObject({ referrer_id: suite.userId("iago"), invited_as: 400, stream_ids: JSON.stringify([garden]), include_realm_default_subscriptions: 1, notify_referrer_on_join: 1, used_by: null });

    // the Invitations list shows it, with Resend and Revoke; Resend sends the same link again
    const listTab = dialog.getByRole("tab", { name: /^Invitations/ });
    await listTab.click();
    const entry = dialog.locator(".invite-entry-email", { hasText: "olivia@example.com" });
    await entry.waitFor();
    expect(await entry.locator(".invite-entry-made").textContent()).toMatch(/^Member invitation · Sent by you on /);
    expect(await entry.getByRole("button", { name: "Revoke" }).count()).toBe(1);
    await entry.getByRole("button", { name: "Resend" }).click();
    await eventually(() => dialog.locator(".invite-list-said").textContent(), "The invitation to olivia@example.com was sent again.");
    const mails = await listOutboxEmails(suite.s.app.db, "olivia@example.com");
    expect(mails.map((m) => m.subject)).toEqual(["Iago invited you to join Zulip Dev", "Iago invited you to join Zulip Dev"]);
    const link = /http:\/\/parley\.test(\/join\/[a-z2-7]{24}\/)/.exec(mails[1]!.body)!;
    expect(mails[0]!.body).toContain(link[0]);

    // the newcomer opens the emailed link in a fresh browser: the address is fixed, she picks name and password
    const newcomer = await suite.open();
    await newcomer.page.goto(suite.base + link[1]);
    expect(await newcomer.page.locator("h1").textContent()).toBe("Join Zulip Dev");
    expect(await newcomer.page.locator("#email").inputValue()).toBe("olivia@example.com");
    expect(await newcomer.page.locator("#email").getAttribute("readonly")).not.toBeNull();
    await newcomer.page.fill("#full_name", "Olivia");
    await newcomer.page.fill("#password", "twelfth-night-pw");
    await newcomer.page.click("button[type=submit]");
    await newcomer.page.locator(".app-shell").waitFor();
    await newcomer.page.locator(".channel-row a", { hasText: "garden" }).waitFor();
    await newcomer.page.locator(".channel-row a", { hasText: "welcome" }).waitFor();
    expect(await newcomer.page.locator(".channel-row a", { hasText: "back office" }).count()).toBe(0);

    // the server: her account with the invited role and channels, the invitation used
    const olivia = (await suite.s.app.db.get<{ id: number; role: number; full_name: string }>("SELECT id, role, full_name FROM users WHERE delivery_email = 'olivia@example.com'"))!;
    expect({ role: olivia.role, name: olivia.full_name }).toEqual({ role: 400, name: "Olivia" });
    const subs = await suite.s.app.db.all<{ stream_id: number }>("SELECT stream_id FROM subscriptions WHERE user_id = ? AND active = 1 ORDER BY stream_id", [olivia.id]);
    expect(subs.map((x) => x.stream_id)).toEqual([garden, welcome].sort((a, b) => a - b));
    expect((await suite.s.app.db.get<{ used_by: number }>("SELECT used_by FROM invites WHERE id = ?", [stored.id]))!.used_by).toBe(olivia.id);

    // the inviter's open list drops the invitation (invites_changed), and Notification Bot tells him
    await entry.waitFor({ state: "detached" });
    await eventually(() => listTab.textContent(), "Invitations (0)");
    const told = await suite.s.app.db.get<{ content: string }>(
      "SELECT m.content FROM messages m JOIN users b ON b.id = m.sender_id WHERE b.email = 'notification-bot@zulip.com' AND m.content LIKE '%accepted your invitation%'",
    );
    expect(told!.content).toBe(`@_**Olivia|${olivia.id}** accepted your invitation to join Parley!`);

    // the link is dead now
    const again = await suite.open();
    const dead = await again.page.goto(suite.base + link[1]);
    expect(dead!.status()).toBe(410);
    expect([...inviter.errors, ...newcomer.errors]).toEqual([]);
  }, 60_000);
});
