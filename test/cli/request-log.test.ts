// `parley serve`'s request log and [server] trusted_proxies, through real sockets: the client address
// that rate limits and log lines use is the socket's peer, unless that peer is a trusted proxy.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../helpers/executable";
import { runParley, startParley, type ServeProcess } from "../helpers/serve-process";

const root = mkdtempSync(join(tmpdir(), "parley-reqlog-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** init + serve with this TOML (the port added); returns the server and the owner's credentials. */
async function serveWith(toml: string) {
  const dir = join(root, `d${++n}`);
  const file = join(root, `c${n}.toml`);
  writeFileSync(file, `${toml}\n`);
  const init = runParley(["init", "--config", file, "--data-dir", dir, "--org-name", "Log", "--email", "owner@example.com", "--full-name", "Owner"]);
  if (init.code !== 0) throw new Error(init.err);
  const owner = JSON.parse(init.out) as { user_id: number; email: string; api_key: string };
  const s = await startParley(["serve", "--config", file, "--data-dir", dir, "--port", String(freePort())]);
  return { s, owner, auth: { authorization: "Basic " + btoa(`${owner.email}:${owner.api_key}`) } };
}

/** The log's lines once the server has stopped (request lines are written once per event-loop turn). */
async function stoppedLines(s: ServeProcess): Promise<string[]> {
  expect(await s.stop()).toBe(0);
  return s.stderr().split("\n").filter(Boolean);
}

const settings = (s: ServeProcess, forwardedFor?: string) =>
  fetch(`${s.base}/api/v1/server_settings`, { headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} }).then((r) => r.status);

describe("the request log", () => {
  test("one text line per request: method, path without query, status, duration, client and user; no secrets", async () => {
    const { s, owner, auth } = await serveWith("");
    await fetch(`${s.base}/api/v1/users/me?api_key=${owner.api_key}`, { headers: auth });
    await fetch(`${s.base}/api/v1/users/me`, { headers: { authorization: "Basic " + btoa(`${owner.email}:${"x".repeat(32)}`) } });
    await fetch(`${s.base}/join/SECRETINVITEKEY/`);
    await fetch(`${s.base}/api/v1/no/such/endpoint`);
    const lines = await stoppedLines(s);
    const requests = lines.filter((l) => / (GET|POST) \//.test(l));
    const at = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z";
    expect(requests.length).toBe(4);
    expect(requests[0]).toMatch(new RegExp(`^${at} info GET /api/v1/users/me 200 \\d+(\\.\\d)?ms 127\\.0\\.0\\.1 user=${owner.user_id}$`));
    expect(requests[1]).toMatch(new RegExp(`^${at} info GET /api/v1/users/me 401 \\d+(\\.\\d)?ms 127\\.0\\.0\\.1$`));
    expect(requests[2]).toMatch(new RegExp(`^${at} info GET /join/\\[hidden\\]/ 404 \\d+(\\.\\d)?ms 127\\.0\\.0\\.1$`));
    expect(requests[3]).toMatch(new RegExp(`^${at} info GET /api/v1/no/such/endpoint 404 `));
    const all = lines.join("\n");
    expect(all).not.toContain(owner.api_key);
    expect(all).not.toContain("SECRETINVITEKEY");
  }, 30_000);

  test("format = json writes JSON lines; level = warn leaves request lines out", async () => {
    const json = await serveWith('[log]\nformat = "json"');
    await fetch(`${json.s.base}/api/v1/users/me`, { headers: json.auth });
    const entries = (await stoppedLines(json.s)).map((l) => JSON.parse(l));
    expect(entries.find((e) => e.msg === "request")).toEqual({
      time: expect.stringMatching(/Z$/),
      level: "info",
      msg: "request",
      method: "GET",
      path: "/api/v1/users/me",
      status: 200,
      ms: expect.any(Number),
      client: "127.0.0.1",
      user_id: json.owner.user_id,
    });
    expect(entries.at(-1)).toMatchObject({ level: "info", msg: "shutting down" });

    const warn = await serveWith('[log]\nlevel = "warn"');
    await fetch(`${warn.s.base}/api/v1/users/me`, { headers: warn.auth });
    expect(await stoppedLines(warn.s)).toEqual([]);
  }, 30_000);
});

describe("trusted_proxies", () => {
  test("without it, X-Forwarded-For is ignored: every request counts against the socket's address", async () => {
    const { s } = await serveWith("[rate_limit]\nunauthenticated_per_minute = 2");
    expect([await settings(s, "203.0.113.5"), await settings(s, "203.0.113.6"), await settings(s, "203.0.113.7")]).toEqual([200, 200, 429]);
    const lines = (await stoppedLines(s)).filter((l) => l.includes("/server_settings"));
    expect(lines.map((l) => [l.split(" ")[4], l.split(" ").at(-1)])).toEqual([
      ["200", "127.0.0.1"],
      ["200", "127.0.0.1"],
      ["429", "127.0.0.1"],
    ]);
  }, 30_000);

  test("from a trusted proxy, the right-most untrusted forwarded address is the client for rate limits and logs", async () => {
    const { s } = await serveWith('[server]\ntrusted_proxies = ["127.0.0.1", "10.0.0.0/8"]\n[rate_limit]\nunauthenticated_per_minute = 2');
    // the client may put anything left of what the proxies append: "6.6.6.6" proves nothing
    expect(await settings(s, "6.6.6.6, 203.0.113.5, 10.1.2.3")).toBe(200);
    expect(await settings(s, "203.0.113.5")).toBe(200);
    expect(await settings(s, "7.7.7.7, 203.0.113.5")).toBe(429); // the same client, a third time
    expect(await settings(s, "203.0.113.6")).toBe(200); // another client has its own count
    expect(await settings(s)).toBe(200); // the proxy itself
    const clients = (await stoppedLines(s)).filter((l) => l.includes("/server_settings")).map((l) => l.split(" ").at(-1));
    expect(clients).toEqual(["203.0.113.5", "203.0.113.5", "203.0.113.5", "203.0.113.6", "127.0.0.1"]);
  }, 30_000);
});
