/**
 * Archived channels in a real browser: an administrator archives a channel through the API and it
 * leaves another member's sidebar live; Browse channels lists it only under Archived, read-only for a
 * member, with Unarchive for an administrator, which brings it back to the member's sidebar.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { hashPassword } from "../../src/actions/users";
import { createChannel } from "../helpers/channels";
import { browserSuite, eventually } from "./helpers";

let ramparts = 0;
const w = browserSuite(async (s) => {
  await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword("iago-pass"), s.users.iago.id]);
  ramparts = await createChannel(s, "hamlet", "ramparts", { subscribers: ["othello", "iago"], description: "Where the ghost walks" });
  await createChannel(s, "hamlet", "battlements", { subscribers: ["othello"] });
});

const sidebarChannels = (page: Page) => page.locator(".channel-row .nav-label").allTextContents();
const browseNames = (page: Page) => page.locator(".browse-channel-name").allTextContents();
const archivedInStore = async () => (await w.s.app.db.get<{ is_archived: number }>("SELECT is_archived FROM streams WHERE id = ?", [ramparts]))!.is_archived;

describe("archived channels in the browser", () => {
  test("archived through the API, a channel leaves a member's sidebar live and is listed only under Archived, read-only; an administrator unarchives it", async () => {
    const othello = await w.open();
    await w.logIn(othello.page, "othello");
    await eventually(() => sidebarChannels(othello.page), ["battlements", "ramparts"]);

    (await w.s.users.iago.client.delete(`/streams/${ramparts}`)).success();
    await eventually(() => sidebarChannels(othello.page), ["battlements"]);
    expect(await archivedInStore()).toBe(1);

    // Browse channels: gone from "All channels", there under "Archived", with no Subscribe or Unarchive for a member
    await othello.page.goto(`${w.base}/#channels/all`);
    await othello.page.locator(".browse-list").waitFor();
    expect(await browseNames(othello.page)).toEqual(["battlements"]);
    await othello.page.getByRole("link", { name: "Archived", exact: true }).click();
    await eventually(() => new URL(othello.page.url()).hash, "#channels/archived");
    await eventually(() => browseNames(othello.page), ["ramparts"]);
    const card = othello.page.locator(".browse-channel", { hasText: "ramparts" });
    expect(await card.locator(".browse-channel-tag").textContent()).toBe("Archived");
    expect(await card.getByRole("button").count()).toBe(0);
    // still readable from there
    expect(await card.getByRole("link", { name: "ramparts", exact: true }).count()).toBe(1);

    // an administrator unarchives it from the same tab; the member's sidebar gets it back live
    const iago = await w.open();
    await iago.page.goto(`${w.base}/#channels/archived`);
    await iago.page.fill("#login-email", "iago@zulip.com");
    await iago.page.fill("#login-password", "iago-pass");
    await iago.page.click(".login-form button[type=submit]");
    await iago.page.getByRole("button", { name: "Unarchive #ramparts" }).click();
    await eventually(() => archivedInStore(), 0);
    await eventually(() => browseNames(othello.page), []);
    await othello.page.locator(".overview-empty-title", { hasText: "No archived channels." }).waitFor();
    await eventually(() => sidebarChannels(othello.page), ["battlements", "ramparts"]);
    expect(othello.errors).toEqual([]);
    expect(iago.errors).toEqual([]);
  }, 40_000);
});
