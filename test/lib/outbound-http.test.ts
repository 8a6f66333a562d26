import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OutboundError, outboundRequest } from "../../src/lib/outbound-http";

let server: Server;
let port: number;
const received: { method: string; path: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer(async (req: IncomingMessage, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    received.push({ method: req.method!, path: req.url!, body });
    if (req.url === "/redirect") return void res.writeHead(302, { location: "/target" }).end("moved");
    if (req.url === "/big") return void res.writeHead(200).end("x".repeat(100_000));
    if (req.url === "/cut") return void (res.writeHead(200, { "content-length": "100" }), res.write("only ten.."), setTimeout(() => res.destroy(), 20));
    if (req.url === "/slow") return void setTimeout(() => res.writeHead(200).end("late"), 2_000);
    res.writeHead(200, { "x-echo": req.headers["x-echo"] ?? "" }).end(`got ${req.method} ${body}`);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => void server.close());

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: OutboundError) => ({ kind: e.kind, message: e.message }),
  );

describe("the outbound HTTP client", () => {
  test("a name resolving to loopback is refused at connect without allowPrivate, and nothing reaches the server", async () => {
    received.length = 0;
    const e = await refusal(outboundRequest({ url: `http://localhost:${port}/hello`, timeoutMs: 5_000, maxBytes: 1000 }));
    expect(e?.kind).toBe("refused");
    expect(e?.message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), not a public address$/);
    expect(received).toEqual([]);
  });

  test("with allowPrivate the same name is reached: method, headers and body go out, status, headers and body come back", async () => {
    received.length = 0;
    const res = await outboundRequest({ url: `http://localhost:${port}/hello`, method: "POST", headers: { "x-echo": "hi" }, body: "ping", timeoutMs: 5_000, maxBytes: 1000, allowPrivate: true });
    expect(res).toMatchObject({ status: 200, truncated: false });
    expect(res.headers["x-echo"]).toBe("hi");
    expect(res.body.toString()).toBe("got POST ping");
    expect(received).toEqual([{ method: "POST", path: "/hello", body: "ping" }]);
  });

  test("literal private, loopback and mapped addresses are refused before any connection", async () => {
    for (const url of [`http://127.0.0.1:${port}/`, "https://10.1.2.3/", "https://[::1]/", "https://[::ffff:127.0.0.1]/", "https://169.254.169.254/latest"]) {
      const e = await refusal(outboundRequest({ url, timeoutMs: 5_000, maxBytes: 1000 }));
      expect(e).toEqual({ kind: "refused", message: `${new URL(url).hostname.replace(/^\[(.*)\]$/, "$1")} is not a public address` });
    }
  });

  test("a URL that is not http(s) is refused", async () => {
    expect(await refusal(outboundRequest({ url: "file:///etc/passwd", timeoutMs: 5_000, maxBytes: 1000, allowPrivate: true }))).toEqual({ kind: "refused", message: "file:// is not http(s)" });
  });

  test("a redirect is returned, not followed", async () => {
    received.length = 0;
    const res = await outboundRequest({ url: `http://127.0.0.1:${port}/redirect`, timeoutMs: 5_000, maxBytes: 1000, allowPrivate: true });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/target");
    expect(received.map((r) => r.path)).toEqual(["/redirect"]);
  });

  test("the body read is bounded by maxBytes and marked truncated", async () => {
    const res = await outboundRequest({ url: `http://127.0.0.1:${port}/big`, timeoutMs: 5_000, maxBytes: 1000, allowPrivate: true });
    expect(res.truncated).toBe(true);
    expect(res.body.toString()).toBe("x".repeat(1000));
    const whole = await outboundRequest({ url: `http://127.0.0.1:${port}/big`, timeoutMs: 5_000, maxBytes: 100_000, allowPrivate: true });
    expect(whole).toMatchObject({ status: 200, truncated: false });
    expect(whole.body.length).toBe(100_000);
  });

  test("a server slower than the timeout gives a timeout error, in about the time given", async () => {
    const started = performance.now();
    const e = await refusal(outboundRequest({ url: `http://127.0.0.1:${port}/slow`, timeoutMs: 200, maxBytes: 1000, allowPrivate: true }));
    expect(e).toEqual({ kind: "timeout", message: "timed out after 200 ms" });
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  test("an aborted signal abandons the request", async () => {
    const stop = new AbortController();
    const pending = refusal(outboundRequest({ url: `http://127.0.0.1:${port}/slow`, timeoutMs: 5_000, maxBytes: 1000, allowPrivate: true, signal: stop.signal }));
    setTimeout(() => stop.abort(), 50);
    expect(await pending).toEqual({ kind: "aborted", message: "aborted" });
  });

  test("an answer cut short is a network error, not a short body", async () => {
    expect((await refusal(outboundRequest({ url: `http://127.0.0.1:${port}/cut`, timeoutMs: 5_000, maxBytes: 1000, allowPrivate: true })))?.kind).toBe("network");
  });

  test("a closed port is a network error, worth another try", async () => {
    expect((await refusal(outboundRequest({ url: "http://127.0.0.1:9/", timeoutMs: 5_000, maxBytes: 1000, allowPrivate: true })))?.kind).toBe("network");
  });
});
