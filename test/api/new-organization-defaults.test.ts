/**
 * Parley's new organizations give their new users Enter-sends (Zulip's default is Ctrl+Enter): the
 * organization's realm_user_settings_defaults says so, every new user starts with it, and an
 * administrator can still change the default; organizations made with other defaults keep theirs.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createUser } from "../../src/actions/users";
import { startServer, type TestServer } from "../helpers/server";

let fresh: TestServer;
let zulipLike: TestServer;
beforeAll(async () => {
  fresh = await startServer({ parleyUserDefaults: true });
  zulipLike = await startServer();
});
afterAll(async () => {
  await fresh.close();
  await zulipLike.close();
});

const register = async (s: TestServer, client = s.users.hamlet.client) =>
  (await client.post("/register", { fetch_event_types: ["user_settings", "realm_user_settings_defaults"], client_capabilities: { user_settings_object: true } })).success();

describe("a new organization's defaults for its new users", () => {
  test("Enter sends: in the organization's defaults, for its owner and for every user created in it", async () => {
    const owner = await register(fresh, fresh.users.desdemona.client);
    expect(owner.realm_user_settings_defaults.enter_sends).toBe(true);
    expect(owner.user_settings.enter_sends).toBe(true);
    expect((await register(fresh)).user_settings.enter_sends).toBe(true);
    const stored = await fresh.app.db.get<{ settings: string }>("SELECT settings FROM realm_user_defaults WHERE realm_id = ?", [fresh.app.realm!.id]);
    expect(JSON.parse(stored!.settings)).toEqual({ enter_sends: true });
  }, 20_000);

  test("an administrator turns the default off: people created afterwards get Ctrl+Enter, those before keep Enter", async () => {
    (await fresh.users.iago.client.patch("/realm/user_settings_defaults", { enter_sends: false })).success();
    const later = await createUser(fresh.app, null, { email: "horatio@zulip.com", fullName: "Horatio", password: null, role: 400 });
    const horatio = await register(fresh, fresh.clientFor(later.email, later.apiKey));
    expect([horatio.user_settings.enter_sends, horatio.realm_user_settings_defaults.enter_sends]).toEqual([false, false]);
    expect((await register(fresh)).user_settings.enter_sends).toBe(true);
  });

  test("an organization made with Zulip's defaults keeps Ctrl+Enter", async () => {
    const r = await register(zulipLike);
    expect([r.user_settings.enter_sends, r.realm_user_settings_defaults.enter_sends]).toEqual([false, false]);
  });
});
