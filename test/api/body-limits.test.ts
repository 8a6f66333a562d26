/**
 * A body over its limit is refused with Zulip's JSON error, and the client reads that answer: the
 * server reads the rest of the body and throws it away (up to a cap) instead of closing the
 * connection under a client that is still sending. Real sockets, and node's HTTP client streaming
 * 30 MB with and without Content-Length, as the EPIPE reports did.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import http from "node:http";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../helpers/server";
import { listenLimits, MAX_BODY_BYTES } from "../../src/server";

setDefaultTimeout(60_000);
const MB = 1_000_000;

let s: TestServer;
let listening: ReturnType<TestServer["server"]["listen"]>;
let port = 0;
beforeAll(async () => {
  s = await startServer();
  listening = s.server.listen({ hostname: "127.0.0.1", port: 0, reusePort: false, ...listenLimits(s.app.config) });
  port = listening.server!.port!;
});
afterAll(async () => {
  await listening.stop(true);
  await s.close();
});

interface Sent {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** bytes of filler ("a") between head and tail */
  size: number;
  head?: string;
  tail?: string;
  /** no Content-Length: node sends the body chunked */
  chunked?: boolean;
}

/**
 * Streams a body with backpressure; resolves once the whole body was written and the whole answer read
 * (a connection closed under the client fails with EPIPE or ECONNRESET instead).
 */
function send(o: Sent): Promise<{ status: number; json: any; headers: http.IncomingHttpHeaders }> {
  const head = Buffer.from(o.head ?? "");
  const tail = Buffer.from(o.tail ?? "");
  const length = head.length + o.size + tail.length;
  const auth = "Basic " + btoa(`${s.users.hamlet.email}:${s.users.hamlet.apiKey}`);
  let written!: () => void;
  const allWritten = new Promise<void>((resolve) => (written = resolve));
  const answered = new Promise<{ status: number; json: any; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, method: o.method ?? "POST", path: o.path, headers: { authorization: auth, ...(o.chunked ? {} : { "content-length": String(length) }), ...o.headers } },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, json: text ? JSON.parse(text) : null, headers: res.headers }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.on("finish", written);
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    req.write(head);
    const pump = () => {
      while (sent < o.size) {
        const n = Math.min(chunk.length, o.size - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once("drain", pump);
      }
      req.end(tail);
    };
    pump();
  });
  return Promise.all([answered, Promise.race([allWritten, answered.then(() => allWritten)])]).then(([r]) => r);
}

const TOO_LARGE = { result: "error", msg: "Request body too large", code: "BAD_REQUEST" };
const messageCount = async () => (await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM messages"))!.n;
const attachmentCount = async () => (await s.app.db.get<{ n: number }>("SELECT count(*) AS n FROM attachments"))!.n;
const FORM = { "content-type": "application/x-www-form-urlencoded" };

describe("a form body over 5 MiB", () => {
  test("with Content-Length: 413 with Zulip's envelope, read by a client still sending 30 MB; nothing is sent", async () => {
    const before = await messageCount();
    const r = await send({ path: "/api/v1/messages", headers: FORM, head: "type=private&to=%5B%5D&content=", size: 30 * MB });
    expect(r.status).toBe(413);
    expect(r.json).toEqual(TOO_LARGE);
    expect(await messageCount()).toBe(before);
  });

  test("chunked: the same answer after the first 5 MiB, and a small chunked body is served as usual", async () => {
    const r = await send({ path: "/api/v1/messages", headers: FORM, head: "type=private&to=%5B%5D&content=", size: 30 * MB, chunked: true });
    expect([r.status, r.json]).toEqual([413, TOO_LARGE]);
    const justUnder = await send({ path: "/api/v1/users/me/presence", headers: FORM, head: "status=active&new_user_input=true&x=", size: MAX_BODY_BYTES - 100, chunked: true });
    expect(justUnder.status).toBe(200);
    expect(justUnder.json.result).toBe("success");
    expect(justUnder.json.ignored_parameters_unsupported).toEqual(["x"]);
  });
});

describe("an upload over the limit (25 MiB)", () => {
  const boundary = "----parley-limit-test";
  const multipart = {
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    head: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    tail: `\r\n--${boundary}--\r\n`,
  };
  const tempFiles = () => {
    const dir = join(s.app.config.storage.uploads_dir, "tmp");
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  for (const chunked of [false, true]) {
    test(`POST /user_uploads, ${chunked ? "chunked" : "with Content-Length"}: Zulip's error, read by the client; no file is kept`, async () => {
      const before = await attachmentCount();
      // 60 MB: what is left after the first 25 MiB must be more than the socket buffers hold
      const r = await send({ path: "/api/v1/user_uploads", ...multipart, size: 60 * MB, chunked });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ result: "error", msg: "Uploaded file is larger than the allowed limit of 25 MiB", code: "BAD_REQUEST" });
      expect(await attachmentCount()).toBe(before);
      expect(tempFiles()).toEqual([]);
    });
  }

  test("tus: a creation declaring 30 MB, with or without its bytes, and too many bytes for a 1 MB upload get 413 with the envelope", async () => {
    const tus = { "tus-resumable": "1.0.0" };
    const declared = await send({ path: "/api/v1/tus", headers: { ...tus, "upload-length": String(30 * MB) }, size: 0 });
    expect(declared.status).toBe(413);
    expect(declared.json).toEqual({ result: "error", msg: "Uploaded file is larger than the allowed limit of 25 MiB", code: "BAD_REQUEST" });
    const created = await send({ path: "/api/v1/tus", headers: { ...tus, "upload-length": String(30 * MB), "content-type": "application/offset+octet-stream" }, size: 30 * MB });
    expect([created.status, created.json]).toEqual([413, TOO_LARGE]);
    const small = await send({ path: "/api/v1/tus", headers: { ...tus, "upload-length": String(MB) }, size: 0 });
    expect(small.status).toBe(201);
    const location = small.headers.location!;
    const patch = (size: number, chunked: boolean) => send({ method: "PATCH", path: location, headers: { ...tus, "upload-offset": "0", "content-type": "application/offset+octet-stream" }, size, chunked });
    const overrun = { result: "error", msg: "Chunk would exceed Upload-Length", code: "BAD_REQUEST" };
    expect(await patch(2 * MB, false)).toMatchObject({ status: 413, json: overrun }); // refused from its Content-Length
    expect(await patch(30 * MB, true)).toMatchObject({ status: 413, json: overrun }); // refused as the bytes pass the length
    expect(await patch(30 * MB, false)).toMatchObject({ status: 413, json: TOO_LARGE }); // longer than any upload
    const offset = await send({ method: "HEAD", path: location, headers: tus, size: 0 });
    expect(offset.headers["upload-offset"]).toBe("0");
  });
});

test("a refusal before the body is even looked at (a wrong API key) is read by the client too", async () => {
  const r = await send({ path: "/api/v1/user_uploads", headers: { authorization: "Basic " + btoa(`${s.users.hamlet.email}:${"x".repeat(32)}`), "content-type": "multipart/form-data; boundary=x" }, size: 20 * MB });
  expect([r.status, r.json]).toEqual([401, { result: "error", msg: "Invalid API key", code: "UNAUTHORIZED" }]);
});

test("the server carries on serving after all that", async () => {
  const r = await send({ method: "GET", path: "/api/v1/users/me", size: 0 });
  expect([r.status, r.json.user_id]).toEqual([200, s.users.hamlet.id]);
});
