import { test } from "bun:test";
import { createChannel } from "../helpers/channels";
import { browserSuite, eventually, row } from "./helpers";
let general: number;
const suite = browserSuite(async (s) => {
  general = await createChannel(s, "iago", "general", { subscribers: ["hamlet", "othello"] });
});
test("scratch", async () => {
  const { page, errors } = await suite.open();
  page.on("console", (m) => console.log("console:", m.text()));
  page.on("request", (r) => r.url().includes("/json/") && !r.url().includes("presence") && console.log("req", r.method(), r.url().replace(/^.*\/json/, ""), r.postData()?.slice(0, 80) ?? ""));
  await suite.logIn(page, "hamlet", `/#narrow/channel/${general}-general/topic/watch`);
  await page.locator(".view-title", { hasText: "watch" }).waitFor();
  await page.fill(".compose-text", "A draft that must survive");
  await Bun.sleep(1000);
  console.log("---- drop");
  suite.s.app.events.dropUser(suite.userId("hamlet"));
  await eventually(() => suite.s.app.events.hasQueues(suite.userId("hamlet")), true);
  console.log("---- send");
  (await suite.s.users.othello.client.post("/messages", { type: "stream", to: general, topic: "watch", content: "Stand, and unfold yourself." })).success();
  await Bun.sleep(2000);
  console.log("rows", await page.locator(".message-row").count(), "errors", errors);
}, 30000);
