import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type TestServer } from "../helpers/server";
import { createChannel } from "../helpers/channels";
import { sendStream } from "../helpers/messages";
import { fetchRaw, upload } from "../helpers/uploads";
import { createMetricsServer } from "../../src/server";

/** The value of one series in Prometheus' text format (undefined when absent). */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("GET /health", () => {
  let s: TestServer;
  beforeAll(async () => {
    // an unauthenticated limit of 2 a minute: a monitor polling /health must not run into it
    s = await startServer({ config: (c) => (c.rate_limit.unauthenticated_per_minute = 2) });
  });
  afterAll(() => s.close());

  test("answers 200 with a tiny JSON body, without credentials, as often as a monitor asks", async () => {
    for (let i = 0; i < 10; i++) {
      const r = await fetchRaw(s, "/health");
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("application/json");
      expect(r.headers.get("cache-control")).toContain("no-store");
      expect(await r.json()).toEqual({ status: "ok" });
    }
    const head = await fetchRaw(s, "/health", { method: "HEAD" });
    expect(head.status).toBe(200);
    // the API's own unauthenticated limit still applies there
    const api = await Promise.all([1, 2, 3].map(() => s.anonymous.get("/server_settings")));
    expect(api.map((r) => r.status)).toContain(429);
  });

  test("answers 503 when the database does not answer, and logs why (the caller learns nothing more)", async () => {
    const logged: string[] = [];
    const log = s.app.log;
    const get = s.app.db.get;
    s.app.log = { ...log, error: (msg, extra) => void logged.push(`${msg} ${JSON.stringify(extra)}`) };
    s.app.db.get = async () => {
      throw new Error("disk I/O error");
    };
    try {
      const r = await fetchRaw(s, "/health");
      expect(r.status).toBe(503);
      expect(await r.json()).toEqual({ status: "unavailable" });
      expect(logged).toEqual(['health check: the database does not answer {"error":"disk I/O error"}']);
    } finally {
      s.app.db.get = get;
      s.app.log = log;
    }
    expect((await fetchRaw(s, "/health")).status).toBe(200);
  });

  test("is not metrics: /metrics is not served while [metrics] enabled is false", async () => {
    const r = await fetchRaw(s, "/metrics");
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ result: "error", msg: "Not Found" });
  });
});

describe("GET /metrics on the main port", () => {
  let s: TestServer;
  const token = "metrics-token-0123456789";
  const scrape = async () => {
    await Bun.sleep(5); // Elysia records a request just after its response is handed over
    const r = await fetchRaw(s, "/metrics", { headers: { authorization: `Bearer ${token}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    return r.text();
  };
  beforeAll(async () => {
    s = await startServer({
      config: (c) => {
        c.metrics.enabled = true;
        c.metrics.token = token;
      },
    });
    await createChannel(s, "iago", "Gauges", { subscribers: ["hamlet", "othello"] });
  });
  afterAll(() => s.close());

  test("needs the token: none, another scheme or a wrong one is refused with 401", async () => {
    for (const headers of [{} as Record<string, string>, { authorization: "Basic " + btoa(`${s.users.iago.email}:${s.users.iago.apiKey}`) }, { authorization: `Bearer ${token}x` }, { authorization: `Bearer ${token.slice(1)}` }]) {
      const r = await fetchRaw(s, "/metrics", { headers });
      expect(r.status).toBe(401);
      expect(r.headers.get("www-authenticate")).toBe('Bearer realm="parley metrics"');
      expect(await r.json()).toMatchObject({ result: "error", code: "UNAUTHORIZED" });
    }
  });

  test("counts requests by route template and status, with latency histograms", async () => {
    const before = await scrape();
    const id = await sendStream(s, "hamlet", "Gauges", "t", "zebra crossing");
    await sendStream(s, "hamlet", "Gauges", "t", "zebra again");
    (await s.users.hamlet.client.get(`/messages/${id}`)).success();
    (await s.users.hamlet.client.get(`/messages/${id + 1000}`)).error("Invalid message(s)", "BAD_REQUEST");
    await fetchRaw(s, "/api/v1/no/such/thing/42", { as: "hamlet" });
    const text = await scrape();
    const delta = (series: string) => (sample(text, series) ?? 0) - (sample(before, series) ?? 0);
    expect(delta('parley_http_requests_total{method="POST",route="/api/v1/messages",status="200"}')).toBe(2);
    expect(delta('parley_http_requests_total{method="GET",route="/api/v1/messages/:id",status="200"}')).toBe(1);
    expect(delta('parley_http_requests_total{method="GET",route="/api/v1/messages/:id",status="400"}')).toBe(1);
    expect(delta('parley_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(delta('parley_http_request_duration_seconds_count{method="POST",route="/api/v1/messages"}')).toBe(2);
    expect(sample(text, 'parley_http_request_duration_seconds_bucket{le="60",method="POST",route="/api/v1/messages"}')).toBe(sample(text, 'parley_http_request_duration_seconds_count{method="POST",route="/api/v1/messages"}'));
    expect(sample(text, 'parley_http_request_duration_seconds_sum{method="POST",route="/api/v1/messages"}')).toBeGreaterThan(0);
    // bounded labels: no raw path, no id
    expect(text).not.toContain(`/messages/${id}"`);
    expect(text).not.toContain("/no/such/thing");
    expect(delta("parley_messages_sent_total")).toBe(2);
  });

  test("reports event queues, held long-polls, database and upload sizes, and process memory; never user data", async () => {
    const queue = (await s.users.othello.client.post("/register", { event_types: ["message"] })).success();
    const poll = s.users.othello.client.get("/events", { queue_id: queue.queue_id, last_event_id: queue.last_event_id });
    await Bun.sleep(20);
    const file = await upload(s, "hamlet", "report.txt", "x".repeat(1234), "text/plain");
    let text = await scrape();
    expect(sample(text, "parley_event_queues")).toBe(s.app.events.size);
    expect(sample(text, "parley_event_polls_held")).toBe(1);
    expect(sample(text, "parley_uploads_files")).toBe(1);
    expect(sample(text, "parley_uploads_bytes")).toBe(1234);
    expect(sample(text, "parley_database_bytes")).toBeGreaterThan(100_000);
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(10_000_000);
    expect(text).toContain(`parley_info{version="`);
    expect(text).not.toContain("nodejs_heap_space_size"); // V8-only series, zeros under Bun
    await sendStream(s, "hamlet", "Gauges", "t", `the file ${file.url}`);
    await poll;
    text = await scrape();
    expect(sample(text, "parley_event_polls_held")).toBe(0);
    for (const secret of [s.users.hamlet.email, s.users.hamlet.apiKey, "Gauges", "report.txt", "zebra"]) expect(text).not.toContain(secret);
  });
});

describe("metrics on a listener of their own ([metrics] port)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({
      config: (c) => {
        c.metrics.enabled = true;
        c.metrics.port = 9999; // not listened on in-process: createMetricsServer is asked directly
      },
    });
  });
  afterAll(() => s.close());

  test("the main port does not serve /metrics; the metrics server serves it (and /health) without a token", async () => {
    expect((await fetchRaw(s, "/metrics")).status).toBe(404);
    (await s.users.iago.client.get("/users/me")).success();
    await Bun.sleep(5);
    const metricsServer = createMetricsServer(s.app);
    const r = await metricsServer.handle(new Request("http://parley.test/metrics"));
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(sample(text, 'parley_http_requests_total{method="GET",route="/api/v1/users/me",status="200"}')).toBe(1);
    const h = await metricsServer.handle(new Request("http://parley.test/health"));
    expect(await h.json()).toEqual({ status: "ok" });
    expect((await metricsServer.handle(new Request("http://parley.test/api/v1/users/me"))).status).toBe(404);
  });
});

describe("parley serve with [metrics] port", () => {
  test("listens for metrics on their own address, and the main port has none", async () => {
    const root = mkdtempSync(join(tmpdir(), "parley-metrics-"));
    const free = () => {
      const x = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
      const port = x.port!;
      x.stop(true);
      return port;
    };
    const [port, metricsPort] = [free(), free()];
    const config = join(root, "parley.toml");
    writeFileSync(config, `[metrics]\nenabled = true\nport = ${metricsPort}\n`);
    const proc = Bun.spawn([process.execPath, join(import.meta.dir, "../../src/main.ts"), "serve", "--config", config, "--data-dir", join(root, "data"), "--port", String(port)], {
      env: { ...process.env, PARLEY_CONFIG: "" },
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      let r: Response | null = null;
      for (let i = 0; i < 200 && !r; i++) {
        r = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).catch(() => null);
        if (!r) await Bun.sleep(50);
      }
      expect(r?.status).toBe(200);
      expect(await r!.text()).toContain("parley_event_queues 0");
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
    } finally {
      proc.kill("SIGKILL");
      rmSync(root, { recursive: true, force: true });
    }
  }, 30_000);
});
