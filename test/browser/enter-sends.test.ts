/**
 * In a new organization (Parley's defaults for its new users), Enter sends and Shift+Enter makes a new
 * line, as the compose box's hint says; the message is stored as written.
 */
import { describe, expect, test } from "bun:test";
import { createChannel } from "../helpers/channels";
import { browserSuite, row, topicHash } from "./helpers";

let ramparts = 0;
const suite = browserSuite(
  async (s) => {
    ramparts = await createChannel(s, "hamlet", "ramparts");
  },
  { parleyUserDefaults: true },
);

describe("Enter sends in a new organization", () => {
  test("the hint says Enter sends; Shift+Enter makes a new line and Enter sends the message", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/" + topicHash(ramparts, "ramparts", "watch"));
    const box = page.locator(".compose-text");
    await box.click();
    expect(await page.locator(".compose-hint").textContent()).toBe("Enter to send · Shift+Enter for a new line");
    await page.keyboard.type("Who's there?");
    await page.keyboard.press("Shift+Enter");
    await page.keyboard.type("Nay, answer me.");
    expect(await box.inputValue()).toBe("Who's there?\nNay, answer me.");
    await page.keyboard.press("Enter");
    await row(page, "Nay, answer me.").waitFor();
    expect(await box.inputValue()).toBe("");
    const stored = await suite.s.app.db.get<{ content: string }>("SELECT content FROM messages WHERE sender_id = ? ORDER BY id DESC LIMIT 1", [suite.userId("hamlet")]);
    expect(stored!.content).toBe("Who's there?\nNay, answer me.");
    expect(errors).toEqual([]);
  }, 30_000);
});
