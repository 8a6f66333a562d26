import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";
import { notificationBot } from "../../src/actions/messages/notification-bot";
import { realmBotState } from "../../src/actions/state/bots";
import { findUserById } from "../../src/store/users";

let s: TestServer;
beforeAll(async () => (s = await startServer()));
afterAll(() => s.close());

test("a system bot made on first use reaches the administrators' bot lists (realm_bot add), not the members'", async () => {
  let botId = 0;
  const seen = await s.captureEvents(async () => (botId = (await notificationBot(s.app)).id));
  const adds = (name: "iago" | "desdemona" | "hamlet" | "polonius") => seen.of(name).filter((e: any) => e.type === "realm_bot" && e.op === "add").map((e: any) => e.bot);
  expect(adds("iago")).toEqual([expect.objectContaining({ user_id: botId, full_name: "Notification Bot", owner_id: null, is_active: true })]);
  expect(adds("desdemona").map((b: any) => b.user_id)).toEqual([botId]);
  expect(adds("hamlet")).toEqual([]);
  expect(adds("polonius")).toEqual([]);
  // what a fresh /register gives the same people
  const iago = await realmBotState(s.app, (await findUserById(s.app.db, s.users.iago.id))!);
  expect(iago.realm_bots.map((b) => b.user_id)).toContain(botId);
  const hamlet = await realmBotState(s.app, (await findUserById(s.app.db, s.users.hamlet.id))!);
  expect(hamlet.realm_bots.map((b) => b.user_id)).not.toContain(botId);
  // a second use creates nothing and announces nothing
  const again = await s.captureEvents(() => notificationBot(s.app));
  expect(again.types()).toEqual([]);
});
