// One real browser end to end: Debian's Chromium, driven by playwright-core, against an in-process server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { hashPassword } from "../../src/actions/users";
import { createServer } from "../../src/server";

const CHROMIUM = "/usr/bin/chromium";
const SCREENSHOT = "/tmp/parley-web.png";

let s: TestServer;
let http: ReturnType<typeof createServer>;
let browser: Browser;
let page: Page;
let base: string;
let streamId: number;

beforeAll(async () => {
  s = await startServer({ realClock: true });
  await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword("hamlet-pass"), s.users.hamlet.id]);
  streamId = await createChannel(s, "hamlet", "elsinore", { subscribers: ["othello"] });
  http = createServer(s.app).listen({ hostname: "127.0.0.1", port: 0, reusePort: false });
  base = `http://127.0.0.1:${http.server!.port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // (launch() gives Chromium a new empty --user-data-dir of its own each time)
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
  page.setDefaultTimeout(5000);
}, 20_000);

afterAll(async () => {
  await browser?.close();
  await http?.stop(true);
  await s?.close();
});

describe("the web client in a real browser", () => {
  test("a wrong password shows the error text and leaves the login form up", async () => {
    await page.goto(base + "/");
    await page.locator("#login").waitFor({ state: "visible" });
    await page.fill("input[name=username]", "hamlet@zulip.com");
    await page.fill("input[name=password]", "wrong-pass");
    await Promise.all([page.waitForURL("**/?login_failed=1"), page.click("#login button[type=submit]")]);
    await page.locator("#login-error").waitFor({ state: "visible" });
    expect(await page.locator("#login-error").textContent()).toBe("Your username or password is incorrect.");
    expect(await page.locator("#chat").isHidden()).toBe(true);
  });

  test("hamlet logs in, opens a channel, sends a message and sees othello's reply arrive live", async () => {
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await page.goto(base + "/");
    await page.fill("input[name=username]", "hamlet@zulip.com");
    await page.fill("input[name=password]", "hamlet-pass");
    await page.click("#login button[type=submit]");
    await page.locator("#chat").waitFor({ state: "visible" });
    await page.locator("#me", { hasText: "King Hamlet" }).waitFor();

    const channel = page.locator("#channels li", { hasText: "elsinore" });
    await channel.waitFor();
    await channel.click();
    await page.locator("#narrow-title", { hasText: "#elsinore" }).waitFor();
    await page.locator("#compose").waitFor({ state: "visible" });

    await page.fill("#compose-topic", "ramparts");
    await page.fill("#compose-content", "Something is **rotten** in the state of Denmark.");
    await page.click("#compose button[type=submit]");
    const mine = page.locator("#messages .message", { hasText: "Something is rotten" });
    await mine.waitFor();
    expect(await mine.locator(".sender").textContent()).toBe("King Hamlet");
    expect(await mine.locator(".topic-tag").textContent()).toBe("ramparts");
    expect(await mine.locator(".content strong").textContent()).toBe("rotten");
    await page.locator("#channels li.topic", { hasText: "ramparts" }).waitFor(); // the new topic joins the sidebar
    await page.waitForFunction(() => (document.getElementById("compose-content") as HTMLTextAreaElement).value === "");
    const stored = await s.app.db.get<{ sender_id: number; content: string }>("SELECT sender_id, content FROM messages WHERE content LIKE 'Something is%'");
    expect(stored).toMatchObject({ sender_id: s.users.hamlet.id, content: "Something is **rotten** in the state of Denmark." });

    // othello answers through the API; the page's long-poll brings it in without a reload
    const before = page.url();
    (await s.users.othello.client.post("/messages", { type: "channel", to: streamId, topic: "ramparts", content: "Look where it comes!" })).success();
    const reply = page.locator("#messages .message", { hasText: "Look where it comes!" });
    await reply.waitFor();
    expect(await reply.locator(".sender").textContent()).toBe("Othello, the Moor of Venice");
    expect(page.url()).toBe(before);
    // appended after hamlet's own message (the list also holds the channel's creation notice, above them)
    const senders = await page.locator("#messages .message .sender").allTextContents();
    expect(senders.slice(-2)).toEqual(["King Hamlet", "Othello, the Moor of Venice"]);

    await page.screenshot({ path: SCREENSHOT });
    expect(pageErrors).toEqual([]);
  });
});
