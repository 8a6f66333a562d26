import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const mutes = (userId: number) => s.app.db.all("SELECT muted_user_id, date_muted FROM muted_users WHERE user_id = ? ORDER BY muted_user_id", [userId]);
const flags = async (userId: number, messageId: number) =>
  (await s.app.db.get<{ flags: number }>("SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?", [userId, messageId]))!.flags;

describe("POST /users/me/muted_users/{muted_user_id}", () => {
  test("muting stores the mute, marks the user's messages read and sends the new list to the muter only", async () => {
    const { hamlet, othello } = s.users;
    const dm = (await othello.client.post("/messages", { type: "direct", to: [hamlet.id], content: "psst" })).success().id;
    expect((await flags(hamlet.id, dm)) & 1).toBe(0);
    const now = Math.floor(s.clock.now() / 1000);
    const events = await s.captureEvents(async () => {
      (await hamlet.client.post(`/users/me/muted_users/${othello.id}`)).success();
    });
    expect(await mutes(hamlet.id)).toEqual([{ muted_user_id: othello.id, date_muted: now }]);
    expect((await flags(hamlet.id, dm)) & 1).toBe(1);
    expect(events.of("hamlet")).toEqual([
      { type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: [dm], all: false },
      { type: "muted_users", muted_users: [{ id: othello.id, timestamp: now }] },
    ]);
    expect(events.of("othello")).toEqual([]);
  });

  test("the list grows in muting order; bots and deactivated users may be muted", async () => {
    const { hamlet, cordelia } = s.users;
    s.clock.advance(5000);
    const bot = (await hamlet.client.post("/bots", { full_name: "Helper Bot", short_name: "helper" })).success();
    (await hamlet.client.post(`/users/me/muted_users/${bot.user_id}`)).success();
    (await s.users.iago.client.delete(`/users/${cordelia.id}`)).success();
    s.clock.advance(5000);
    const events = await s.captureEvents(async () => {
      (await hamlet.client.post(`/users/me/muted_users/${cordelia.id}`)).success();
    });
    const list = events.of("hamlet").find((e) => e.type === "muted_users")!.muted_users as { id: number }[];
    expect(list.map((m) => m.id)).toEqual([s.users.othello.id, bot.user_id, cordelia.id]);
    const r = (await hamlet.client.post("/register", { fetch_event_types: ["muted_users"] })).success();
    expect(r.muted_users).toEqual(list);
  });

  test("muting oneself, someone already muted or nobody is refused", async () => {
    const { hamlet, othello } = s.users;
    (await hamlet.client.post(`/users/me/muted_users/${hamlet.id}`)).error("Cannot mute self");
    (await hamlet.client.post(`/users/me/muted_users/${othello.id}`)).error("User already muted");
    (await hamlet.client.post("/users/me/muted_users/9999")).error("No such user");
    (await hamlet.client.post("/users/me/muted_users/x")).error("Invalid muted_user_id");
  });

  test("guests cannot mute users they cannot see", async () => {
    (await s.users.desdemona.client.patch("/realm", { can_access_all_users_group: { new: s.app.systemGroups.get("role:members")! } })).success();
    try {
      (await s.users.polonius.client.post(`/users/me/muted_users/${s.users.shiva.id}`)).error("Insufficient permission");
      expect(await mutes(s.users.polonius.id)).toEqual([]);
    } finally {
      (await s.users.desdemona.client.patch("/realm", { can_access_all_users_group: { new: s.app.systemGroups.get("role:everyone")! } })).success();
    }
  });
});

describe("DELETE /users/me/muted_users/{muted_user_id}", () => {
  test("unmuting removes the mute and sends the shorter list", async () => {
    const { hamlet, othello } = s.users;
    const events = await s.captureEvents(async () => {
      (await hamlet.client.delete(`/users/me/muted_users/${othello.id}`)).success();
    });
    expect((await mutes(hamlet.id)).map((m: any) => m.muted_user_id)).not.toContain(othello.id);
    const list = events.of("hamlet")[0]!.muted_users as { id: number }[];
    expect(events.of("hamlet")).toHaveLength(1);
    expect(list.map((m) => m.id)).not.toContain(othello.id);
  });

  test("unmuting someone not muted is refused", async () => {
    (await s.users.hamlet.client.delete(`/users/me/muted_users/${s.users.othello.id}`)).error("User is not muted");
    (await s.users.hamlet.client.delete("/users/me/muted_users/9999")).error("No such user");
  });
});
