import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expireTusUploads } from "../../src/actions/tus";
import { logIn } from "../../src/actions/sessions";
import { hashPassword } from "../../src/actions/users";
import { waitForThumbnails } from "../../src/actions/uploads";
import { csrfToken } from "../../src/domain/csrf";
import { SESSION_COOKIE } from "../../src/http/auth";
import type { CastName } from "../helpers/server";
import { startServer, type TestServer } from "../helpers/server";
import { fetchRaw, imageMeta, makePng, pathIdOf } from "../helpers/uploads";

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ config: (c) => void (c.limits.max_file_upload_size_mib = 1) });
});
afterAll(() => s.close());

const TUS = { "tus-resumable": "1.0.0" };
const meta = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString("base64")}`)
    .join(",");
const tusDir = () => join(s.app.config.storage.uploads_dir, "tus");

async function create(as: CastName, length: number, metadata = meta({ filename: "big file.bin", filetype: "application/octet-stream" }), extra: Record<string, string> = {}) {
  return fetchRaw(s, "/api/v1/tus", { as, method: "POST", headers: { ...TUS, "upload-length": String(length), "upload-metadata": metadata, ...extra } });
}

async function createOk(as: CastName, length: number, fileName = "big file.bin"): Promise<string> {
  const r = await create(as, length, meta({ filename: fileName }));
  expect(r.status).toBe(201);
  return r.headers.get("location")!;
}

const patch = (as: CastName, location: string, offset: number, body: BodyInit | Uint8Array, extra: Record<string, string> = {}) =>
  fetchRaw(s, location, { as, method: "PATCH", headers: { ...TUS, "content-type": "application/offset+octet-stream", "upload-offset": String(offset), ...extra }, body: body as BodyInit });

const head = (as: CastName, location: string) => fetchRaw(s, location, { as, method: "HEAD", headers: TUS });

/** A body that delivers `bytes` and then fails, like a connection that drops mid-chunk. */
function droppingBody(bytes: Uint8Array): BodyInit {
  let sent = false;
  return new ReadableStream({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(bytes);
      } else controller.error(new Error("connection reset"));
    },
  });
}

function data(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + 7) % 256;
  return out;
}

describe("discovery", () => {
  test("OPTIONS advertises the version, extensions and maximum size", async () => {
    const r = await fetchRaw(s, "/api/v1/tus", { method: "OPTIONS" });
    expect(r.status).toBe(204);
    expect(r.headers.get("tus-resumable")).toBe("1.0.0");
    expect(r.headers.get("tus-version")).toBe("1.0.0");
    expect(r.headers.get("tus-extension")!.split(",")).toEqual(expect.arrayContaining(["creation", "termination", "expiration"]));
    expect(r.headers.get("tus-max-size")).toBe(String(1024 * 1024));
  });
});

describe("a resumable upload", () => {
  test("create, PATCH in chunks, resume after an interruption via HEAD, finish as an attachment", async () => {
    const bytes = data(300_000);
    const r = await create("hamlet", bytes.length);
    expect(r.status).toBe(201);
    expect(r.headers.get("tus-resumable")).toBe("1.0.0");
    const location = r.headers.get("location")!;
    expect(location).toMatch(/^\/api\/v1\/tus\/[0-9a-f]{32}$/);
    expect(new Date(r.headers.get("upload-expires")!).getTime()).toBeGreaterThan(s.clock.now());

    let h = await head("hamlet", location);
    expect(h.status).toBe(200);
    expect(h.headers.get("upload-offset")).toBe("0");
    expect(h.headers.get("upload-length")).toBe("300000");
    expect(h.headers.get("cache-control")).toBe("no-store");
    expect(h.headers.get("upload-metadata")).toContain("filename ");

    let p = await patch("hamlet", location, 0, bytes.subarray(0, 100_000));
    expect(p.status).toBe(204);
    expect(p.headers.get("upload-offset")).toBe("100000");
    expect(p.headers.get("tus-resumable")).toBe("1.0.0");

    // The connection drops in the middle of the second chunk: what arrived is kept.
    p = await patch("hamlet", location, 100_000, droppingBody(bytes.subarray(100_000, 150_000)));
    expect(p.status).toBeGreaterThanOrEqual(400);
    h = await head("hamlet", location);
    expect(h.headers.get("upload-offset")).toBe("150000");

    // Resuming from a stale offset is a conflict.
    p = await patch("hamlet", location, 100_000, bytes.subarray(100_000, 200_000));
    expect(p.status).toBe(409);

    p = await patch("hamlet", location, 150_000, bytes.subarray(150_000, 250_000));
    expect(p.headers.get("upload-offset")).toBe("250000");

    let done: Response;
    const events = await s.captureEvents(async () => {
      done = await patch("hamlet", location, 250_000, bytes.subarray(250_000));
    });
    expect(done!.status).toBe(200);
    expect(done!.headers.get("upload-offset")).toBe("300000");
    const body = await done!.json();
    expect(body).toMatchObject({ result: "success", msg: "", filename: "big-file.bin" });
    expect(body.url).toMatch(/^\/user_uploads\/\d+\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/big-file\.bin$/);
    expect(body.uri).toBe(body.url);

    const pathId = pathIdOf(body.url);
    expect(Buffer.from(readFileSync(join(s.app.config.storage.uploads_dir, pathId))).equals(Buffer.from(bytes))).toBe(true);
    const row = await s.app.db.get<any>("SELECT * FROM attachments WHERE path_id = ?", [pathId]);
    expect(row).toMatchObject({ owner_id: s.users.hamlet.id, size: 300_000, file_name: "big-file.bin" });
    expect(events.of("hamlet")).toEqual([expect.objectContaining({ type: "attachment", op: "add" })]);
    const download = await fetchRaw(s, body.url, { as: "hamlet" });
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);

    // A client that lost the last response learns the URL from HEAD.
    h = await head("hamlet", location);
    expect(h.headers.get("upload-offset")).toBe("300000");
    expect(h.headers.get("upload-url")).toBe(body.url);
    // Nothing more can be appended.
    expect((await patch("hamlet", location, 300_000, new Uint8Array(1))).status).toBe(409);
    expect(readdirSync(tusDir()).filter((n) => n.endsWith(".bin"))).toEqual([]);
  });

  test("creation-with-upload: the POST body is the first chunk", async () => {
    const r = await fetchRaw(s, "/api/v1/tus", {
      as: "hamlet",
      method: "POST",
      headers: { ...TUS, "upload-length": "10", "upload-metadata": meta({ filename: "small.txt" }), "content-type": "application/offset+octet-stream" },
      body: "hello",
    });
    expect(r.status).toBe(201);
    expect(r.headers.get("upload-offset")).toBe("5");
    const location = r.headers.get("location")!;
    const done = await patch("hamlet", location, 5, " tus!");
    expect(done.status).toBe(200);
    const { url } = await done.json();
    expect(await (await fetchRaw(s, url, { as: "hamlet" })).text()).toBe("hello tus!");
  });

  test("a finished image is thumbnailed like any upload", async () => {
    const png = await makePng(900, 600);
    const location = await createOk("hamlet", png.length, "tus.png");
    const { url } = await (await patch("hamlet", location, 0, png)).json();
    await waitForThumbnails(s.app);
    const thumb = await fetchRaw(s, `/user_uploads/thumbnail/${pathIdOf(url)}/840x560.webp`, { as: "hamlet" });
    expect(thumb.status).toBe(200);
    expect((await imageMeta(new Uint8Array(await thumb.arrayBuffer()))).width).toBe(840);
  });

  test("the web client's session cookie is accepted (with its CSRF token for writes)", async () => {
    await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword("pw"), s.users.cordelia.id]);
    const session = await logIn(s.app, "cordelia@zulip.com", "pw", "local");
    const cookie = `${SESSION_COOKIE}=${session.token}`;
    const csrf = { "x-csrftoken": csrfToken(session.token) };
    const noCsrf = await fetchRaw(s, "/api/v1/tus", { method: "POST", headers: { ...TUS, cookie, "upload-length": "3" } });
    expect(noCsrf.status).toBe(403);
    const r = await fetchRaw(s, "/api/v1/tus", { method: "POST", headers: { ...TUS, cookie, ...csrf, "upload-length": "3", "upload-metadata": meta({ filename: "c.txt" }) } });
    expect(r.status).toBe(201);
    const location = r.headers.get("location")!;
    expect((await fetchRaw(s, location, { method: "HEAD", headers: { ...TUS, cookie } })).headers.get("upload-offset")).toBe("0");
    const done = await fetchRaw(s, location, {
      method: "PATCH",
      headers: { ...TUS, cookie, ...csrf, "content-type": "application/offset+octet-stream", "upload-offset": "0" },
      body: "abc",
    });
    expect(done.status).toBe(200);
    const { url } = await done.json();
    expect((await s.app.db.get<any>("SELECT owner_id FROM attachments WHERE path_id = ?", [pathIdOf(url)]))!.owner_id).toBe(s.users.cordelia.id);
  });

  test("the web app's /json/tus keeps its uploads under /json/tus: session cookie, CSRF token on writes, HEAD to resume, an attachment at the end", async () => {
    await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword("pw"), s.users.othello.id]);
    const session = await logIn(s.app, "othello@zulip.com", "pw", "local");
    const cookie = `${SESSION_COOKIE}=${session.token}`;
    const csrf = { "x-csrftoken": csrfToken(session.token) };
    const options = await fetchRaw(s, "/json/tus", { method: "OPTIONS" });
    expect({ status: options.status, version: options.headers.get("tus-version") }).toEqual({ status: 204, version: "1.0.0" });
    const r = await fetchRaw(s, "/json/tus", { method: "POST", headers: { ...TUS, cookie, ...csrf, "upload-length": "6", "upload-metadata": meta({ filename: "notes.txt", filetype: "text/plain" }) } });
    expect(r.status).toBe(201);
    const location = r.headers.get("location")!;
    expect(location).toMatch(/^\/json\/tus\/[0-9a-f]{32}$/);
    const chunk = (offset: number, body: string, extra: Record<string, string> = csrf) =>
      fetchRaw(s, location, { method: "PATCH", headers: { ...TUS, cookie, ...extra, "content-type": "application/offset+octet-stream", "upload-offset": String(offset) }, body });
    expect((await chunk(0, "abc", {})).status).toBe(403);
    expect((await chunk(0, "abc")).status).toBe(204);
    const state = await fetchRaw(s, location, { method: "HEAD", headers: { ...TUS, cookie } });
    expect({ status: state.status, offset: state.headers.get("upload-offset"), length: state.headers.get("upload-length") }).toEqual({ status: 200, offset: "3", length: "6" });
    const done = await chunk(3, "def");
    expect(done.status).toBe(200);
    const { url, filename } = await done.json();
    expect(filename).toBe("notes.txt");
    const stored = await s.app.db.get<{ owner_id: number; size: number; file_name: string }>("SELECT owner_id, size, file_name FROM attachments WHERE path_id = ?", [pathIdOf(url)]);
    expect(stored).toEqual({ owner_id: s.users.othello.id, size: 6, file_name: "notes.txt" });
    // the same upload is not reachable for someone else, under either prefix
    const other = await fetchRaw(s, location, { as: "hamlet", method: "HEAD", headers: TUS });
    expect(other.status).toBe(404);
    const terminate = await fetchRaw(s, location.replace("/json/", "/api/v1/"), { as: "hamlet", method: "DELETE", headers: TUS });
    expect(terminate.status).toBe(404);
  });

  test("X-HTTP-Method-Override lets a POST stand for PATCH", async () => {
    const location = await createOk("hamlet", 4, "override.txt");
    const r = await fetchRaw(s, location, {
      as: "hamlet",
      method: "POST",
      headers: { ...TUS, "x-http-method-override": "PATCH", "content-type": "application/offset+octet-stream", "upload-offset": "0" },
      body: "data",
    });
    expect(r.status).toBe(200);
  });
});

describe("refusals", () => {
  test("no credentials, a missing Tus-Resumable header, and a bad Upload-Length", async () => {
    let r = await fetchRaw(s, "/api/v1/tus", { method: "POST", headers: { ...TUS, "upload-length": "10" } });
    expect(r.status).toBe(401);
    expect((await r.json()).code).toBe("UNAUTHORIZED");
    r = await fetchRaw(s, "/api/v1/tus", { as: "hamlet", method: "POST", headers: { "upload-length": "10" } });
    expect(r.status).toBe(412);
    expect(r.headers.get("tus-version")).toBe("1.0.0");
    r = await fetchRaw(s, "/api/v1/tus", { as: "hamlet", method: "POST", headers: { "tus-resumable": "0.2.2", "upload-length": "10" } });
    expect(r.status).toBe(412);
    r = await fetchRaw(s, "/api/v1/tus", { as: "hamlet", method: "POST", headers: TUS });
    expect(r.status).toBe(400);
    expect((await r.json()).msg).toBe("Missing Upload-Length header");
    for (const bad of ["-1", "abc", "1.5", ""]) expect((await create("hamlet", 0, undefined, { "upload-length": bad })).status).toBe(400);
    expect((await create("hamlet", 0)).status).toBe(400);
    expect((await fetchRaw(s, "/api/v1/tus", { as: "hamlet", method: "POST", headers: { ...TUS, "upload-defer-length": "1" } })).status).toBe(400);
  });

  test("an upload larger than the limit is refused at creation with 413", async () => {
    const r = await create("hamlet", 1024 * 1024 + 1);
    expect(r.status).toBe(413);
    expect((await r.json()).msg).toBe("Uploaded file is larger than the allowed limit of 1 MiB");
  });

  test("malformed Upload-Metadata is refused", async () => {
    for (const m of ["filename", "filename not*base64", "a b,a c", "filename YQ== extra"]) {
      const r = await create("hamlet", 10, m);
      expect({ m, status: r.status }).toEqual({ m, status: m === "filename" ? 201 : 400 });
    }
  });

  test("PATCH needs the offset+octet-stream type, the current offset, and must not overrun the length", async () => {
    const location = await createOk("hamlet", 10);
    expect((await patch("hamlet", location, 0, "abc", { "content-type": "text/plain" })).status).toBe(415);
    expect((await patch("hamlet", location, 3, "abc")).status).toBe(409);
    const missing = await fetchRaw(s, location, { as: "hamlet", method: "PATCH", headers: { ...TUS, "content-type": "application/offset+octet-stream" }, body: "x" });
    expect(missing.status).toBe(400);
    expect((await patch("hamlet", location, 0, "0123456789AB")).status).toBe(413);
    expect((await head("hamlet", location)).headers.get("upload-offset")).toBe("0");
  });

  test("someone else's upload, an unknown id and a malformed id are 404", async () => {
    const location = await createOk("hamlet", 10);
    expect((await head("othello", location)).status).toBe(404);
    expect((await patch("othello", location, 0, "abc")).status).toBe(404);
    expect((await fetchRaw(s, location, { as: "othello", method: "DELETE", headers: TUS })).status).toBe(404);
    expect((await head("hamlet", "/api/v1/tus/" + "0".repeat(32))).status).toBe(404);
    expect((await head("hamlet", "/api/v1/tus/..%2F..%2Fparley.db")).status).toBe(404);
    expect((await patch("hamlet", "/api/v1/tus/..%2Fx", 0, "abc")).status).toBe(404);
    expect((await head("hamlet", location)).status).toBe(200);
  });

  test("the organization's quota applies at creation", async () => {
    const { setRealmSettings } = await import("../helpers/people");
    await setRealmSettings(s, { upload_quota_mib: 0 });
    try {
      const r = await create("hamlet", 10);
      expect(r.status).toBe(400);
      expect((await r.json()).msg).toBe("Upload would exceed your organization's upload quota.");
    } finally {
      await setRealmSettings(s, { upload_quota_mib: null });
    }
  });
});

describe("termination and expiry", () => {
  test("DELETE terminates an upload and removes its bytes", async () => {
    const location = await createOk("hamlet", 10);
    await patch("hamlet", location, 0, "abc");
    const id = location.split("/").pop()!;
    expect(existsSync(join(tusDir(), `${id}.bin`))).toBe(true);
    const r = await fetchRaw(s, location, { as: "hamlet", method: "DELETE", headers: TUS });
    expect(r.status).toBe(204);
    expect((await head("hamlet", location)).status).toBe(404);
    expect(existsSync(join(tusDir(), `${id}.bin`))).toBe(false);
    expect(existsSync(join(tusDir(), `${id}.json`))).toBe(false);
  });

  test("an interrupted upload expires a day after its last activity and the timer job removes it", async () => {
    const location = await createOk("hamlet", 10);
    await patch("hamlet", location, 0, "abc");
    s.clock.advance(23 * 3600_000);
    expect(await expireTusUploads(s.app)).toBe(0);
    expect((await head("hamlet", location)).status).toBe(200);
    s.clock.advance(2 * 3600_000);
    expect((await head("hamlet", location)).status).toBe(410);
    expect((await patch("hamlet", location, 3, "def")).status).toBe(410);
    expect(await expireTusUploads(s.app)).toBeGreaterThanOrEqual(1);
    expect((await head("hamlet", location)).status).toBe(404);
    const id = location.split("/").pop()!;
    expect(existsSync(join(tusDir(), `${id}.bin`))).toBe(false);
  });
});
