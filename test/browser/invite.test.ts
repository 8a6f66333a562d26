/**
 * Bringing someone in from the browser: the owner makes an invitation link from the personal menu, a
 * newcomer signs up with it in a fresh browser, lands in the web app logged in, and the two exchange
 * direct messages live. What each page shows and what the server stored are both checked; a plain
 * member is offered email invitations by default and links once the organization lets members make them.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { createChannel } from "../helpers/channels";
import { hashPassword } from "../../src/actions/users";
import type { InviteRow } from "../../src/store/invites";
import { browserSuite, dialogViolations, eventually, row, shot } from "./helpers";

let welcome: number;
const suite = browserSuite(async (s) => {
  for (const who of ["desdemona", "iago"] as const) {
    await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword(`${who}-pass`), s.users[who].id]);
  }
  welcome = await createChannel(s, "iago", "welcome", { subscribers: ["desdemona", "hamlet"], is_default_stream: true });
  await createChannel(s, "iago", "back office", { subscribers: ["desdemona"] });
});

/** Logs in someone the shared helper does not know (the owner, an administrator). */
async function logInAs(page: Page, who: "desdemona" | "iago") {
  await page.goto(suite.base + "/");
  await page.fill("#login-email", `${who}@zulip.com`);
  await page.fill("#login-password", `${who}-pass`);
  await page.click(".login-form button[type=submit]");
  await page.locator(".app-shell").waitFor();
}

const personalMenu = (page: Page) => page.getByRole("button", { name: /^Personal menu/ });
const menuLabels = (page: Page) => page.locator("[role^=menuitem] > span:not(.menu-check)").allTextContents();

describe("inviting people from the web app", () => {
  test("the owner makes a member's link from the personal menu by keyboard; a newcomer signs up with it and the two talk live", async () => {
    const owner = await suite.open({ context: { permissions: ["clipboard-read", "clipboard-write"] } });
    await logInAs(owner.page, "desdemona");

    // the personal menu, by keyboard: Enter opens it with its first entry focused, Enter picks it
    await personalMenu(owner.page).focus();
    await owner.page.keyboard.press("Enter");
    await eventually(() => owner.page.evaluate(() => document.activeElement?.textContent), "Invite people");
    await owner.page.keyboard.press("Enter");
    const dialog = owner.page.getByRole("dialog", { name: "Invite people to Zulip Dev" });
    await dialog.waitFor();
    // an owner may give any role; member and ten days are chosen, default channels on
    expect(await dialog.locator(".invite-role option").allTextContents()).toEqual(["Guest", "Member", "Moderator", "Administrator", "Owner"]);
    expect(await dialog.locator(".invite-role").inputValue()).toBe("400");
    expect(await dialog.locator(".invite-expires option").allTextContents()).toEqual(["30 minutes", "1 day", "10 days (default)", "30 days", "Never"]);
    expect(await dialog.locator(".invite-expires option:checked").textContent()).toBe("10 days (default)");
    expect(await dialog.locator(".invite-defaults").isChecked()).toBe(true);
    // nothing is made until asked
    expect(await suite.s.app.db.all("SELECT id FROM invites WHERE referrer_id = ?", [suite.userId("desdemona")])).toEqual([]);

    await dialog.getByRole("button", { name: "Generate invite link" }).click();
    const field = dialog.locator(".invite-link");
    await field.waitFor();
    const link = await field.inputValue();
    // the link is on the server's external_url (the test server's is http://parley.test)
    expect(link).toMatch(/^http:\/\/parley\.test\/join\/[a-z0-9]+\/$/);
    // the new link has the focus, selected, and says when it expires (ten days on)
    expect(await owner.page.evaluate(() => document.activeElement?.className)).toBe("invite-link");
    expect(await dialog.locator(".invite-expiry").textContent()).toMatch(/^This link expires on .+\.$/);
    await owner.page.screenshot({ path: shot("invite") });

    // the server stored a multiuse invitation for a member, ten days long, with the default channels
    const key = link.split("/").at(-2)!;
    const invite = (await suite.s.app.db.get<InviteRow>("SELECT * FROM invites WHERE key = ?", [key]))!;
    expect({ multiuse: invite.is_multiuse, as: invite.invited_as, by: invite.referrer_id, defaults: invite.include_realm_default_subscriptions, revoked: invite.revoked, streams: invite.stream_ids }).toEqual({
      multiuse: 1,
      as: 400,
      by: suite.userId("desdemona"),
      defaults: 1,
      revoked: 0,
      streams: "[]",
    });
    expect(invite.expires! - invite.created).toBe(14400 * 60);
    const shownExpiry = await owner.page.evaluate(() => Date.now() / 1000);
    expect(Math.abs(invite.expires! - (shownExpiry + 14400 * 60))).toBeLessThan(60);

    // Copy puts the link on the clipboard
    await dialog.getByRole("button", { name: "Copy" }).click();
    await dialog.getByRole("button", { name: "Copied" }).waitFor();
    expect(await owner.page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await owner.page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    // a newcomer, in a browser of their own, opens the link and signs up
    const newcomer = await suite.open();
    await newcomer.page.goto(suite.base + new URL(link).pathname);
    expect(await newcomer.page.locator("h1").textContent()).toBe("Join Zulip Dev");
    await newcomer.page.fill("#email", "rosalind@zulip.com");
    await newcomer.page.fill("#full_name", "Rosalind");
    await newcomer.page.fill("#password", "as-you-like-it");
    await newcomer.page.click("button[type=submit]");
    await newcomer.page.locator(".app-shell").waitFor();
    expect(new URL(newcomer.page.url()).pathname).toBe("/");
    expect((await newcomer.context.cookies()).map((c) => c.name)).toContain("parley_session");
    // the account is a member, subscribed to the default channel only, and the link is still usable by others
    const rosalind = (await suite.s.app.db.get<{ id: number; role: number; full_name: string }>("SELECT id, role, full_name FROM users WHERE email = ?", ["rosalind@zulip.com"]))!;
    expect({ role: rosalind.role, name: rosalind.full_name }).toEqual({ role: 400, name: "Rosalind" });
    const subscribed = await suite.s.app.db.all<{ stream_id: number }>("SELECT stream_id FROM subscriptions WHERE user_id = ? AND active = 1", [rosalind.id]);
    expect(subscribed.map((x) => x.stream_id)).toEqual([welcome]);
    expect((await suite.s.app.db.get<{ revoked: number }>("SELECT revoked FROM invites WHERE id = ?", [invite.id]))!.revoked).toBe(0);
    // her page is her own, with the default channel in the sidebar; as a member she may invite by email (Zulip's default)
    await newcomer.page.locator(".channel-row a", { hasText: "welcome" }).waitFor();
    expect(await newcomer.page.locator(".channel-row a", { hasText: "back office" }).count()).toBe(0);
    await personalMenu(newcomer.page).click();
    expect(await menuLabels(newcomer.page)).toContain("Invite people");
    await newcomer.page.keyboard.press("Escape");

    // the owner sees her arrive in the people list, live, and writes to her
    const person = owner.page.locator(".person-row", { hasText: "Rosalind" });
    await person.waitFor();
    await person.click();
    await owner.page.locator(".view-title", { hasText: "Rosalind" }).waitFor();
    await owner.page.fill(".compose-text", "Welcome to the forest, Rosalind.");
    await owner.page.press(".compose-text", "Control+Enter");
    await row(owner.page, "Welcome to the forest").waitFor();

    // she sees it arrive live and answers from the conversation
    const convo = newcomer.page.locator(".dm-row", { hasText: "Desdemona" });
    await convo.locator(".unread-count", { hasText: "1" }).waitFor();
    await convo.click();
    await row(newcomer.page, "Welcome to the forest").waitFor();
    expect(await row(newcomer.page, "Welcome to the forest").locator(".sender-name").textContent()).toBe("Desdemona");
    await newcomer.page.fill(".compose-text", "All the world's a stage.");
    await newcomer.page.press(".compose-text", "Control+Enter");
    await row(owner.page, "All the world's a stage.").waitFor();
    expect(await row(owner.page, "All the world's a stage.").locator(".sender-name").textContent()).toBe("Rosalind");

    // the server stored both as one direct conversation between the two
    const pair = [suite.userId("desdemona"), rosalind.id].sort((a, b) => a - b).join(",");
    const stored = await suite.s.app.db.all<{ sender_id: number; content: string; dm_key: string }>(
      "SELECT sender_id, content, dm_key FROM messages WHERE content IN ('Welcome to the forest, Rosalind.', 'All the world''s a stage.') ORDER BY id",
    );
    expect(stored).toEqual([
      { sender_id: suite.userId("desdemona"), content: "Welcome to the forest, Rosalind.", dm_key: pair },
      { sender_id: rosalind.id, content: "All the world's a stage.", dm_key: pair },
    ]);
    expect([...owner.errors, ...newcomer.errors]).toEqual([]);
  }, 40_000);

  test("an administrator at phone width is offered roles up to administrator, and the dialog fits the screen", async () => {
    // (axe is injected into the page for the accessibility check: the page's own CSP would refuse it)
    const { page, errors } = await suite.open({ width: 390, height: 780, context: { bypassCSP: true } });
    await logInAs(page, "iago");
    await personalMenu(page).click();
    const entry = page.getByRole("menuitem", { name: "Invite people" });
    const box = (await entry.boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await entry.click();
    const dialog = page.getByRole("dialog", { name: "Invite people to Zulip Dev" });
    await dialog.waitFor();
    expect(await dialog.locator(".invite-role option").allTextContents()).toEqual(["Guest", "Member", "Moderator", "Administrator"]);
    await dialog.locator(".invite-role").selectOption({ label: "Guest" });
    await dialog.locator(".invite-expires").selectOption({ label: "Never" });
    await dialog.locator(".invite-defaults").uncheck();
    await dialog.getByRole("button", { name: "Generate invite link" }).click();
    const link = await dialog.locator(".invite-link").inputValue();
    expect(await dialog.locator(".invite-expiry").textContent()).toBe("This link never expires.");
    const key = link.split("/").at(-2)!;
    const invite = (await suite.s.app.db.get<InviteRow>("SELECT * FROM invites WHERE key = ?", [key]))!;
    expect({ as: invite.invited_as, by: invite.referrer_id, expires: invite.expires, defaults: invite.include_realm_default_subscriptions }).toEqual({
      as: 600,
      by: suite.userId("iago"),
      expires: null,
      defaults: 0,
    });
    const shown = (await dialog.boundingBox())!;
    expect(shown.x >= 0 && shown.x + shown.width <= 390).toBe(true);
    const copy = (await dialog.getByRole("button", { name: "Copy" }).boundingBox())!;
    expect(copy.x + copy.width <= 390).toBe(true);
    await page.screenshot({ path: shot("invite-phone") });
    expect(await dialogViolations(page)).toEqual([]);
    // changing a choice asks for a new link
    await dialog.locator(".invite-role").selectOption({ label: "Member" });
    expect(await dialog.locator(".invite-link").count()).toBe(0);
    expect(errors).toEqual([]);
  }, 30_000);

  test("a plain member is offered email invitations by default, links only once the organization lets members make them, and nothing when neither", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet");
    const groups = (await suite.s.users.desdemona.client.get("/user_groups")).success().user_groups as { id: number; name: string }[];
    const members = groups.find((g) => g.name === "role:members")!.id;
    const admins = groups.find((g) => g.name === "role:administrators")!.id;
    const offered = async () => {
      await personalMenu(page).click();
      const labels = await menuLabels(page);
      await page.keyboard.press("Escape");
      return labels.includes("Invite people");
    };
    const tabs = async () => {
      await personalMenu(page).click();
      await page.getByRole("menuitem", { name: "Invite people" }).click();
      const dialog = page.getByRole("dialog", { name: "Invite people to Zulip Dev" });
      await dialog.waitFor();
      const names = await dialog.getByRole("tab").allTextContents();
      const roles = await dialog.locator(".invite-role, .invite-email-role").first().locator("option").allTextContents();
      await page.keyboard.press("Escape");
      return { names: names.map((n) => n.replace(/ \(\d+\)$/, "")), roles };
    };
    // by default: email invitations only, as a member or guest
    expect(await offered()).toBe(true);
    expect(await tabs()).toEqual({ names: ["By email", "Invitations"], roles: ["Guest", "Member"] });

    try {
      // links too, once the owner lets members make them: the realm event reaches hamlet's open page
      (await suite.s.users.desdemona.client.patch("/realm", { create_multiuse_invite_group: { new: members } } as never)).success();
      await eventually(async () => (await tabs()).names.length, 3);
      expect(await tabs()).toEqual({ names: ["By link", "By email", "Invitations"], roles: ["Guest", "Member"] });
      // neither: the entry goes away
      (await suite.s.users.desdemona.client.patch("/realm", { create_multiuse_invite_group: { new: admins }, can_invite_users_group: { new: admins } } as never)).success();
      await eventually(offered, false);
    } finally {
      (await suite.s.users.desdemona.client.patch("/realm", { create_multiuse_invite_group: { new: admins }, can_invite_users_group: { new: members } } as never)).success();
    }
    await eventually(offered, true);
    expect(errors).toEqual([]);
  }, 30_000);
});
