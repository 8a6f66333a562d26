/**
 * Channels in a real browser, starting from an organization with none: a person creates a private
 * channel with someone in it and a public one, the other sees them appear live; a third person browses
 * the organization's channels, joins the public one, writes in it and leaves. And the "no" cases: a
 * guest and, once the organization keeps channel creation to administrators, a member see no way to
 * create a channel; a private channel is not listed to those outside it. Each step checks what the
 * person sees and what the server stored. Screenshots land in /tmp/parley-web-*.png.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { hashPassword } from "../../src/actions/users";
import { reloadRealm } from "../../src/app";
import type { CastName } from "../helpers/server";
import { browserSuite, eventually, row, shot } from "./helpers";

const w = browserSuite(async (s) => {
  for (const who of ["cordelia", "polonius"] as const) {
    await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword(`${who}-pass`), s.users[who].id]);
  }
});

const id = (who: CastName) => w.s.users[who].id;

/** Logs anyone of the cast in through the login page (hamlet, othello, cordelia and polonius have passwords). */
async function logIn(page: Page, who: CastName, path = "/") {
  await page.goto(w.base + path);
  await page.fill("#login-email", `${who}@zulip.com`);
  await page.fill("#login-password", `${who}-pass`);
  await page.click(".login-form button[type=submit]");
  await page.locator(".app-shell").waitFor();
}

const channel = (name: string) =>
  w.s.app.db.get<{ id: number; name: string; description: string; invite_only: number; history_public_to_subscribers: number; is_web_public: number; creator_id: number }>(
    "SELECT id, name, description, invite_only, history_public_to_subscribers, is_web_public, creator_id FROM streams WHERE name = ?",
    [name],
  );
/** The people actively subscribed to a channel, by id. */
const subscribersOf = async (streamId: number) =>
  (await w.s.app.db.all<{ user_id: number }>("SELECT user_id FROM subscriptions WHERE stream_id = ? AND active = 1 ORDER BY user_id", [streamId])).map((r) => r.user_id);
const sidebarChannels = (page: Page) => page.locator(".channel-row .nav-label").allTextContents();
const createButton = (page: Page) => page.locator("#left-sidebar").getByRole("button", { name: "Create a channel" });
const dialog = (page: Page) => page.getByRole("dialog", { name: "Create a channel" });
const browseCard = (page: Page, name: string) => page.locator(".browse-channel", { has: page.locator(".browse-channel-name", { hasText: new RegExp(`^${name}$`) }) });

describe("creating, finding and joining channels in the browser", () => {
  test("hamlet creates a private channel with othello and a public one; othello sees the private one appear live; the server stored both", async () => {
    const hamlet = await w.open();
    const othello = await w.open();
    await logIn(hamlet.page, "hamlet");
    await logIn(othello.page, "othello");
    // a fresh organization: no channel yet, and the empty sidebar offers to browse them
    const empty = hamlet.page.locator(".channels-empty");
    await empty.waitFor();
    expect(await empty.textContent()).toBe("You are not subscribed to any channel yet. Browse channels");

    // the "+" beside CHANNELS opens the dialog; the privacy choices are those a member may create
    await createButton(hamlet.page).click();
    const d = dialog(hamlet.page);
    await d.waitFor();
    expect(await d.getByRole("radio").evaluateAll((els) => els.map((e) => (e.parentElement!.textContent ?? "").split("Organization")[0]!.split("Must")[0]))).toEqual([
      "Public",
      "Private, shared history",
      "Private, protected history",
    ]);
    expect(await d.getByRole("radio", { name: /^Public/ }).isChecked()).toBe(true);
    // no channel announces new ones yet: nothing to offer
    expect(await d.getByRole("checkbox").count()).toBe(0);
    // the name field has the focus; an empty name and a too long one are refused with Zulip's words
    expect(await hamlet.page.evaluate(() => document.activeElement?.className)).toContain("channel-name-input");
    await d.getByRole("button", { name: "Create" }).click();
    await eventually(() => d.getByRole("alert").textContent(), "Channel name can't be empty.");
    await d.getByLabel("Channel name").fill("x".repeat(61));
    await d.getByRole("button", { name: "Create" }).click();
    await eventually(() => d.getByRole("alert").textContent(), "Channel name too long (limit: 60 characters).");
    expect(await w.s.app.db.get("SELECT count(*) AS n FROM streams")).toEqual({ n: 0 });

    await d.getByLabel("Channel name").fill("war council");
    await d.getByLabel("Description").fill("Plans for the ramparts");
    await d.getByRole("radio", { name: /^Private, shared history/ }).check();
    const people = d.getByRole("combobox", { name: "Add people to the channel" });
    await people.fill("Oth");
    await d.getByRole("option", { name: /Othello/ }).waitFor();
    await people.press("Enter");
    await d.locator(".pill", { hasText: "Othello" }).waitFor();
    expect(await d.locator(".pill").allTextContents()).toEqual(["King Hamlet (you)", "Othello, the Moor of Venice"]);
    await hamlet.page.screenshot({ path: shot("create-channel") });
    await d.getByRole("button", { name: "Create" }).click();

    // the new channel's view opens, and it is in the sidebar with its lock
    await d.waitFor({ state: "detached" });
    const council = (await channel("war council"))!;
    expect(council).toMatchObject({ description: "Plans for the ramparts", invite_only: 1, history_public_to_subscribers: 1, is_web_public: 0, creator_id: id("hamlet") });
    await hamlet.page.waitForURL(new RegExp(`#narrow/channel/${council.id}-war-council$`));
    await hamlet.page.locator(".view-title", { hasText: "war council" }).waitFor();
    expect(await sidebarChannels(hamlet.page)).toEqual(["war council"]);
    expect(await subscribersOf(council.id)).toEqual([id("hamlet"), id("othello")].sort((a, b) => a - b));
    // othello was subscribed: it appears in his sidebar without a reload
    await eventually(() => sidebarChannels(othello.page), ["war council"]);

    // the organization announces new channels in the war council (PATCH /realm does not take this setting
    // yet, so it is set where the server keeps it); hamlet's page learns it on reload
    const settings = JSON.parse((await w.s.app.db.get<{ settings: string }>("SELECT settings FROM realm"))!.settings);
    await w.s.app.db.run("UPDATE realm SET settings = ?", [JSON.stringify({ ...settings, new_stream_announcements_stream_id: council.id })]);
    await reloadRealm(w.s.app);
    await hamlet.page.reload();
    await hamlet.page.locator(".view-title", { hasText: "war council" }).waitFor();

    // the keyboard way: Tab to the "+" button, Enter, type, Enter; a name taken is refused in the dialog
    await createButton(hamlet.page).focus();
    await hamlet.page.keyboard.press("Enter");
    await dialog(hamlet.page).waitFor();
    await hamlet.page.keyboard.type("War Council");
    await hamlet.page.keyboard.press("Enter");
    await eventually(() => dialog(hamlet.page).getByRole("alert").textContent(), "A channel with this name already exists.");
    // a public channel offers to announce itself in the war council; a private one does not
    const announce = dialog(hamlet.page).getByRole("checkbox", { name: "Announce new channel in #war council" });
    await announce.waitFor();
    expect(await announce.isChecked()).toBe(true);
    await dialog(hamlet.page).getByRole("radio", { name: /^Private, protected history/ }).check();
    expect(await announce.count()).toBe(0);
    await dialog(hamlet.page).getByRole("radio", { name: /^Public/ }).check();
    await dialog(hamlet.page).getByLabel("Channel name").fill("ramparts");
    await dialog(hamlet.page).getByLabel("Description").fill("Where the ghost walks");
    await hamlet.page.keyboard.press("Shift+Tab");
    await dialog(hamlet.page).getByLabel("Channel name").press("Enter");
    await dialog(hamlet.page).waitFor({ state: "detached" });
    const ramparts = (await channel("ramparts"))!;
    expect(ramparts).toMatchObject({ description: "Where the ghost walks", invite_only: 0, history_public_to_subscribers: 1, is_web_public: 0 });
    expect(await subscribersOf(ramparts.id)).toEqual([id("hamlet")]);
    const announced = await w.s.app.db.all<{ content: string }>("SELECT content FROM messages WHERE stream_id = ? AND topic = 'new channels'", [council.id]);
    expect(announced.map((m) => m.content)).toEqual([expect.stringContaining("#**ramparts**")]);
    await hamlet.page.waitForURL(new RegExp(`#narrow/channel/${ramparts.id}-ramparts$`));
    await eventually(() => sidebarChannels(hamlet.page), ["ramparts", "war council"]);
    // othello was not put in the public one: his sidebar keeps only the private one
    await Bun.sleep(300);
    expect(await sidebarChannels(othello.page)).toEqual(["war council"]);
    expect([...hamlet.errors, ...othello.errors]).toEqual([]);
  }, 40_000);

  test("cordelia browses channels, joins the public one, writes in it and leaves; the private one is not listed to her; hamlet sees the count change live", async () => {
    const ramparts = (await channel("ramparts"))!;
    const hamlet = await w.open();
    const cordelia = await w.open();
    await logIn(hamlet.page, "hamlet", "/#channels/all");
    await logIn(cordelia.page, "cordelia");
    // from the empty sidebar to the browse view
    await cordelia.page.locator(".channels-empty").getByRole("link", { name: "Browse channels" }).click();
    await cordelia.page.waitForURL(/#channels\/all$/);
    await cordelia.page.locator(".browse-list").waitFor();
    expect(await cordelia.page.locator(".browse-channel-name").allTextContents()).toEqual(["ramparts"]);
    const card = browseCard(cordelia.page, "ramparts");
    expect(await card.locator(".browse-channel-description").textContent()).toBe("Where the ghost walks");
    expect(await card.locator(".browse-channel-facts").textContent()).toBe("Public · 1 subscriber");
    // hamlet, inside both, sees both, the private one marked so
    expect(await hamlet.page.locator(".browse-channel-name").allTextContents()).toEqual(["ramparts", "war council"]);
    expect(await browseCard(hamlet.page, "war council").locator(".browse-channel-facts").textContent()).toBe("Private · 2 subscribers");

    // the filter
    const filter = cordelia.page.getByRole("searchbox", { name: "Filter channels" });
    await filter.fill("ghost");
    expect(await cordelia.page.locator(".browse-channel-name").allTextContents()).toEqual(["ramparts"]);
    await filter.fill("tower");
    await cordelia.page.getByText("No channels match your filter.").waitFor();
    await filter.fill("");
    await cordelia.page.screenshot({ path: shot("browse-channels") });

    // subscribing: the sidebar, the button and both counts follow the events
    await card.getByRole("button", { name: "Subscribe to #ramparts" }).click();
    await eventually(() => sidebarChannels(cordelia.page), ["ramparts"]);
    await card.getByRole("button", { name: "Unsubscribe from #ramparts" }).waitFor();
    await eventually(() => card.locator(".browse-channel-count").textContent(), "2 subscribers");
    await eventually(() => browseCard(hamlet.page, "ramparts").locator(".browse-channel-count").textContent(), "2 subscribers");
    expect(await subscribersOf(ramparts.id)).toEqual([id("hamlet"), id("cordelia")].sort((a, b) => a - b));

    // she writes in it from the channel's view
    await cordelia.page.locator(".channel-row a", { hasText: "ramparts" }).click();
    await cordelia.page.locator(".view-title", { hasText: "ramparts" }).waitFor();
    await cordelia.page.fill(".compose-topic", "watch");
    await cordelia.page.fill(".compose-text", "Who's there?");
    await cordelia.page.press(".compose-text", "Control+Enter");
    await row(cordelia.page, "Who's there?").waitFor();
    expect(await w.s.app.db.get("SELECT sender_id, stream_id, topic FROM messages WHERE content = ?", ["Who's there?"])).toEqual({ sender_id: id("cordelia"), stream_id: ramparts.id, topic: "watch" });

    // and leaves from the browse view: the sidebar drops it live; the server keeps the row inactive
    await cordelia.page.goto(w.base + "/#channels/all");
    await browseCard(cordelia.page, "ramparts").getByRole("button", { name: "Unsubscribe from #ramparts" }).click();
    await eventually(() => sidebarChannels(cordelia.page), []);
    await browseCard(cordelia.page, "ramparts").getByRole("button", { name: "Subscribe to #ramparts" }).waitFor();
    await eventually(() => browseCard(hamlet.page, "ramparts").locator(".browse-channel-count").textContent(), "1 subscriber");
    expect(await w.s.app.db.get("SELECT active FROM subscriptions WHERE stream_id = ? AND user_id = ?", [ramparts.id, id("cordelia")])).toEqual({ active: 0 });
    expect(await subscribersOf(ramparts.id)).toEqual([id("hamlet")]);
    // the "Not subscribed" tab lists it again, the "Subscribed" one is empty
    await cordelia.page.getByRole("link", { name: "Subscribed", exact: true }).click();
    await cordelia.page.waitForURL(/#channels\/subscribed$/);
    await cordelia.page.locator(".overview-empty-title", { hasText: "You are not subscribed to any channel yet." }).waitFor();
    expect([...hamlet.errors, ...cordelia.errors]).toEqual([]);
  }, 40_000);

  test("a guest sees no create button and may join nothing; a member loses the create button when the organization keeps creation to administrators", async () => {
    const polonius = await w.open();
    const othello = await w.open();
    await logIn(polonius.page, "polonius", "/#channels/all");
    await logIn(othello.page, "othello", "/#channels/all");
    await othello.page.locator(".browse-list").waitFor();
    await createButton(othello.page).waitFor();

    // the guest: no "+", no "Create a channel" in the browse view, no channel listed (none is web-public, none is his)
    await polonius.page.locator(".browse-channels .overview-empty").waitFor();
    expect(await createButton(polonius.page).count()).toBe(0);
    expect(await polonius.page.getByRole("button", { name: "Create a channel" }).count()).toBe(0);
    expect(await polonius.page.locator(".browse-channel").count()).toBe(0);
    // the server agrees: he may not create one
    const refused = await w.s.users.polonius.client.post("/users/me/subscriptions", { subscriptions: [{ name: "arras" }] });
    expect(refused.json).toMatchObject({ result: "error", msg: "Not allowed for guest users" });

    // othello sees both channels (he is in the private one); after the owner keeps creation to administrators, the buttons go away live
    expect(await othello.page.locator(".browse-channel-name").allTextContents()).toEqual(["ramparts", "war council"]);
    const admins = w.s.app.systemGroups.get("role:administrators")!;
    (await w.s.users.desdemona.client.patch("/realm", { can_create_public_channel_group: { new: admins }, can_create_private_channel_group: { new: admins } } as never)).success();
    await createButton(othello.page).waitFor({ state: "detached" });
    expect(await othello.page.getByRole("button", { name: "Create a channel" }).count()).toBe(0);
    // and after a reload too
    await othello.page.reload();
    await othello.page.locator(".browse-list").waitFor();
    expect(await createButton(othello.page).count()).toBe(0);
    const denied = await w.s.users.othello.client.post("/users/me/subscriptions", { subscriptions: [{ name: "arras" }] });
    expect(denied.json).toMatchObject({ result: "error", msg: "Insufficient permission" });
    expect([...polonius.errors, ...othello.errors]).toEqual([]);
  }, 40_000);
});
