/**
 * A channel's settings and user groups in the web app, each journey asserting what the person sees and
 * what the server stored: a channel renamed, described, given a member, then archived (it leaves that
 * member's sidebar), its personal settings, and a user group created with members.
 */
import { describe, expect, test } from "bun:test";
import { browserSuite, eventually, shot } from "./helpers";
import { createChannel } from "../helpers/channels";

let rampart = 0;
const suite = browserSuite(async (s) => {
  rampart = await createChannel(s, "hamlet", "Rampart", { description: "Where the ghost walks" });
});

const channelRow = (id: number) => suite.s.app.db.get<{ name: string; description: string; is_archived: number }>("SELECT name, description, is_archived FROM streams WHERE id = ?", [id]);
const subscribed = async (streamId: number, userId: number) =>
  !!(await suite.s.app.db.get("SELECT 1 FROM subscriptions WHERE stream_id = ? AND user_id = ? AND active = 1", [streamId, userId]));

describe("a channel's settings", () => {
  test("its administrator renames it, changes its description, adds a member, then archives it, and it leaves that member's sidebar", async () => {
    const member = await suite.open();
    await suite.logIn(member.page, "othello");
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet");
    // from the channel's menu in the sidebar
    const channelRowInSidebar = page.locator(".channel-row", { hasText: "Rampart" });
    await channelRowInSidebar.hover();
    await channelRowInSidebar.getByRole("button", { name: "Channel actions for Rampart" }).click();
    await page.getByRole("menuitem", { name: "Channel settings" }).click();
    expect(new URL(page.url()).hash).toBe(`#channels/${rampart}/Rampart/general`);

    const name = page.getByLabel("Channel name");
    await name.fill("Battlements");
    await page.locator("form", { has: name }).getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: "Battlements" }).waitFor();
    const description = page.getByLabel("Description");
    await description.fill("High and cold");
    await page.locator("form", { has: description }).getByRole("button", { name: "Save" }).click();
    await eventually(async () => (await channelRow(rampart))!.description, "High and cold");
    expect((await channelRow(rampart))!.name).toBe("Battlements");
    await page.screenshot({ path: shot("settings-channel") });

    await page.getByRole("link", { name: "Subscribers" }).click();
    await page.getByLabel("Add subscribers").fill("Othello");
    await page.getByRole("option", { name: /Othello/ }).click();
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByRole("list", { name: "Subscribers" }).getByText("Othello, the Moor of Venice").waitFor();
    expect(await subscribed(rampart, suite.userId("othello"))).toBe(true);
    const sidebar = member.page.locator("#left-sidebar");
    await sidebar.getByText("Battlements").waitFor();
    await page.screenshot({ path: shot("settings-channel-subscribers") });

    await page.getByRole("link", { name: "General" }).click();
    await page.getByRole("button", { name: "Archive channel" }).click();
    await page.getByRole("dialog", { name: "Archive #Battlements?" }).getByRole("button", { name: "Archive" }).click();
    await eventually(async () => (await channelRow(rampart))!.is_archived, 1);
    await sidebar.getByText("Battlements").waitFor({ state: "detached" });
    expect(errors).toEqual([]);
  }, 30_000);

  test("a member who may not administer it sees its settings read-only, and the server refuses a rename", async () => {
    const id = await createChannel(suite.s, "hamlet", "Parapet", { subscribers: ["othello"] });
    const { page } = await suite.open();
    await suite.logIn(page, "othello", `/#channels/${id}/Parapet/general`);
    await page.getByText("Only this channel's administrators can change its settings.").waitFor();
    expect(await page.getByLabel("Channel name").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Archive channel" }).count()).toBe(0);
    const refused = await suite.s.users.othello.client.patch(`/streams/${id}`, { new_name: "Mine" });
    expect(refused.json.msg).toBe("You do not have permission to administer this channel.");
    expect((await channelRow(id))!.name).toBe("Parapet");
  }, 20_000);

  test("its administrator removes a member, who leaves the list, and the subscription ends on the server", async () => {
    const id = await createChannel(suite.s, "hamlet", "Gatehouse", { subscribers: ["othello"] });
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", `/#channels/${id}/Gatehouse/subscribers`);
    const list = page.getByRole("list", { name: "Subscribers" });
    await list.getByText("Othello, the Moor of Venice").waitFor();
    await page.getByRole("button", { name: "Unsubscribe Othello, the Moor of Venice" }).click();
    await list.getByText("Othello, the Moor of Venice").waitFor({ state: "detached" });
    expect(await subscribed(id, suite.userId("othello"))).toBe(false);
    expect(await subscribed(id, suite.userId("hamlet"))).toBe(true);
    expect(errors).toEqual([]);
  }, 20_000);

  test("a refused rename shows the server's reason beside the field, and nothing changes", async () => {
    await createChannel(suite.s, "hamlet", "Tower");
    const moat = await createChannel(suite.s, "hamlet", "Moat");
    const { page } = await suite.open();
    await suite.logIn(page, "hamlet", `/#channels/${moat}/Moat/general`);
    const name = page.getByLabel("Channel name");
    await name.fill("Tower");
    await page.locator("form", { has: name }).getByRole("button", { name: "Save" }).click();
    const alert = page.locator("form", { has: name }).getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/already exists/);
    expect(await name.inputValue()).toBe("Moat");
    expect((await channelRow(moat))!.name).toBe("Moat");
  }, 20_000);

  test("the personal tab mutes the channel and sets its own notification switches, stored on the subscription", async () => {
    const id = await createChannel(suite.s, "hamlet", "Keep");
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", `/#channels/${id}/Keep/personal`);
    // a switch shows the stored value until the server's event comes back, so it is clicked, then awaited
    await page.getByRole("switch", { name: "Mute channel" }).click();
    await eventually(() => page.getByRole("switch", { name: "Mute channel" }).isChecked(), true);
    await page.getByRole("switch", { name: "Email notifications" }).click();
    await eventually(() => page.getByRole("switch", { name: "Email notifications" }).isChecked(), true);
    const sub = () => suite.s.app.db.get<{ is_muted: number; email_notifications: number | null }>("SELECT is_muted, email_notifications FROM subscriptions WHERE stream_id = ? AND user_id = ?", [id, suite.userId("hamlet")]);
    await eventually(async () => ({ ...(await sub()) }), { is_muted: 1, email_notifications: 1 });
    await eventually(() => page.getByRole("switch", { name: "Mute channel" }).isChecked(), true);
    await page.screenshot({ path: shot("settings-channel-personal") });
    expect(errors).toEqual([]);
  }, 20_000);
});

describe("user groups", () => {
  test("a member creates a group with members; it is stored and listed, and its members are shown", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet");
    await page.getByRole("button", { name: /^Personal menu/ }).click();
    await page.getByRole("menuitem", { name: "User groups" }).click();
    await page.getByRole("button", { name: "Create user group" }).click();
    const dialog = page.getByRole("dialog", { name: "Create user group" });
    await dialog.getByLabel("Name").fill("Players");
    await dialog.getByLabel("Description").fill("They act");
    await dialog.getByLabel("Members").fill("Othello");
    await page.getByRole("option", { name: /Othello/ }).click();
    await dialog.getByRole("button", { name: "Create" }).click();
    await dialog.waitFor({ state: "detached" });
    const link = page.getByRole("link", { name: "Players" });
    await link.waitFor();
    const g = await suite.s.app.db.get<{ id: number; description: string }>("SELECT id, description FROM user_groups WHERE name = 'Players'");
    expect(g!.description).toBe("They act");
    const members = (await suite.s.app.db.all<{ user_id: number }>("SELECT user_id FROM user_group_members WHERE group_id = ? ORDER BY user_id", [g!.id])).map((r) => r.user_id);
    expect(members).toEqual([suite.userId("hamlet"), suite.userId("othello")].sort((a, b) => a - b));
    await page.screenshot({ path: shot("settings-groups") });
    await link.click();
    await page.getByRole("link", { name: "Members" }).click();
    await page.getByRole("list", { name: "Members" }).getByText("Othello, the Moor of Venice").waitFor();
    expect(errors).toEqual([]);
  }, 30_000);
});
