/**
 * Start-up asks for the first view's messages alongside /register, not after it, and the view uses that
 * answer instead of asking again.
 */
import { describe, expect, test } from "bun:test";
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
});
