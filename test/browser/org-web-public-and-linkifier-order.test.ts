/**
 * Two organization settings as people see them: the switch for web-public channels (Zulip's
 * enable_spectator_access), which the owner saves and a member cannot change, and which the owner's
 * server-wide switch turns off; and a linkifier dragged to a new place, stored in that order.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { browserSuite, eventually } from "./helpers";
import { hashPassword } from "../../src/actions/users";
import type { CastName } from "../helpers/server";

const suite = browserSuite(async (s) => {
  for (const who of ["desdemona", "iago"] as const) await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword(`${who}-pass`), s.users[who].id]);
});

async function logIn(page: Page, who: CastName, path: string) {
  await page.goto(suite.base + path);
  await page.fill("#login-email", `${who}@zulip.com`);
  await page.fill("#login-password", `${who}-pass`);
  await page.click(".login-form button[type=submit]");
  await page.locator(".app-shell").waitFor();
}

const overlay = (page: Page) => page.getByRole("dialog", { name: "Settings" });
const stored = async () => JSON.parse((await suite.s.app.db.get<{ settings: string }>("SELECT settings FROM realm"))!.settings) as Record<string, unknown>;
const SPECTATORS = "Allow creating web-public channels (visible to anyone on the Internet)";

describe("web-public channels", () => {
  test("the owner turns spectator access on under Channel permissions; a member's page shows it changed but offers no control", async () => {
    const member = await suite.open();
    await suite.logIn(member.page, "hamlet", "/#organization/organization-permissions");
    const memberSwitch = overlay(member.page).getByRole("switch", { name: SPECTATORS });
    expect(await memberSwitch.isChecked()).toBe(false);
    expect(await memberSwitch.isDisabled()).toBe(true);

    const { page, errors } = await suite.open();
    await logIn(page, "desdemona", "/#organization/organization-permissions");
    const channels = overlay(page).getByRole("region", { name: "Channel permissions" });
    const sw = channels.getByRole("switch", { name: SPECTATORS });
    expect(await sw.isDisabled()).toBe(false);
    await sw.click();
    await eventually(() => sw.isChecked(), true);
    expect((await stored()).enable_spectator_access).toBe(true);
    // beside it, who may create web-public channels (Zulip's grouping)
    await channels.getByText("Who can create web-public channels").waitFor();
    // the member's page follows through the realm event, still without a control
    await eventually(() => memberSwitch.isChecked(), true);
    expect(await memberSwitch.isDisabled()).toBe(true);
    // and the server refuses the member as the page says
    const refused = await suite.s.users.hamlet.client.patch("/realm", { enable_spectator_access: false });
    expect(refused.status).toBe(400);
    expect((await stored()).enable_spectator_access).toBe(true);
    expect(errors).toEqual([]);
    expect(member.errors).toEqual([]);
  }, 25_000);

  test("the owner turns web-public channels off for the server on the Server page; the spectator switch then says why it is off", async () => {
    const { page, errors } = await suite.open();
    await logIn(page, "desdemona", "/#organization/server");
    const server = overlay(page).getByRole("region", { name: "Reading without an account" });
    const all = server.getByRole("switch", { name: "Allow web-public channels on this server" });
    await eventually(() => all.isChecked(), true);
    await all.click();
    await eventually(() => all.isChecked(), false);
    expect((await stored()).web_public_streams_enabled).toBe(false);
    const users = server.getByRole("switch", { name: "Let anyone list the organization's users without logging in" });
    await users.click();
    await eventually(() => users.isChecked(), true);
    expect((await stored()).allow_public_access).toBe(true);
    expect((await fetch(`${suite.base}/api/v1/users`)).status).toBe(200);

    await page.evaluate(() => (location.hash = "#organization/organization-permissions"));
    const sw = overlay(page).getByRole("switch", { name: SPECTATORS });
    // on from the test before, so it can still be turned off, and it says why it cannot be turned on again
    await overlay(page).getByText("Web-public channels are turned off for this server").waitFor();
    await sw.click();
    await eventually(() => sw.isChecked(), false);
    expect(await sw.isDisabled()).toBe(true);
    (await suite.s.users.desdemona.client.patch("/realm", { web_public_streams_enabled: true, allow_public_access: false })).success();
    await eventually(() => sw.isDisabled(), false);
    expect(errors).toEqual([]);
  }, 25_000);
});

describe("linkifiers", () => {
  test("an administrator drags the last linkifier to the top; the server stores that order and the list shows it", async () => {
    const ids: number[] = [];
    for (const [pattern, url] of [["A-(?P<n>[0-9]+)", "https://a.example/{n}"], ["B-(?P<n>[0-9]+)", "https://b.example/{n}"], ["C-(?P<n>[0-9]+)", "https://c.example/{n}"]] as const) {
      ids.push((await suite.s.users.iago.client.post("/realm/filters", { pattern, url_template: url })).success().id);
    }
    const { page, errors } = await suite.open();
    await logIn(page, "iago", "/#organization/linkifier-settings");
    const rows = overlay(page).locator(".linkifier-row");
    await eventually(() => overlay(page).locator(".linkifier-pattern").allTextContents(), ["A-(?P<n>[0-9]+)", "B-(?P<n>[0-9]+)", "C-(?P<n>[0-9]+)"]);
    await rows.nth(2).locator(".drag-handle").dragTo(rows.nth(0));
    const order = async () => (await suite.s.app.db.all<{ id: number }>('SELECT id FROM linkifiers ORDER BY "order", id')).map((r) => r.id);
    await eventually(order, [ids[2], ids[0], ids[1]]);
    await eventually(() => overlay(page).locator(".linkifier-pattern").allTextContents(), ["C-(?P<n>[0-9]+)", "A-(?P<n>[0-9]+)", "B-(?P<n>[0-9]+)"]);
    // the keyboard's buttons still move it back down
    await overlay(page).getByRole("button", { name: "Move C-(?P<n>[0-9]+) down" }).click();
    await eventually(order, [ids[0], ids[2], ids[1]]);
    expect(errors).toEqual([]);
  }, 25_000);
});
