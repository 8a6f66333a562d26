/**
 * Accessibility of the web app's main views: axe-core (from node_modules, injected into the page; no CDN)
 * runs in Debian's Chromium on each view, and no serious or critical violation is allowed. The views:
 * the login page, the inbox, recent conversations, a topic with code, quotes, mentions, an image and a
 * spoiler, a direct-message conversation, the message and personal menus open, the lightbox, the dark
 * theme, a phone-width page with its drawer open, browse channels and the create-a-channel dialog, every
 * personal settings section (light, dark, and at phone width) and the organization's settings screens.
 * Then the keyboard: the skip link and a menu's focus.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "../helpers/chromium";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { hashPassword } from "../../src/actions/users";
import { makePng, upload } from "../helpers/uploads";
import { createServer } from "../../src/server";

const AXE = await Bun.file(Bun.resolveSync("axe-core/axe.min.js", import.meta.dir)).text();

let s: TestServer;
let http: ReturnType<typeof createServer>;
let browser: Browser;
let base: string;
let general: number;
let imageUrl: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  s = await startServer({ realClock: true });
  await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword("hamlet-pass"), s.users.hamlet.id]);
  general = await createChannel(s, "iago", "general", { subscribers: ["hamlet", "othello", "cordelia"], description: "Everything that does not fit elsewhere" });
  await createChannel(s, "iago", "design", { subscribers: ["hamlet", "othello"] });
  (await s.users.hamlet.client.post("/mark_all_as_read")).success();
  const image = await upload(s, "othello", "sunset.png", await makePng(600, 400, "#c2726a"), "image/png");
  imageUrl = image.url;
  const rich = [
    "Look, @**King Hamlet** and @*hamletcharacters*! :smile: Meet you at <time:2026-03-01T12:00:00Z>.",
    "> Something is rotten in the state of Denmark.",
    "",
    "```python",
    "def greet():",
    '    return "hi"',
    "```",
    "Inline `code`, **bold**, a [link](https://example.com), and a table:",
    "",
    "| who | where |",
    "| --- | --- |",
    "| Horatio | ramparts |",
    "",
    "```spoiler How it ends",
    "They all die.",
    "```",
    `[sunset.png](${image.url})`,
  ].join("\n");
  await s.users.othello.client.post("/messages", { type: "stream", to: general, topic: "gallery", content: rich });
  await s.users.cordelia.client.post("/messages", { type: "stream", to: general, topic: "gallery", content: "/me waves" });
  await s.users.hamlet.client.post("/messages", { type: "stream", to: general, topic: "gallery", content: "Thanks, both." });
  await s.users.othello.client.post("/messages", { type: "direct", to: JSON.stringify([s.users.hamlet.id]), content: "A word in private, my lord?" });
  await s.users.cordelia.client.post("/messages", { type: "stream", to: general, topic: "plans", content: "Unread, for the counts." });
  http = createServer(s.app).listen({ hostname: "127.0.0.1", port: 0, reusePort: false });
  base = `http://127.0.0.1:${http.server!.port}`;
  browser = await launchChromium();
}, 20_000);

afterAll(async () => {
  for (const c of contexts.splice(0)) await c.close().catch(() => {});
  await browser?.close();
  await http?.stop(true);
  await s?.close();
});

async function open(opts: { width?: number; height?: number; dark?: boolean } = {}) {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 }, colorScheme: opts.dark ? "dark" : "light", reducedMotion: "reduce",
    // the page's strict Content-Security-Policy would refuse the injected axe-core script (web-client.test.ts checks the policy)
    bypassCSP: true,
  });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(5000);
  return page;
}

async function logIn(page: Page, path = "/") {
  await page.goto(base + path);
  await page.fill("#login-email", "hamlet@zulip.com");
  await page.fill("#login-password", "hamlet-pass");
  await page.click(".login-form button[type=submit]");
  await page.locator(".app-shell").waitFor();
}

interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/**
 * axe-core's serious and critical violations on the page as it is now (WCAG 2.2 A and AA, and best
 * practices). With `overlay` (an open menu's selector), the touch-target rule looks at the overlay only:
 * what lies under an open menu cannot be touched until it closes.
 */
async function violations(page: Page, overlay?: string): Promise<Violation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE });
  const found = await page.evaluate(
    async ({ tags, overlay }) => {
      const axe = (window as any).axe;
      const run = (context: unknown, rules?: Record<string, { enabled: boolean }>) => axe.run(context, { resultTypes: ["violations"], runOnly: { type: "tag", values: tags }, rules });
      const all = (await run(document, overlay ? { "target-size": { enabled: false } } : undefined)).violations;
      if (overlay) all.push(...(await axe.run({ include: [overlay] }, { resultTypes: ["violations"], runOnly: { type: "rule", values: ["target-size"] } })).violations);
      return all.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n: any) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n").slice(1, 3).join(" ")}`) }));
    },
    { tags: TAGS, overlay },
  );
  return (found as Violation[]).filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Checks the page, with the view's name in the failure so it says where. */
async function expectAccessible(page: Page, where: string, overlay?: string) {
  expect({ where, violations: await violations(page, overlay) }).toEqual({ where, violations: [] });
}

async function eventuallyTrue(read: () => Promise<boolean>) {
  for (let i = 0; i < 50 && !(await read()); i++) await Bun.sleep(50);
  expect(await read()).toBe(true);
}

const topicHash = (topic: string) => `#narrow/channel/${general}-general/topic/${topic}`;

describe("the web app's accessibility", () => {
  test("the login page, with and without an error, has none", async () => {
    const page = await open();
    await page.goto(base + "/");
    await page.locator("#login-email").waitFor();
    await expectAccessible(page, "login");
    await page.fill("#login-email", "hamlet@zulip.com");
    await page.fill("#login-password", "wrong");
    await Promise.all([page.waitForURL("**/?login_failed=1"), page.click(".login-form button[type=submit]")]);
    await expectAccessible(page, "login failed");
  }, 20_000);

  test("the inbox, recent conversations and the personal menu have none", async () => {
    const page = await open();
    await logIn(page);
    await page.locator(".inbox-row").first().waitFor();
    await expectAccessible(page, "inbox");
    await page.getByRole("button", { name: /^Personal menu/ }).click();
    await page.getByRole("menu").waitFor();
    await expectAccessible(page, "personal menu", "[role=menu]");
    await page.keyboard.press("Escape");
    await page.goto(base + "/#recent");
    await page.locator(".recent-table .recent-topic").first().waitFor();
    await expectAccessible(page, "recent conversations");
  }, 20_000);

  test("a topic with code, a quote, mentions, a table, a spoiler and an image, its menus and the lightbox have none", async () => {
    const page = await open();
    await logIn(page, "/" + topicHash("gallery"));
    const rich = page.locator(".message-row", { hasText: "Look," });
    await rich.locator(".codehilite .k").first().waitFor();
    await rich.locator(".message_inline_image img[src*='/user_uploads/']").waitFor();
    await expectAccessible(page, "topic");
    await rich.hover();
    await rich.getByRole("button", { name: "Message actions" }).click();
    await page.getByRole("menu").waitFor();
    await expectAccessible(page, "message menu", "[role=menu]");
    await page.keyboard.press("Escape");
    await page.locator(".view-header").getByRole("button", { name: /^Topic actions/ }).click();
    await page.getByRole("menu").waitFor();
    await expectAccessible(page, "topic menu", "[role=menu]");
    await page.keyboard.press("Escape");
    await rich.locator(".spoiler-header").click();
    await rich.locator(".message_inline_image img").click();
    await page.getByRole("dialog").waitFor();
    expect(await page.getByRole("dialog").locator("img").getAttribute("src")).toContain(imageUrl);
    await expectAccessible(page, "lightbox");
  }, 20_000);

  test("a direct-message conversation and the whole feed in the dark theme have none", async () => {
    const page = await open({ dark: true });
    await logIn(page, `/#narrow/dm/${s.users.othello.id}-othello`);
    await page.locator(".message-row", { hasText: "A word in private" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await expectAccessible(page, "dark direct messages");
    await page.goto(base + "/" + topicHash("gallery"));
    await page.locator(".message-row .codehilite .k").first().waitFor();
    await expectAccessible(page, "dark topic");
    // the inbox before the feed: reading the feed may mark its unread messages read (the inbox would be empty)
    await page.goto(base + "/#inbox");
    await page.locator(".inbox-row").first().waitFor();
    await expectAccessible(page, "dark inbox");
    await page.goto(base + "/#feed");
    await page.locator(".message-row", { hasText: "Unread, for the counts." }).waitFor();
    await expectAccessible(page, "dark combined feed");
  }, 20_000);

  test("browse channels and the create-a-channel dialog, light and dark, have none", async () => {
    for (const dark of [false, true]) {
      const page = await open({ dark });
      await logIn(page, "/#channels/all");
      await page.locator(".browse-channel").first().waitFor();
      await expectAccessible(page, `${dark ? "dark " : ""}browse channels`);
      await page.locator("#left-sidebar").getByRole("button", { name: "Create a channel" }).click();
      const dialog = page.getByRole("dialog", { name: "Create a channel" });
      await dialog.waitFor();
      await dialog.getByRole("combobox", { name: "Add people to the channel" }).fill("o");
      await dialog.getByRole("option").first().waitFor();
      await expectAccessible(page, `${dark ? "dark " : ""}create a channel`, "[role=dialog]");
    }
  }, 30_000);

  test("every personal settings section, light and dark, and the settings at phone width, have none", async () => {
    const hamlet = s.users.hamlet.client;
    (await s.users.iago.client.post("/realm/profile_fields", { name: "Pronouns", hint: "What to call you", field_type: 8 })).success();
    (await s.users.iago.client.post("/realm/profile_fields", { name: "Team", field_type: 3, field_data: JSON.stringify({ stage: { text: "Stage", order: "1" }, crew: { text: "Crew", order: "2" } }) })).success();
    (await hamlet.post(`/users/me/muted_users/${s.users.polonius.id}`)).success();
    (await hamlet.post("/users/me/alert_words", { alert_words: JSON.stringify(["Yorick"]) })).success();
    (await hamlet.post("/saved_snippets", { title: "Greeting", content: "Good morrow." })).success();
    (await hamlet.post("/user_topics", { stream_id: general, topic: "plans", visibility_policy: 3 })).success();
    const sections = ["profile", "account-and-privacy", "preferences", "notifications", "status", "muted-users", "topics", "alert-words", "saved-snippets", "integrations"];
    for (const dark of [false, true]) {
      const page = await open({ dark });
      await logIn(page, "/#settings/profile");
      for (const section of sections) {
        await page.goto(`${base}/#settings/${section}`);
        await page.locator(".settings-panel .settings-section").waitFor();
        await expectAccessible(page, `${dark ? "dark " : ""}settings: ${section}`);
      }
    }
    // the API key shown, and the status emoji picker open over the overlay
    const page = await open();
    await logIn(page, "/#settings/account-and-privacy");
    await page.getByRole("button", { name: "Manage your API key" }).click();
    await page.getByLabel("Your password, to show your API key").fill("hamlet-pass");
    await page.getByRole("button", { name: "Show API key" }).click();
    await page.locator(".api-key-value").waitFor();
    await expectAccessible(page, "settings: API key shown");
    await page.goto(`${base}/#settings/status`);
    await page.getByRole("button", { name: "Choose a status emoji" }).click();
    await page.locator(".emoji-picker").waitFor();
    await expectAccessible(page, "settings: status emoji picker", ".emoji-picker");

    const phone = await open({ width: 390, height: 844 });
    await logIn(phone, "/#settings");
    await phone.getByRole("navigation", { name: "Personal settings" }).waitFor();
    await expectAccessible(phone, "phone settings menu");
    await phone.goto(`${base}/#settings/notifications`);
    await phone.locator(".notification-table").waitFor();
    await expectAccessible(phone, "phone notification settings");
  }, 90_000);

  test("the keyboard reaches the messages first through the skip link, and a menu takes the focus and gives it back", async () => {
    const page = await open();
    await logIn(page, "/" + topicHash("gallery"));
    await page.locator(".message-row", { hasText: "Thanks, both." }).waitFor();
    await page.locator("body").focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to the messages");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main-pane");
    const button = page.locator(".view-header").getByRole("button", { name: /^Topic actions/ });
    await button.focus();
    await page.keyboard.press("Enter");
    await eventuallyTrue(() => page.evaluate(() => document.activeElement?.getAttribute("role")?.startsWith("menuitem") ?? false));
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("role"))).toMatch(/^menuitem/);
    await page.keyboard.press("Escape");
    await page.getByRole("menu").waitFor({ state: "detached" });
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
  }, 20_000);

  test("the organization's settings screens, as the owner (every control and the server page), light and dark and at phone width, have none", async () => {
    await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword("desdemona-pass"), s.users.desdemona.id]);
    (await s.users.iago.client.post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://tracker.example/{id}" })).success();
    (await s.users.iago.client.post("/realm/profile_fields", { name: "Desk", hint: "Where to find you", field_type: 1 })).success();
    (await s.users.iago.client.post("/default_streams", { stream_id: general })).success();
    const sections = ["organization-profile", "organization-settings", "organization-permissions", "organization-level-user-defaults", "emoji-settings", "linkifier-settings", "playground-settings", "profile-field-settings", "default-channels-list", "channel-folders", "invites-list-admin", "server"];
    for (const [dark, width] of [[false, 1280], [true, 1280], [false, 390]] as const) {
      const page = await open({ dark, width, height: 844 });
      await page.goto(`${base}/#organization/organization-profile`);
      await page.fill("#login-email", "desdemona@zulip.com");
      await page.fill("#login-password", "desdemona-pass");
      await page.click(".login-form button[type=submit]");
      await page.locator(".app-shell").waitFor();
      for (const section of width === 390 ? ["organization-permissions", "linkifier-settings", "server"] : sections) {
        await page.goto(`${base}/#organization/${section}`);
        const panel = page.locator(".settings-panel");
        await panel.locator(".settings-section").waitFor();
        if (section === "server") await panel.getByRole("button", { name: "Back up now" }).waitFor();
        if (section === "linkifier-settings") await panel.getByLabel("Try it on a sample text").fill("Fixed in #12");
        await expectAccessible(page, `${dark ? "dark " : ""}${width === 390 ? "phone " : ""}#organization/${section}`, "[role=dialog]");
      }
    }
  }, 90_000);

  test("at phone width, the page and its open drawers have none", async () => {
    const page = await open({ width: 390, height: 844 });
    await logIn(page, "/" + topicHash("gallery"));
    await page.locator(".message-row", { hasText: "Thanks, both." }).waitFor();
    await expectAccessible(page, "phone topic");
    await page.getByRole("button", { name: "Channels and views" }).click();
    await page.locator("#left-sidebar .channel-row a", { hasText: "general" }).waitFor({ state: "visible" });
    await expectAccessible(page, "phone left drawer");
    await page.getByRole("button", { name: "People" }).click();
    await page.locator("#right-sidebar .person-row").first().waitFor({ state: "visible" });
    await expectAccessible(page, "phone people drawer");
  }, 20_000);
  test("a channel's settings, user groups, people, bots and a profile card, light, dark and at phone width, have none", async () => {
    // an administrator sees every control of these screens
    (await s.users.desdemona.client.patch(`/users/${s.users.hamlet.id}`, { role: 200 })).success();
    (await s.users.hamlet.client.post("/bots", { full_name: "Reader Bot", short_name: "reader" })).success();
    (await s.users.hamlet.client.post("/user_groups/create", { name: "Readers", description: "Who reads", members: [s.users.hamlet.id, s.users.othello.id] })).success();
    const group = ((await s.users.hamlet.client.get("/user_groups")).success().user_groups as { id: number; name: string }[]).find((g) => g.name === "Readers")!.id;
    const screens: [string, string, string][] = [
      ["channel settings", `/#channels/${general}/general/general`, "Channel name"],
      ["channel personal settings", `/#channels/${general}/general/personal`, "Mute channel"],
      ["channel subscribers", `/#channels/${general}/general/subscribers`, "Filter subscribers"],
      ["user groups", "/#groups/all", "Filter groups"],
      ["a user group's members", `/#groups/${group}/Readers/members`, "Add members"],
      ["a user group's permissions", `/#groups/${group}/Readers/permissions`, "Who can join this group"],
      ["users", "/#organization/user-list-admin", "Search people"],
      ["deactivated users", "/#organization/deactivated-users-admin", "Search people"],
      ["bots", "/#settings/your-bots", "Bot type"],
    ];
    for (const [dark, width] of [[false, 1280], [true, 1280], [false, 390]] as const) {
      const page = await open({ dark, width, height: 844 });
      await logIn(page, screens[0]![1]);
      for (const [where, path, label] of screens) {
        await page.goto(base + path);
        await page.getByLabel(label).first().waitFor();
        await expectAccessible(page, `${dark ? "dark " : ""}${width < 500 ? "phone " : ""}${where}`);
      }
      await page.goto(base + "/#organization/user-list-admin");
      await page.locator(".user-row").getByRole("button", { name: "Profile of Othello, the Moor of Venice" }).click();
      await page.getByRole("dialog", { name: "Othello, the Moor of Venice" }).waitFor();
      await expectAccessible(page, `${dark ? "dark " : ""}${width < 500 ? "phone " : ""}profile card`, "[role=dialog]");
    }
  }, 90_000);
});
