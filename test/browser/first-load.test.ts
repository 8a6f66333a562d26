/**
 * Start-up asks for the first view's messages alongside /register, not after it, and the view uses that
 * answer instead of asking again.
 */
import { describe, expect, test } from "bun:test";
import type { Route } from "playwright-core";
import { createChannel } from "../helpers/channels";
import { browserSuite, row, topicHash } from "./helpers";

let ramparts = 0;
const suite = browserSuite(async (s) => {
  ramparts = await createChannel(s, "hamlet", "ramparts", { subscribers: ["othello"] });
  for (const content of ["Who's there?", "Nay, answer me."]) (await s.users.othello.client.post("/messages", { type: "stream", to: ramparts, topic: "watch", content })).success();
});

describe("the first load of a message view", () => {
  test("GET /messages starts before /register has answered, only once, and the messages show", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/" + topicHash(ramparts, "ramparts", "watch"));
    await row(page, "Nay, answer me.").waitFor();
    const log: string[] = [];
    const path = (url: string) => new URL(url).pathname;
    page.on("request", (r) => ["/json/messages", "/json/register"].includes(path(r.url())) && log.push(`request ${path(r.url())}`));
    page.on("response", (r) => path(r.url()) === "/json/register" && log.push("response /json/register"));
    await page.reload();
    await row(page, "Nay, answer me.").waitFor();
    const messages = log.filter((l) => l === "request /json/messages");
    expect(messages.length).toBe(1);
    expect(log.indexOf("request /json/messages")).toBeLessThan(log.indexOf("response /json/register"));
    expect(log.indexOf("request /json/register")).toBeGreaterThanOrEqual(0);
    expect(errors).toEqual([]);
  }, 30_000);

  test("with its messages already there, the view is drawn with them at once (never 'Loading messages…'), and a message sent before the event queue existed is fetched after them", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/" + topicHash(ramparts, "ramparts", "watch"));
    await row(page, "Nay, answer me.").waitFor();
    // every frame that would paint "Loading messages…" (checked before each frame, from the first script on)
    await page.addInitScript(() => {
      (window as any).__loadingSeen = 0;
      const check = () => {
        if (document.querySelector(".list-loading")) (window as any).__loadingSeen++;
        if (!document.querySelector(".message-row")) requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    });
    // /register is held until the first messages have been answered; then a message is sent, then the
    // queue is made: the message is newer than the answer and older than the queue
    let answered!: () => void;
    const messagesAnswered = new Promise<void>((resolve) => (answered = resolve));
    const fetched: string[] = [];
    page.on("requestfinished", (r) => {
      if (new URL(r.url()).pathname !== "/json/messages") return;
      fetched.push(new URL(r.url()).searchParams.get("anchor")!);
      answered();
    });
    await page.route("**/json/register", async (route: Route) => {
      await messagesAnswered;
      (await suite.s.users.othello.client.post("/messages", { type: "stream", to: ramparts, topic: "watch", content: "Stand, ho! Who is there?" })).success();
      await route.continue();
    });
    await page.reload();
    await row(page, "Stand, ho! Who is there?").waitFor();
    expect(await page.evaluate(() => (window as any).__loadingSeen)).toBe(0);
    // the first answer, then the catch-up from its last message
    const last = (await suite.s.app.db.get<{ id: number }>("SELECT max(id) AS id FROM messages WHERE content = 'Nay, answer me.'"))!.id;
    expect(fetched).toEqual(["first_unread", String(last)]);
    await page.unroute("**/json/register");
    expect(errors).toEqual([]);
  }, 30_000);
});
