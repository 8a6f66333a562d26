/**
 * The invitation links already made, in the invite dialog's "Invitations" tab: the owner makes two links,
 * sees both listed (role, maker, expiry), revokes one after confirming; the server's row is revoked, that
 * link shows "Invitation no longer valid" (410) in a fresh browser and the other still signs someone up.
 * A member allowed to invite sees only their own links, is not offered the owner's, and the server
 * refuses them; the owner's open list hears of the member's new link live.
 */
import { describe, expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { hashPassword } from "../../src/actions/users";
import type { InviteRow } from "../../src/store/invites";
import { browserSuite, dialogViolations, eventually, shot } from "./helpers";

const suite = browserSuite(async (s) => {
  await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword("desdemona-pass"), s.users.desdemona.id]);
});

async function logInOwner(page: Page) {
  await page.goto(suite.base + "/");
  await page.fill("#login-email", "desdemona@zulip.com");
  await page.fill("#login-password", "desdemona-pass");
  await page.click(".login-form button[type=submit]");
  await page.locator(".app-shell").waitFor();
}

async function openInviteDialog(page: Page) {
  await page.getByRole("button", { name: /^Personal menu/ }).click();
  await page.getByRole("menuitem", { name: "Invite people" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite people to Zulip Dev" });
  await dialog.waitFor();
  return dialog;
}

/** The links a dialog's list shows, in order (the fields' values: Preact sets them as properties, not attributes). */
const linksShown = (dialog: Locator) => dialog.locator(".invite-entry .invite-link").evaluateAll((f) => f.map((x) => (x as HTMLInputElement).value));

const inviteByKey = (link: string) => suite.s.app.db.get<InviteRow>("SELECT * FROM invites WHERE key = ?", [link.split("/").at(-2)!]);

describe("the invitation links already made", () => {
  test("the owner lists the two links she made, revokes one after confirming, and only the other still signs people up", async () => {
    const { page, errors } = await suite.open();
    await logInOwner(page);
    const dialog = await openInviteDialog(page);
    // the generator's first field has the focus; the list is a second tab, empty so far
    expect(await page.evaluate(() => document.activeElement?.className)).toBe("invite-role");
    const listTab = dialog.getByRole("tab", { name: /^Invitations/ });
    const newTab = dialog.getByRole("tab", { name: "By link" });
    expect(await newTab.getAttribute("aria-selected")).toBe("true");
    await listTab.click();
    await dialog.getByText("No invitations are active.").waitFor();
    expect(await listTab.textContent()).toBe("Invitations (0)");

    // a member's link for ten days, then a guest's that never expires: each appears in the list at once
    await newTab.click();
    await dialog.getByRole("button", { name: "Generate invite link" }).click();
    const memberLink = await dialog.locator(".invite-link").inputValue();
    await eventually(() => listTab.textContent(), "Invitations (1)");
    await dialog.locator(".invite-role").selectOption({ label: "Guest" });
    await dialog.locator(".invite-expires").selectOption({ label: "Never" });
    await dialog.getByRole("button", { name: "Generate invite link" }).click();
    const guestLink = await dialog.locator(".invite-link").inputValue();
    expect(guestLink).not.toBe(memberLink);
    await eventually(() => listTab.textContent(), "Invitations (2)");

    // by keyboard: the arrows move between the three tabs, wrapping round, and show the one reached
    await newTab.focus();
    await page.keyboard.press("ArrowRight");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("invite-tab-email");
    await page.keyboard.press("ArrowLeft");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("invite-tab-new");
    await page.keyboard.press("ArrowLeft");
    expect(await listTab.getAttribute("aria-selected")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("invite-tab-list");
    const entries = dialog.locator(".invite-entry");
    await eventually(() => entries.count(), 2);
    // newest first: the guest's, never expiring, then the member's, expiring in ten days
    expect(await entries.locator(".invite-entry-role").allTextContents()).toEqual(["Guest link", "Member link"]);
    expect(await linksShown(dialog)).toEqual([guestLink, memberLink]);
    expect(await entries.nth(0).locator(".invite-entry-expiry").textContent()).toBe("Never expires");
    const memberRow = (await inviteByKey(memberLink))!;
    const expectedExpiry = await page.evaluate((t) => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short", hourCycle: "h12" }).format(t * 1000), memberRow.expires!);
    expect(await entries.nth(1).locator(".invite-entry-expiry").textContent()).toBe(`Expires on ${expectedExpiry}`);
    expect(await entries.locator(".invite-entry-made").allTextContents()).toEqual([expect.stringMatching(/^Made by you on .+/), expect.stringMatching(/^Made by you on .+/)]);
    expect(await entries.getByRole("button", { name: "Revoke" }).count()).toBe(2);
    await page.screenshot({ path: shot("invite-list") });

    // Revoke asks first; Escape (or "Keep it") keeps the link and the dialog
    const member = entries.filter({ hasText: "Member link" });
    await member.getByRole("button", { name: "Revoke" }).click();
    const question = member.getByRole("group", { name: "Revoke this link?" });
    expect(await question.textContent()).toContain("Revoke the member link you made? No one can sign up with it any more.");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Revoke link");
    await page.keyboard.press("Escape");
    await question.waitFor({ state: "detached" });
    expect(await dialog.isVisible()).toBe(true);
    expect((await inviteByKey(memberLink))!.revoked).toBe(0);

    // confirmed: the entry goes, the count follows, the server's row is revoked
    await member.getByRole("button", { name: "Revoke" }).click();
    await question.getByRole("button", { name: "Revoke link" }).click();
    await member.waitFor({ state: "detached" });
    expect(await entries.locator(".invite-entry-role").allTextContents()).toEqual(["Guest link"]);
    expect(await listTab.textContent()).toBe("Invitations (1)");
    expect(await dialog.getByRole("status").last().textContent()).toBe("The member link was revoked.");
    expect({ revoked: (await inviteByKey(memberLink))!.revoked, guest: (await inviteByKey(guestLink))!.revoked }).toEqual({ revoked: 1, guest: 0 });
    expect(await dialog.locator(".dialog-error").count()).toBe(0);

    // the revoked link, opened in a fresh browser: Parley's "no longer valid" page, 410
    const stranger = await suite.open();
    const gone = await stranger.page.goto(suite.base + new URL(memberLink).pathname);
    expect(gone!.status()).toBe(410);
    expect(await stranger.page.locator("h1").textContent()).toBe("Invitation no longer valid");
    expect(await stranger.page.locator("#email").count()).toBe(0);

    // the other link still signs someone up, as a guest
    await stranger.page.goto(suite.base + new URL(guestLink).pathname);
    expect(await stranger.page.locator("h1").textContent()).toBe("Join Zulip Dev");
    await stranger.page.fill("#email", "viola@zulip.com");
    await stranger.page.fill("#full_name", "Viola");
    await stranger.page.fill("#password", "twelfth-night");
    await stranger.page.click("button[type=submit]");
    await stranger.page.locator(".app-shell").waitFor();
    expect(await suite.s.app.db.get("SELECT role, full_name FROM users WHERE email = ?", ["viola@zulip.com"])).toEqual({ role: 600, full_name: "Viola" });
    expect([...errors, ...stranger.errors]).toEqual([]);
  }, 40_000);

  test("a member allowed to invite sees only their own links and is not offered the owner's, which the server refuses them; the owner's open list hears of the member's link", async () => {
    const groups = (await suite.s.users.desdemona.client.get("/user_groups")).success().user_groups as { id: number; name: string }[];
    const members = groups.find((g) => g.name === "role:members")!.id;
    const admins = groups.find((g) => g.name === "role:administrators")!.id;
    (await suite.s.users.desdemona.client.patch("/realm", { create_multiuse_invite_group: { new: members } } as never)).success();
    try {
      // the owner has a link of her own (left from the first journey, or made here) and her list open
      const ownerLink = (await suite.s.users.desdemona.client.post("/invites/multiuse", { invite_as: 400, invite_expires_in_minutes: 60 } as never)).success().invite_link as string;
      const ownerInvite = (await inviteByKey(ownerLink))!;
      const owner = await suite.open();
      await logInOwner(owner.page);
      const ownerDialog = await openInviteDialog(owner.page);
      await ownerDialog.getByRole("tab", { name: /^Invitations/ }).click();
      const ownerEntries = ownerDialog.locator(".invite-entry");
      await ownerEntries.first().waitFor();
      const ownerCount = await ownerEntries.count();
      expect(await linksShown(ownerDialog)).toContain(ownerLink);

      const { page, errors } = await suite.open();
      await suite.logIn(page, "hamlet");
      const dialog = await openInviteDialog(page);
      const listTab = dialog.getByRole("tab", { name: /^Invitations/ });
      await listTab.click();
      // none of the owner's links: the member has made none yet
      await dialog.getByText("No invitations are active.").waitFor();
      expect(await dialog.getByText("The invitations you made that still work.").count()).toBe(1);

      await dialog.getByRole("tab", { name: "By link" }).click();
      await dialog.getByRole("button", { name: "Generate invite link" }).click();
      const mine = await dialog.locator(".invite-link").inputValue();
      await listTab.click();
      const entries = dialog.locator(".invite-entry");
      await eventually(() => entries.count(), 1);
      expect(await linksShown(dialog)).toEqual([mine]);
      expect(await entries.locator(".invite-entry-made").textContent()).toMatch(/^Made by you on /);
      expect(await entries.getByRole("button", { name: "Revoke" }).count()).toBe(1);

      // the owner's open list shows the member's new link (invites_changed), with Revoke offered to her
      await eventually(() => ownerEntries.count(), ownerCount + 1);
      const hamletsEntry = ownerEntries.filter({ hasText: "Made by King Hamlet on" });
      expect(await hamletsEntry.locator(".invite-link").inputValue()).toBe(mine);
      expect(await hamletsEntry.getByRole("button", { name: "Revoke" }).count()).toBe(1);

      // the server refuses the member the owner's link, and it stays
      (await suite.s.users.hamlet.client.delete(`/invites/multiuse/${ownerInvite.id}`)).error("Must be an organization administrator");
      expect((await inviteByKey(ownerLink))!.revoked).toBe(0);
      // the member's list never showed it; the owner's still does
      expect(await linksShown(dialog)).toEqual([mine]);
      expect(await linksShown(ownerDialog)).toContain(ownerLink);
      expect([...errors, ...owner.errors]).toEqual([]);
    } finally {
      (await suite.s.users.desdemona.client.patch("/realm", { create_multiuse_invite_group: { new: admins } } as never)).success();
    }
  }, 40_000);

  test("at phone width the list and its question fit the screen with nothing serious for axe, and a refused revocation is said and the list fetched again", async () => {
    // (axe is injected into the page for the check: the page's own CSP would refuse it)
    (await suite.s.users.desdemona.client.post("/invites/multiuse", { invite_as: 300, invite_expires_in_minutes: 1440 } as never)).success();
    const { page, errors } = await suite.open({ width: 390, height: 780, context: { bypassCSP: true } });
    await logInOwner(page);
    const dialog = await openInviteDialog(page);
    await dialog.getByRole("tab", { name: /^Invitations/ }).click();
    const entry = dialog.locator(".invite-entry").filter({ hasText: "Moderator link" });
    await entry.getByRole("button", { name: "Revoke" }).click();
    await entry.getByRole("group", { name: "Revoke this link?" }).waitFor();
    for (const part of [dialog, entry, entry.getByRole("button", { name: "Copy" }), entry.getByRole("button", { name: "Revoke link" })]) {
      const box = (await part.boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= 390).toBe(true);
    }
    await page.screenshot({ path: shot("invite-list-phone") });
    expect(await dialogViolations(page)).toEqual([]);
    await entry.getByRole("button", { name: "Keep it" }).click();
    // the focus goes back to the entry's Revoke button
    await eventually(() => page.evaluate(() => document.activeElement?.textContent), "Revoke");

    // revoked meanwhile behind the list's back (no event): the server's refusal is said on the dialog's
    // error line and the list is fetched again, without the stale link
    const link = await entry.locator(".invite-link").inputValue();
    await suite.s.app.db.run("UPDATE invites SET revoked = 1 WHERE key = ?", [link.split("/").at(-2)!]);
    await entry.getByRole("button", { name: "Revoke" }).click();
    await entry.getByRole("button", { name: "Revoke link" }).click();
    expect(await dialog.getByRole("alert").textContent()).toBe("Could not revoke the link: Invitation has already been revoked");
    await entry.waitFor({ state: "detached" });
    expect(await linksShown(dialog)).not.toContain(link);
    expect(errors).toEqual([]);
  }, 30_000);
});
