import { describe, expect, test } from "bun:test";
import { createLog, type LogOptions } from "../../src/lib/log";
import { loggedPath } from "../../src/http/request-log";

const T = Date.UTC(2026, 0, 2, 3, 4, 5, 6);
function capture(opts: LogOptions = {}) {
  const writes: string[] = [];
  const log = createLog({ now: () => T, write: (t) => writes.push(t), ...opts });
  return { log, writes, lines: () => writes.join("").split("\n").filter(Boolean) };
}
const nextTurn = () => new Promise((r) => setImmediate(r));

describe("request lines", () => {
  test("text: time, level, method, path, status, duration, client and user on one line", async () => {
    const { log, lines } = capture();
    log.request({ method: "POST", path: "/api/v1/messages", status: 200, ms: 3.14159, client: "198.51.100.7", user_id: 12 });
    log.request({ method: "GET", path: "/api/v1/server_settings", status: 200, ms: 0.5, client: "local" });
    await nextTurn();
    expect(lines()).toEqual([
      "2026-01-02T03:04:05.006Z info POST /api/v1/messages 200 3.1ms 198.51.100.7 user=12",
      "2026-01-02T03:04:05.006Z info GET /api/v1/server_settings 200 0.5ms local",
    ]);
  });

  test("json: one object per line with the same fields", async () => {
    const { log, lines } = capture({ format: "json" });
    log.request({ method: "GET", path: "/api/v1/users/me", status: 401, ms: 1.26, client: "::1" });
    log.warn("disk nearly full", { free_mib: 12 });
    expect(lines().map((l) => JSON.parse(l))).toEqual([
      { time: "2026-01-02T03:04:05.006Z", level: "info", msg: "request", method: "GET", path: "/api/v1/users/me", status: 401, ms: 1.3, client: "::1" },
      { time: "2026-01-02T03:04:05.006Z", level: "warn", msg: "disk nearly full", free_mib: 12 },
    ]);
  });

  test("a 5xx answer is logged at error level, so it shows even at level warn", async () => {
    const { log, lines } = capture({ level: "warn" });
    log.request({ method: "GET", path: "/a", status: 200, ms: 1, client: "x" });
    log.request({ method: "GET", path: "/b", status: 503, ms: 1, client: "x" });
    await nextTurn();
    expect(lines()).toEqual(["2026-01-02T03:04:05.006Z error GET /b 503 1ms x"]);
  });

  test("debug adds the user agent", async () => {
    const { log, lines } = capture({ level: "debug" });
    log.request({ method: "GET", path: "/a", status: 200, ms: 1, client: "x", user_agent: 'ZulipMobile/27 "x"' });
    await nextTurn();
    expect(lines()).toEqual(['2026-01-02T03:04:05.006Z info GET /a 200 1ms x ua="ZulipMobile/27 \\"x\\""']);
  });
});

describe("levels and buffering", () => {
  test("entries below the level are dropped; enabled() says which levels are written", () => {
    const { log } = capture({ level: "warn" });
    expect(["debug", "info", "warn", "error"].map((l) => log.enabled(l as any))).toEqual([false, false, true, true]);
    const quiet = capture({ quiet: true });
    quiet.log.error("x");
    expect(quiet.writes).toEqual([]);
    expect(quiet.log.enabled("error")).toBe(false);
  });

  test("info lines of one turn are written together in one write; warnings and errors at once", async () => {
    const { log, writes } = capture({ level: "debug" });
    for (let i = 0; i < 100; i++) log.info("tick", { i });
    log.debug("detail");
    expect(writes).toEqual([]); // nothing yet: gathered for the end of the turn
    await nextTurn();
    expect(writes.length).toBe(1);
    expect(writes[0]!.split("\n").filter(Boolean).length).toBe(101);
    log.info("before");
    log.error("boom", { code: 1 });
    expect(writes.length).toBe(2); // the error took the pending info line with it, in order
    expect(writes[1]).toBe('2026-01-02T03:04:05.006Z info before\n2026-01-02T03:04:05.006Z error boom {"code":1}\n');
  });

  test("flush() writes what is gathered now", () => {
    const { log, writes } = capture();
    log.info("a");
    log.flush();
    expect(writes).toEqual(["2026-01-02T03:04:05.006Z info a\n"]);
  });
});

describe("the logged path carries no secrets", () => {
  test("the query string is left out (API keys and tokens may ride in it)", () => {
    expect(loggedPath("http://h:1/api/v1/messages?api_key=abc&anchor=newest")).toBe("/api/v1/messages");
    expect(loggedPath("https://chat.example.com/")).toBe("/");
  });

  test("invitation keys and temporary upload tokens are hidden", () => {
    expect(loggedPath("http://h/join/s3cr3tk3y/")).toBe("/join/[hidden]/");
    expect(loggedPath("http://h/user_uploads/temporary/T0K3N/photo.png")).toBe("/user_uploads/temporary/[hidden]/photo.png");
  });

  test("a very long path is cut", () => {
    expect(loggedPath(`http://h/${"a".repeat(1000)}`).length).toBeLessThan(310);
  });
});
