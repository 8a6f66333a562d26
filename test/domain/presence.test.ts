import { describe, expect, test } from "bun:test";
import { applyPresenceReport, legacyPresence, modernPresence } from "../../src/domain/presence";

describe("applyPresenceReport", () => {
  test("a first report stores the connection (and activity when active) and notifies", () => {
    expect(applyPresenceReport(null, "active", 1000)).toEqual({ next: { lastActive: 1000, lastConnected: 1000 }, notify: true });
    expect(applyPresenceReport(null, "idle", 1000)).toEqual({ next: { lastActive: null, lastConnected: 1000 }, notify: true });
  });

  test("the same report within 55 seconds changes nothing", () => {
    const t = { lastActive: 1000, lastConnected: 1000 };
    expect(applyPresenceReport(t, "active", 1055)).toEqual({ next: null, notify: false });
    expect(applyPresenceReport(t, "idle", 1030)).toEqual({ next: null, notify: false });
  });

  test("an idle report a minute later moves only the connection", () => {
    expect(applyPresenceReport({ lastActive: 1000, lastConnected: 1000 }, "idle", 1060)).toEqual({ next: { lastActive: 1000, lastConnected: 1060 }, notify: false });
  });

  test("an active report after an idle stretch moves both and keeps connected >= active", () => {
    expect(applyPresenceReport({ lastActive: 1000, lastConnected: 1100 }, "active", 1120)).toEqual({ next: { lastActive: 1120, lastConnected: 1120 }, notify: true });
  });

  test("coming back after more than 70 seconds without activity notifies", () => {
    expect(applyPresenceReport({ lastActive: 1000, lastConnected: 1000 }, "active", 1071).notify).toBe(true);
    expect(applyPresenceReport({ lastActive: 1000, lastConnected: 1000 }, "active", 1070).notify).toBe(false);
    expect(applyPresenceReport({ lastActive: 1000, lastConnected: 1000 }, "idle", 2000).notify).toBe(false);
  });
});

describe("presence formats", () => {
  test("modern format uses the join date for missing timestamps", () => {
    expect(modernPresence({ last_active_time: null, last_connected_time: 500.7, date_joined: 100 })).toEqual({ active_timestamp: 100, idle_timestamp: 500 });
  });

  test("legacy format is active when activity is recent relative to the connection, else idle", () => {
    expect(legacyPresence({ last_active_time: 1000, last_connected_time: 1070, date_joined: 0 })).toEqual({
      aggregated: { client: "website", status: "active", timestamp: 1000 },
      website: { client: "website", status: "active", timestamp: 1000, pushable: false },
    });
    expect(legacyPresence({ last_active_time: 1000, last_connected_time: 1071, date_joined: 0 }).website).toEqual({ client: "website", status: "idle", timestamp: 1071, pushable: false });
  });
});
