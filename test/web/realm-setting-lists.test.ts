/**
 * The web app keeps its own lists of organization settings (state/org.ts, state/permissions.ts), since
 * neither wing may import the other's source (design.md); these checks keep them in step with the
 * server's (routes/realm.ts, domain/realm-settings.ts, actions/realm.ts), so a setting added on one side
 * and not the other fails here instead of drifting.
 */
import { describe, expect, test } from "bun:test";
import { ORG_GROUP_SETTINGS, ORG_VALUE_SETTINGS } from "../../assets/app/state/org";
import { OWNER_ONLY_ORG_SETTINGS } from "../../assets/app/state/permissions";
import { REALM_GROUP_SETTING_NAMES } from "../../src/actions/realm";
import { OWNER_ONLY_REALM_SETTINGS } from "../../src/domain/realm-settings";
import { RealmArgs } from "../../src/routes/realm";

/** Parley's own switches, which /register does not report: the owner's Server page reads them from GET /parley/server. */
const ON_THE_SERVER_PAGE = ["allow_public_access", "web_public_streams_enabled"];

describe("the web app's lists of organization settings", () => {
  test("the owners-only settings are the ones the server refuses to administrators", () => {
    expect([...OWNER_ONLY_ORG_SETTINGS].sort()).toEqual([...OWNER_ONLY_REALM_SETTINGS].sort());
  });

  test("every group setting PATCH /realm takes is one the app knows", () => {
    expect<string[]>([...ORG_GROUP_SETTINGS].sort()).toEqual([...REALM_GROUP_SETTING_NAMES].sort());
  });

  test("every other setting PATCH /realm takes is read from /register, or shown on the Server page", () => {
    const known = new Set<string>([...ORG_VALUE_SETTINGS, ...ORG_GROUP_SETTINGS]);
    const taken = Object.keys(RealmArgs.properties);
    expect(taken.length).toBeGreaterThan(60);
    expect(taken.filter((k) => !known.has(k)).sort()).toEqual(ON_THE_SERVER_PAGE);
  });
});
