import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const basic = (u: { email: string; apiKey: string }) => "Basic " + btoa(`${u.email}:${u.apiKey}`);
const raw = (init: RequestInit & { path: string }) => s.server.handle(new Request(`http://parley.test${init.path}`, init));

describe("the success envelope", () => {
  test("has result success and an empty msg", async () => {
    const r = (await s.users.hamlet.client.get("/users/me")).success();
    expect(r.result).toBe("success");
    expect(r.msg).toBe("");
    expect(r.ignored_parameters_unsupported).toBeUndefined();
  });

  test("lists parameters the endpoint did not read in ignored_parameters_unsupported, never client", async () => {
    const r = (await s.users.hamlet.client.get("/users/me", { zebra: "1", apple: "2", client: "test" })).success();
    expect(r.ignored_parameters_unsupported).toEqual(["apple", "zebra"]);
  });
});

describe("parameter encodings", () => {
  test("form-encoded bodies carry JSON-encoded lists and booleans", async () => {
    const r = (await s.users.hamlet.client.post("/register", { event_types: ["realm_user"], apply_markdown: true })).success();
    expect(typeof r.queue_id).toBe("string");
    expect(r.realm_users).toBeDefined();
    expect(r.realm_name).toBeUndefined(); // realm state was not asked for
  });

  test("multipart bodies are read like form bodies (zulip-js sends multipart)", async () => {
    const r = (await s.users.hamlet.client.request("POST", "/register", { event_types: ["realm"] }, { multipart: true })).success();
    expect(r.realm_name).toBe("Zulip Dev");
    expect(r.realm_users).toBeUndefined();
  });

  test("JSON bodies are accepted", async () => {
    const res = await raw({ path: "/api/v1/register", method: "POST", headers: { authorization: basic(s.users.hamlet), "content-type": "application/json" }, body: JSON.stringify({ event_types: ["realm"] }) });
    const body = await res.json();
    expect(body.result).toBe("success");
    expect(body.realm_name).toBe("Zulip Dev");
  });

  test("parameters may come in the query string of a POST or DELETE", async () => {
    const reg = (await s.users.hamlet.client.post("/register", { event_types: ["message"] })).success();
    const res = await raw({ path: `/api/v1/events?queue_id=${reg.queue_id}`, method: "DELETE", headers: { authorization: basic(s.users.hamlet) } });
    expect((await res.json()).result).toBe("success");
  });

  test("a boolean that is not true/false is refused with Zulip's text", async () => {
    (await s.users.hamlet.client.post("/register", { apply_markdown: "1" })).error("apply_markdown is not a boolean", "BAD_REQUEST", 400);
    (await s.users.hamlet.client.post("/register", { apply_markdown: "yes" })).error("apply_markdown is not valid JSON", "BAD_REQUEST", 400);
  });

  test("a list that is not a list, and a bad list element, are named", async () => {
    (await s.users.hamlet.client.post("/register", { event_types: "5" })).error("event_types is not a list", "BAD_REQUEST", 400);
    (await s.users.hamlet.client.post("/register", { event_types: [1] })).error("event_types[0] is not a string", "BAD_REQUEST", 400);
  });

  test("an integer that is not an integer is refused", async () => {
    (await s.users.hamlet.client.post("/register", { queue_lifespan_secs: "5.5" })).error("queue_lifespan_secs is not an integer", "BAD_REQUEST", 400);
    (await s.users.hamlet.client.post("/register", { queue_lifespan_secs: -1 })).error("queue_lifespan_secs is too small", "BAD_REQUEST", 400);
  });

  test("a missing required argument is named with REQUEST_VARIABLE_MISSING", async () => {
    const r = (await s.users.hamlet.client.delete("/events")).error("Missing 'queue_id' argument", "REQUEST_VARIABLE_MISSING", 400);
    expect(r.var_name).toBe("queue_id");
  });
});

describe("error envelopes", () => {
  test("an unknown path under /api/v1 gets a 404 envelope", async () => {
    const r = await s.users.hamlet.client.get("/no/such/endpoint");
    r.error("Not Found", "BAD_REQUEST", 404);
  });

  test("a wrong method on a known path gets a 405 envelope naming the allowed methods", async () => {
    const r = await s.users.hamlet.client.request("PUT", "/server_settings");
    expect(r.status).toBe(405);
    expect(r.json).toMatchObject({ result: "error", msg: "Method Not Allowed", allowed_methods: ["GET", "HEAD"] });
  });

  test("invalid JSON in a JSON body gets a 400 envelope", async () => {
    const res = await raw({ path: "/api/v1/register", method: "POST", headers: { authorization: basic(s.users.hamlet), "content-type": "application/json" }, body: "{not json" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ result: "error", code: "INVALID_JSON" });
  });

  test("an unexpected exception gets a 500 envelope with a request id and no stack trace", async () => {
    const original = s.app.db.get;
    s.app.db.get = async () => {
      throw new Error("disk on fire at /secret/path.ts:12");
    };
    try {
      const r = await s.users.hamlet.client.get("/users/me");
      expect(r.status).toBe(500);
      expect(r.json).toMatchObject({ result: "error", msg: "Internal server error" });
      expect(typeof r.json.request_id).toBe("string");
      expect(r.text).not.toContain("disk on fire");
      expect(r.text).not.toContain(".ts");
    } finally {
      s.app.db.get = original;
    }
  });

  test("API responses are JSON with no-cache headers", async () => {
    const r = await s.users.hamlet.client.get("/users/me");
    expect(r.header("content-type")).toContain("application/json");
    expect(r.header("cache-control")).toContain("no-store");
  });
});

describe("rate limiting", () => {
  test("a user over the per-minute limit gets 429 RATE_LIMIT_HIT with Retry-After, and the window resets", async () => {
    const limited = await startServer({ config: (c) => void (c.rate_limit.requests_per_minute = 3) });
    limited.app.config.rate_limit.requests_per_minute = 3;
    try {
      const c = limited.users.hamlet.client;
      for (let i = 0; i < 3; i++) {
        const r = await c.get("/users/me");
        r.success();
        expect(r.header("x-ratelimit-limit")).toBe("3");
        expect(r.header("x-ratelimit-remaining")).toBe(String(2 - i));
      }
      const r = await c.get("/users/me");
      const body = r.error("API usage exceeded rate limit", "RATE_LIMIT_HIT", 429);
      expect(body["retry-after"]).toBeGreaterThan(0);
      expect(Number(r.header("retry-after"))).toBeGreaterThan(0);
      // another user has their own budget
      (await limited.users.othello.client.get("/users/me")).success();
      limited.clock.advance(61_000);
      (await c.get("/users/me")).success();
    } finally {
      await limited.close();
    }
  });
});

describe("methods and sizes", () => {
  test("HEAD is served by the GET handler without a body", async () => {
    const res = await raw({ path: "/api/v1/server_settings", method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  test("OPTIONS answers 204 with the allowed methods", async () => {
    const res = await raw({ path: "/api/v1/events", method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("DELETE, GET, HEAD, OPTIONS");
  });

  test("an oversized body is refused with an envelope before it is read", async () => {
    const res = await raw({ path: "/api/v1/register", method: "POST", headers: { authorization: basic(s.users.hamlet), "content-type": "application/x-www-form-urlencoded", "content-length": String(6 * 1024 * 1024) }, body: "a=1" });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ result: "error", msg: "Request body too large" });
  });
});

describe("route parameter schemas", () => {
  // Elysia's t.Integer(), t.Numeric() and friends compile a validator with `new Function` each time they
  // are built: a schema built inside a handler cost ~35% of POST /users/me/presence. Built once instead.
  test("are module constants, never built inside a request handler", async () => {
    const { readdirSync, readFileSync } = await import("node:fs");
    const dir = new URL("../../src/routes/", import.meta.url).pathname;
    const inline: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      const src = readFileSync(dir + file, "utf8");
      for (const m of src.matchAll(/args\.read\(\s*t\./g)) inline.push(`${file}:${src.slice(0, m.index).split("\n").length}`);
    }
    expect(inline).toEqual([]);
  });
});

describe("layers", () => {
  // Routes and actions reach the database through src/store only (design.md: one store layer).
  test("SQL is written in src/store, never in routes or actions", async () => {
    const { readdirSync, readFileSync } = await import("node:fs");
    const root = new URL("../../src/", import.meta.url).pathname;
    const sql = /["'`]\s*(?:SELECT\s[\s\S]*?\sFROM|INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\s/i;
    const found: string[] = [];
    for (const layer of ["routes", "actions"]) {
      for (const file of readdirSync(root + layer, { recursive: true }) as string[]) {
        if (!file.endsWith(".ts")) continue;
        const lines = readFileSync(`${root}${layer}/${file}`, "utf8").split("\n");
        lines.forEach((line, i) => sql.test(line) && found.push(`${layer}/${file}:${i + 1}`));
      }
    }
    expect(found).toEqual([]);
  });
});
