import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { closeApp, openApp } from "../../src/app";
import { logIn } from "../../src/actions/sessions";
import { hashPassword } from "../../src/actions/users";
import { onThumbnailsReady, startUploads, waitForThumbnails } from "../../src/actions/uploads";
import { uploadedImages } from "../../src/actions/uploaded-images";
import { SESSION_COOKIE } from "../../src/http/auth";
import { uploadsOf } from "../../src/uploads/runtime";
import { loadSharp } from "../../src/uploads/sharp";
import { createChannel } from "../helpers/channels";
import { startServer, type TestServer } from "../helpers/server";
import { basicAuth, fetchRaw, imageMeta, linkInMessage, makeAnimatedGif, makePng, pathIdOf, upload } from "../helpers/uploads";

let s: TestServer;
let uploadsDir: string;
beforeAll(async () => {
  s = await startServer({ config: (c) => void (c.limits.max_file_upload_size_mib = 1) });
  uploadsDir = s.app.config.storage.uploads_dir;
});
afterAll(() => s.close());

const MIB = 1024 * 1024;
const attachmentRow = (pathId: string) => s.app.db.get<any>("SELECT * FROM attachments WHERE path_id = ?", [pathId]);
const tmpFiles = () => (existsSync(join(uploadsDir, "tmp")) ? readdirSync(join(uploadsDir, "tmp")) : []);

describe("POST /user_uploads", () => {
  test("stores the file and answers with its url, uri and stored filename", async () => {
    let body: any;
    const events = await s.captureEvents(async () => {
      body = await upload(s, "hamlet", "zulip.txt", "zulip!\n", "text/plain");
    });
    expect(body.url).toMatch(new RegExp(`^/user_uploads/${s.app.realm!.id}/[0-9a-f]{2}/[A-Za-z0-9_-]{24}/zulip\\.txt$`));
    expect(body.uri).toBe(body.url);
    expect(body.filename).toBe("zulip.txt");
    const pathId = pathIdOf(body.url);
    expect(readFileSync(join(uploadsDir, pathId), "utf8")).toBe("zulip!\n");
    const row = await attachmentRow(pathId);
    expect(row).toMatchObject({ owner_id: s.users.hamlet.id, file_name: "zulip.txt", size: 7, content_type: "text/plain", thumbnail_state: null });
    const [event] = events.of("hamlet");
    expect(event).toMatchObject({ type: "attachment", op: "add", attachment: { id: row.id, name: "zulip.txt", path_id: pathId, size: 7, messages: [] } });
    expect((event as any).attachment.create_time).toBe(Math.floor(s.clock.now() / 1000) * 1000);
    expect((event as any).upload_space_used).toBeGreaterThanOrEqual(7);
    expect(events.of("othello")).toEqual([]);
    expect(events.of("iago")).toEqual([]);
  });

  test("sanitizes the stored name and percent-encodes it in the URL", async () => {
    const a = await upload(s, "hamlet", "my <weird> file (1).txt", "x");
    expect(a.filename).toBe("my-weird-file-1.txt");
    expect(a.url.endsWith("/my-weird-file-1.txt")).toBe(true);
    const b = await upload(s, "hamlet", "résumé été.txt", "x");
    expect(b.filename).toBe("résumé-été.txt");
    expect(b.url.endsWith("/" + encodeURIComponent("résumé-été.txt"))).toBe(true);
    expect(existsSync(join(uploadsDir, pathIdOf(b.url)))).toBe(true);
    const c = await upload(s, "hamlet", "../../etc/passwd", "x");
    expect(c.filename).toBe("passwd");
    const d = await upload(s, "hamlet", "..", "x");
    expect(d.filename).toBe("uploaded-file");
    const e = await upload(s, "hamlet", ".bashrc", "x");
    expect(e.filename).toBe("uploaded-file.bashrc");
  });

  test("a request without a file part is refused", async () => {
    const c = s.users.hamlet.client;
    (await c.post("/user_uploads", { note: "no file" }, )).error("You must specify a file to upload", "BAD_REQUEST", 400);
    (await c.request("POST", "/user_uploads", { note: "no file" }, { multipart: true })).error("You must specify a file to upload", "BAD_REQUEST", 400);
    (await c.post("/user_uploads")).error("You must specify a file to upload", "BAD_REQUEST", 400);
    const truncated = await fetchRaw(s, "/api/v1/user_uploads", {
      as: "hamlet",
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=XYZ" },
      body: '--XYZ\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nhalf a file',
    });
    expect(truncated.status).toBe(400);
    expect((await truncated.json()).msg).toBe("You must specify a file to upload");
    expect(tmpFiles()).toEqual([]);
  });

  test("two files in one request are refused and nothing is kept", async () => {
    const before = (await s.app.db.get<any>("SELECT count(*) AS n FROM attachments"))!.n;
    const form = new FormData();
    form.append("a", new File(["one"], "one.txt"));
    form.append("b", new File(["two"], "two.txt"));
    const r = await fetchRaw(s, "/api/v1/user_uploads", { as: "hamlet", method: "POST", body: form });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ result: "error", msg: "You may only upload one file at a time", code: "BAD_REQUEST" });
    expect((await s.app.db.get<any>("SELECT count(*) AS n FROM attachments"))!.n).toBe(before);
    expect(tmpFiles()).toEqual([]);
  });

  test("an empty file is refused", async () => {
    (await s.users.hamlet.client.post("/user_uploads", { file: new File([], "empty.txt") })).error("Uploaded file is empty", "BAD_REQUEST", 400);
    expect(tmpFiles()).toEqual([]);
  });

  test("a file over max_file_upload_size_mib is refused while streaming, and nothing is kept", async () => {
    const before = (await s.app.db.get<any>("SELECT count(*) AS n FROM attachments"))!.n;
    (await s.users.hamlet.client.post("/user_uploads", { file: new File([new Uint8Array(MIB + 1)], "big.bin") })).error(
      "Uploaded file is larger than the allowed limit of 1 MiB",
      "BAD_REQUEST",
      400,
    );
    expect((await s.app.db.get<any>("SELECT count(*) AS n FROM attachments"))!.n).toBe(before);
    expect(tmpFiles()).toEqual([]);
    // Exactly the limit is fine.
    const ok = await upload(s, "hamlet", "exact.bin", new Uint8Array(MIB));
    expect((await attachmentRow(pathIdOf(ok.url))).size).toBe(MIB);
  });

  test("a body declared larger than the limit is refused unprocessed, then read to its end and thrown away", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // 48 chunks of 64 KiB: 3 MiB of the declared 50
        if (++pulled > 48) controller.close();
        else controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const r = await fetchRaw(s, "/api/v1/user_uploads", {
      as: "hamlet",
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=XYZ", "content-length": String(50 * MIB) },
      body,
    });
    expect(r.status).toBe(400);
    expect((await r.json()).msg).toBe("Uploaded file is larger than the allowed limit of 1 MiB");
    expect(pulled).toBe(49); // the client could send it all and read the answer (body-limits.test.ts)
    expect(tmpFiles()).toEqual([]);
  });

  test("the organization's upload quota is enforced", async () => {
    const used = (await s.app.db.get<any>("SELECT sum(size) AS n FROM attachments"))!.n as number;
    const { setRealmSettings } = await import("../helpers/people");
    await setRealmSettings(s, { upload_quota_mib: 2 });
    try {
      const room = 2 * MIB - used;
      expect(room).toBeGreaterThan(1000);
      await upload(s, "othello", "fits.bin", new Uint8Array(room - 10));
      (await s.users.othello.client.post("/user_uploads", { file: new File([new Uint8Array(11)], "over.bin") })).error(
        "Upload would exceed your organization's upload quota.",
        "REALM_UPLOAD_QUOTA",
        400,
      );
      expect(tmpFiles()).toEqual([]);
    } finally {
      await setRealmSettings(s, { upload_quota_mib: null });
    }
  });

  test("uploading needs credentials", async () => {
    (await s.anonymous.post("/user_uploads", { file: new File(["x"], "x.txt") })).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
  });
});

describe("GET /user_uploads/{path}", () => {
  let url: string;
  let pathId: string;
  beforeAll(async () => {
    url = (await upload(s, "hamlet", "notes.txt", "0123456789abcdef", "text/plain")).url;
    pathId = pathIdOf(url);
  });

  test("the uploader downloads it with Basic auth, inline as text, privately cached", async () => {
    const r = await fetchRaw(s, url, { as: "hamlet" });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe("0123456789abcdef");
    expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(r.headers.get("content-disposition")).toStartWith("inline;");
    expect(r.headers.get("content-disposition")).toContain('filename="notes.txt"');
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("cache-control")).toStartWith("private");
    expect(r.headers.get("content-length")).toBe("16");
    expect(r.headers.get("etag")).toMatch(/^".+"$/);
    expect(r.headers.get("accept-ranges")).toBe("bytes");
  });

  test("the web client's session cookie works too", async () => {
    await s.app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword("pw-hamlet"), s.users.hamlet.id]);
    const session = await logIn(s.app, "hamlet@zulip.com", "pw-hamlet", "local");
    const r = await fetchRaw(s, url, { headers: { cookie: `${SESSION_COOKIE}=${session.token}` } });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe("0123456789abcdef");
    const bad = await fetchRaw(s, url, { headers: { cookie: `${SESSION_COOKIE}=nope` } });
    expect(bad.status).toBe(401);
  });

  test("others may not read it before it is linked in a message; spectators must log in", async () => {
    const r = await fetchRaw(s, url, { as: "othello" });
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ result: "error", msg: "Access denied", code: "BAD_REQUEST" });
    const anon = await fetchRaw(s, url);
    expect(anon.status).toBe(401);
    expect((await anon.json()).code).toBe("UNAUTHORIZED");
    const wrongKey = await fetchRaw(s, url, { headers: { authorization: "Basic " + btoa(`hamlet@zulip.com:${"x".repeat(32)}`) } });
    expect(wrongKey.status).toBe(401);
  });

  test("HEAD answers the headers without the body", async () => {
    const r = await fetchRaw(s, url, { as: "hamlet", method: "HEAD" });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-length")).toBe("16");
    expect(await r.text()).toBe("");
  });

  test("If-None-Match with the ETag answers 304", async () => {
    const etag = (await fetchRaw(s, url, { as: "hamlet" })).headers.get("etag")!;
    const r = await fetchRaw(s, url, { as: "hamlet", headers: { "if-none-match": etag } });
    expect(r.status).toBe(304);
    expect(await r.text()).toBe("");
    expect((await fetchRaw(s, url, { as: "hamlet", headers: { "if-none-match": `W/${etag}, "other"` } })).status).toBe(304);
    expect((await fetchRaw(s, url, { as: "hamlet", headers: { "if-none-match": '"other"' } })).status).toBe(200);
  });

  test("byte ranges are served as 206, unsatisfiable ones as 416", async () => {
    const get = (range: string, extra: Record<string, string> = {}) => fetchRaw(s, url, { as: "hamlet", headers: { range, ...extra } });
    let r = await get("bytes=0-3");
    expect(r.status).toBe(206);
    expect(r.headers.get("content-range")).toBe("bytes 0-3/16");
    expect(r.headers.get("content-length")).toBe("4");
    expect(await r.text()).toBe("0123");
    r = await get("bytes=10-");
    expect(await r.text()).toBe("abcdef");
    expect(r.headers.get("content-range")).toBe("bytes 10-15/16");
    r = await get("bytes=-3");
    expect(await r.text()).toBe("def");
    r = await get("bytes=12-100");
    expect(r.headers.get("content-range")).toBe("bytes 12-15/16");
    r = await get("bytes=16-20");
    expect(r.status).toBe(416);
    expect(r.headers.get("content-range")).toBe("bytes */16");
    r = await get("bytes=5-2");
    expect(r.status).toBe(416);
    r = await get("bytes=0-1,4-5");
    expect(r.status).toBe(200);
    expect(await r.text()).toBe("0123456789abcdef");
    r = await get("bytes=0-3", { "if-range": '"stale"' });
    expect(r.status).toBe(200);
  });

  test("a path outside uploads or any traversal attempt is a 404 envelope", async () => {
    writeFileSync(join(s.dataDir, "secret.txt"), "secret");
    const [realm, shard, random, name] = pathId.split("/");
    const attempts = [
      "/user_uploads/../../etc/passwd",
      "/user_uploads/%2e%2e/%2e%2e/etc/passwd",
      "/user_uploads/%2E%2E%2F%2E%2E%2Fsecret.txt",
      `/user_uploads/${realm}/..%2f..%2f..%2fsecret.txt`,
      `/user_uploads/${realm}/${shard}/${random}/..%2F..%2F..%2F..%2Fsecret.txt`,
      `/user_uploads/${realm}/${shard}/%2F${random}%2F${name}`,
      "/user_uploads/%2Fetc%2Fpasswd",
      `/user_uploads/${realm}/${shard}/${random}/${name}%00.png`,
      `/user_uploads/${realm}/${shard}/..%5c..%5csecret.txt`,
      "/user_uploads/..%5c..%5csecret.txt",
      `/user_uploads//${pathId}`,
      `/user_uploads/${realm}//${shard}/${random}/${name}`,
      `/user_uploads/${realm}/${shard}/${random}/${name}/..`,
      "/user_uploads/tmp/anything",
      "/user_uploads/%ZZ",
      `/user_uploads/${realm}/${shard}/${random}/nothere.txt`,
      `/user_uploads/thumbnail/%2e%2e%2F${pathId}/840x560.webp`,
      `/user_uploads/thumbnail/${pathId}/..%2F..%2F..%2Fsecret.txt`,
      `/user_uploads/thumbnail/..%2F..%2Fsecret.txt/840x560.webp`,
      "/user_avatars/1/emoji/images/..%2F..%2F..%2Fsecret.txt",
    ];
    for (const path of attempts) {
      const r = await fetchRaw(s, path, { as: "hamlet" });
      expect({ path, status: r.status }).toEqual({ path, status: 404 });
      const body = await r.json();
      expect(body.result).toBe("error");
      expect(body.code).toBe("BAD_REQUEST");
    }
    // A temporary URL's token is only ever checked as a signature: Zulip's "Invalid token".
    const r = await fetchRaw(s, "/user_uploads/temporary/..%2F..%2Fsecret.txt/secret.txt", { as: "hamlet" });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ result: "error", msg: "Invalid token", code: "BAD_REQUEST" });
  });

  test("a stored path that resolves outside uploads_dir (a planted symlink) is never served", async () => {
    const target = join(s.dataDir, "secret.txt");
    writeFileSync(target, "secret");
    const dir = join(uploadsDir, `${s.app.realm!.id}/zz/AAAAAAAAAAAAAAAAAAAAAAAA`);
    mkdirSync(dir, { recursive: true });
    symlinkSync(target, join(dir, "link.txt"));
    const planted = `${s.app.realm!.id}/zz/AAAAAAAAAAAAAAAAAAAAAAAA/link.txt`;
    await s.app.db.run(
      "INSERT INTO attachments (realm_id, owner_id, path_id, file_name, size, content_type, create_time) VALUES (?, ?, ?, 'link.txt', 6, 'text/plain', 0)",
      [s.app.realm!.id, s.users.hamlet.id, planted],
    );
    const r = await fetchRaw(s, `/user_uploads/${planted}`, { as: "hamlet" });
    expect(r.status).toBe(404);
    expect((await r.json()).result).toBe("error");
  });
});

describe("content types", () => {
  const served = async (name: string, data: BlobPart | Uint8Array) => {
    const { url } = await upload(s, "hamlet", name, data);
    const r = await fetchRaw(s, url, { as: "hamlet" });
    return { type: r.headers.get("content-type"), disposition: r.headers.get("content-disposition")!, row: await attachmentRow(pathIdOf(url)) };
  };

  test("types come from the bytes, not the name or the client's word", async () => {
    const png = await served("picture.txt", await makePng(4, 4));
    expect(png.type).toBe("image/png");
    expect(png.disposition).toStartWith("inline");
    const pdf = await served("doc.bin", "%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");
    expect(pdf.type).toBe("application/pdf");
    expect(pdf.disposition).toStartWith("inline");
    const fake = await served("fake.png", "<html><script>alert(1)</script></html>");
    expect(fake.row.content_type).toBe("text/plain");
    expect(fake.type).toBe("text/plain; charset=utf-8");
  });

  test("HTML, SVG and scripts are never served inline or under their own type", async () => {
    for (const [name, data] of [
      ["page.html", "<html><body><script>alert(1)</script></body></html>"],
      ["image.svg", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'],
      ["code.js", "alert(document.cookie)"],
      ["page.xhtml", '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"></html>'],
    ]) {
      const r = await served(name!, data!);
      expect({ name, type: r.type }).toEqual({ name, type: "application/octet-stream" });
      expect(r.disposition).toStartWith("attachment;");
    }
  });

  test("unknown binary data is a download", async () => {
    const r = await served("blob.dat", new Uint8Array([0, 1, 2, 3, 255, 254, 0, 7]));
    expect(r.row.content_type).toBe("application/octet-stream");
    expect(r.disposition).toStartWith("attachment;");
    expect(r.disposition).toContain('filename="blob.dat"');
  });
});

describe("who may read a linked upload", () => {
  test("a public channel: every member, but not a guest who is not subscribed", async () => {
    const streamId = await createChannel(s, "hamlet", "upload town");
    const { url } = await upload(s, "hamlet", "public.txt", "hello");
    const pathId = pathIdOf(url);
    await linkInMessage(s, { sender: "hamlet", streamId, holders: ["hamlet"], paths: [pathId] });
    expect((await fetchRaw(s, url, { as: "othello" })).status).toBe(200);
    expect((await fetchRaw(s, url, { as: "iago" })).status).toBe(200);
    expect((await fetchRaw(s, url, { as: "polonius" })).status).toBe(403);
    expect((await attachmentRow(pathId)).is_realm_public).toBe(1);
  });

  test("a private channel with protected history: only those who received the message", async () => {
    const streamId = await createChannel(s, "hamlet", "secret club", { invite_only: true, history_public_to_subscribers: false, subscribers: ["cordelia"] });
    const { url } = await upload(s, "hamlet", "private.txt", "psst");
    await linkInMessage(s, { sender: "hamlet", streamId, holders: ["hamlet", "cordelia"], paths: [pathIdOf(url)] });
    expect((await fetchRaw(s, url, { as: "cordelia" })).status).toBe(200);
    expect((await fetchRaw(s, url, { as: "othello" })).status).toBe(403);
    expect((await fetchRaw(s, url, { as: "iago" })).status).toBe(403);
    // Subscribed after the message was sent: no history, no file.
    await s.app.db.run("INSERT INTO subscriptions (user_id, stream_id, color) VALUES (?, ?, '#76ce90')", [s.users.othello.id, streamId]);
    expect((await fetchRaw(s, url, { as: "othello" })).status).toBe(403);
  });

  test("a private channel with shared history: every subscriber", async () => {
    const streamId = await createChannel(s, "hamlet", "book club", { invite_only: true, history_public_to_subscribers: true });
    const { url } = await upload(s, "hamlet", "shared.txt", "chapter 1");
    await linkInMessage(s, { sender: "hamlet", streamId, holders: ["hamlet"], paths: [pathIdOf(url)] });
    expect((await fetchRaw(s, url, { as: "shiva" })).status).toBe(403);
    await s.app.db.run("INSERT INTO subscriptions (user_id, stream_id, color) VALUES (?, ?, '#76ce90')", [s.users.shiva.id, streamId]);
    expect((await fetchRaw(s, url, { as: "shiva" })).status).toBe(200);
  });

  test("a direct message: its participants only", async () => {
    const { url } = await upload(s, "othello", "dm.txt", "for your eyes");
    await linkInMessage(s, { sender: "othello", dmWith: ["cordelia"], holders: ["othello", "cordelia"], paths: [pathIdOf(url)] });
    expect((await fetchRaw(s, url, { as: "cordelia" })).status).toBe(200);
    expect((await fetchRaw(s, url, { as: "hamlet" })).status).toBe(403);
    expect((await fetchRaw(s, url, { as: "desdemona" })).status).toBe(403);
  });

  test("a web-public channel: spectators too, when the organization allows them", async () => {
    const { setRealmSettings } = await import("../helpers/people");
    const streamId = await createChannel(s, "desdemona", "on the web", { is_web_public: true }).catch(async () => {
      await setRealmSettings(s, { enable_spectator_access: true });
      return createChannel(s, "desdemona", "on the web", { is_web_public: true });
    });
    const { url } = await upload(s, "desdemona", "web.txt", "world");
    await linkInMessage(s, { sender: "desdemona", streamId, holders: ["desdemona"], paths: [pathIdOf(url)] });
    await setRealmSettings(s, { enable_spectator_access: false });
    expect((await fetchRaw(s, url)).status).toBe(401);
    await setRealmSettings(s, { enable_spectator_access: true });
    try {
      const r = await fetchRaw(s, url);
      expect(r.status).toBe(200);
      expect(await r.text()).toBe("world");
      expect((await attachmentRow(pathIdOf(url))).is_web_public).toBe(1);
    } finally {
      await setRealmSettings(s, { enable_spectator_access: false });
    }
  });
});

describe("temporary URLs", () => {
  test("GET /api/v1/user_uploads/{realm_id}/{path} gives a URL that works without credentials for a minute", async () => {
    const { url } = await upload(s, "hamlet", "temp.txt", "temporary");
    const apiPath = url.replace("/user_uploads/", "/user_uploads/");
    const body = (await s.users.hamlet.client.get(apiPath)).success();
    expect(body.url).toMatch(/^\/user_uploads\/temporary\/[^/]+\/temp\.txt$/);
    let r = await fetchRaw(s, body.url);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe("temporary");
    s.clock.advance(61_000);
    r = await fetchRaw(s, body.url);
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ result: "error", msg: "Invalid token", code: "BAD_REQUEST" });
  });

  test("the URL's file name must be the file's own (Zulip's 'Invalid filename'), encoded or not", async () => {
    const { url } = await upload(s, "hamlet", "résumé été.txt", "cv");
    const body = (await s.users.hamlet.client.get(url)).success();
    expect(body.url.endsWith("/" + encodeURIComponent("résumé-été.txt"))).toBe(true);
    const r = await fetchRaw(s, body.url);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe("cv");
    const token = body.url.split("/")[3];
    const wrong = await fetchRaw(s, `/user_uploads/temporary/${token}/other.txt`);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ result: "error", msg: "Invalid filename", code: "BAD_REQUEST" });
  });

  test("a tampered token is refused", async () => {
    const { url } = await upload(s, "hamlet", "temp2.txt", "temporary");
    const body = (await s.users.hamlet.client.get(url)).success();
    const [, , , token, name] = body.url.split("/");
    const [data, sig] = token.split(".");
    const other = Buffer.from(Buffer.from(data, "base64url").toString().replace("temp2.txt", "temp.txt")).toString("base64url");
    // a changed first character always changes the signature's bytes (the last one may only carry padding bits)
    const forged = `${sig[0] === "A" ? "B" : "A"}${sig.slice(1)}`;
    for (const t of [`${other}.${sig}`, `${data}.${forged}`, data, `${data}.${sig}.x`, "garbage"]) {
      const r = await fetchRaw(s, `/user_uploads/temporary/${t}/${name}`);
      expect(r.status).toBe(400);
      expect((await r.json()).msg).toBe("Invalid token");
    }
  });

  test("only those who may read the file get one; unknown files are 404", async () => {
    const { url } = await upload(s, "hamlet", "temp3.txt", "temporary");
    (await s.users.othello.client.get(url)).error("Access denied", "BAD_REQUEST", 403);
    (await s.users.othello.client.get(`/user_uploads/${s.app.realm!.id}/ab/cdefghijklmnopqrstuvwxyz/none.txt`)).error("File not found", "BAD_REQUEST", 404);
    (await s.users.othello.client.get("/user_uploads/1/..%2F..%2Fsecret")).error("File not found", "BAD_REQUEST", 404);
    (await s.anonymous.get(url)).error("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401);
  });
});

describe("thumbnails", () => {
  test("sharp makes Zulip's 840x560 webp thumbnail of an uploaded image in the background", async () => {
    const notified: number[] = [];
    const off = onThumbnailsReady(s.app, (id) => void notified.push(id));
    try {
      const { url } = await upload(s, "hamlet", "photo.png", await makePng(1200, 900));
      const pathId = pathIdOf(url);
      let row = await attachmentRow(pathId);
      expect(row).toMatchObject({ content_type: "image/png", original_width: 1200, original_height: 900, frames: 1 });
      await waitForThumbnails(s.app);
      row = await attachmentRow(pathId);
      expect(row.thumbnail_state).toBe("done");
      expect(JSON.parse(row.thumbnails)).toEqual(["840x560.webp"]);
      expect(notified).toContain(row.id);
      const r = await fetchRaw(s, `/user_uploads/thumbnail/${pathId}/840x560.webp`, { as: "hamlet" });
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("image/webp");
      expect(r.headers.get("content-disposition")).toStartWith("inline");
      const meta = await imageMeta(new Uint8Array(await r.arrayBuffer()));
      expect(meta.format).toBe("webp");
      expect([meta.width, meta.height]).toEqual([747, 560]);
      // An animated or unknown format name gets the closest one there is.
      expect((await fetchRaw(s, `/user_uploads/thumbnail/${pathId}/840x560-anim.webp`, { as: "hamlet" })).status).toBe(200);
      expect((await fetchRaw(s, `/user_uploads/thumbnail/${pathId}/100x100.webp`, { as: "hamlet" })).status).toBe(200);
      // The same access rule as the image itself.
      expect((await fetchRaw(s, `/user_uploads/thumbnail/${pathId}/840x560.webp`, { as: "othello" })).status).toBe(403);
      expect((await fetchRaw(s, `/user_uploads/thumbnail/${pathId}/840x560.webp`)).status).toBe(401);
    } finally {
      off();
    }
  });

  test("small images are never enlarged, and EXIF rotation is applied", async () => {
    const sharp = await loadSharp();
    const small = await upload(s, "hamlet", "small.png", await makePng(100, 50));
    const rotated = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#aa0000" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const jpeg = await upload(s, "hamlet", "rotated.jpg", rotated);
    await waitForThumbnails(s.app);
    const thumb = await fetchRaw(s, `/user_uploads/thumbnail/${pathIdOf(small.url)}/840x560.webp`, { as: "hamlet" });
    const meta = await imageMeta(new Uint8Array(await thumb.arrayBuffer()));
    expect([meta.width, meta.height]).toEqual([100, 50]);
    const row = await attachmentRow(pathIdOf(jpeg.url));
    expect([row.original_width, row.original_height]).toEqual([200, 300]);
    const rthumb = await fetchRaw(s, `/user_uploads/thumbnail/${pathIdOf(jpeg.url)}/840x560.webp`, { as: "hamlet" });
    const rmeta = await imageMeta(new Uint8Array(await rthumb.arrayBuffer()));
    expect([rmeta.width, rmeta.height]).toEqual([200, 300]);
  });

  test("animated images also get the animated format", async () => {
    const { url } = await upload(s, "hamlet", "anim.gif", await makeAnimatedGif(40, 30, 3));
    const pathId = pathIdOf(url);
    expect((await attachmentRow(pathId)).frames).toBe(3);
    await waitForThumbnails(s.app);
    const row = await attachmentRow(pathId);
    expect(JSON.parse(row.thumbnails)).toEqual(["840x560-anim.webp", "840x560.webp"]);
    const anim = await fetchRaw(s, `/user_uploads/thumbnail/${pathId}/840x560-anim.webp`, { as: "hamlet" });
    expect((await imageMeta(new Uint8Array(await anim.arrayBuffer()))).pages).toBe(3);
    const still = await fetchRaw(s, `/user_uploads/thumbnail/${pathId}/840x560.webp`, { as: "hamlet" });
    expect((await imageMeta(new Uint8Array(await still.arrayBuffer()))).pages ?? 1).toBe(1);
  });

  test("a corrupt image fails cleanly: no thumbnail, the original still downloads", async () => {
    const png = await makePng(64, 64);
    // Garbage after a valid signature: unreadable from the start.
    const junk = Buffer.concat([png.subarray(0, 16), Buffer.from("this is not a png at all".repeat(20))]);
    const a = await upload(s, "hamlet", "junk.png", junk);
    expect((await attachmentRow(pathIdOf(a.url))).thumbnail_state).toBe("failed");
    // A valid header with the pixel data cut off: fails while thumbnailing.
    const sharp = await loadSharp();
    const noisy = await sharp(Buffer.from(Array.from({ length: 300 * 300 * 3 }, (_, i) => (i * 7919) % 251)), { raw: { width: 300, height: 300, channels: 3 } }).png().toBuffer();
    const truncated = noisy.subarray(0, Math.floor(noisy.length / 2));
    const b = await upload(s, "hamlet", "truncated.png", truncated);
    const rowB = await attachmentRow(pathIdOf(b.url));
    expect([rowB.original_width, rowB.original_height]).toEqual([300, 300]);
    await waitForThumbnails(s.app);
    for (const { url } of [a, b]) {
      const row = await attachmentRow(pathIdOf(url));
      expect(row.thumbnail_state).toBe("failed");
      const r = await fetchRaw(s, `/user_uploads/thumbnail/${pathIdOf(url)}/840x560.webp`, { as: "hamlet" });
      expect(r.status).toBe(404);
      expect((await r.json()).msg).toBe("Thumbnail not found");
      expect((await fetchRaw(s, url, { as: "hamlet" })).status).toBe(200);
    }
    expect(existsSync(join(uploadsDir, "thumbnail", pathIdOf(b.url), "840x560.webp"))).toBe(false);
  });

  test("a decompression bomb is never decoded", async () => {
    const sharp = await loadSharp();
    const bomb = await sharp({ create: { width: 10000, height: 10000, channels: 3, background: "#ffffff" } }).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(MIB);
    const { url } = await upload(s, "hamlet", "bomb.png", bomb);
    const row = await attachmentRow(pathIdOf(url));
    expect(row.thumbnail_state).toBe("failed");
    expect(row.original_width).toBeNull();
    await waitForThumbnails(s.app);
    expect((await fetchRaw(s, `/user_uploads/thumbnail/${pathIdOf(url)}/840x560.webp`, { as: "hamlet" })).status).toBe(404);
  });

  test("uploadedImages gives the renderer dimensions, type and the default thumbnail once it exists", async () => {
    const still = pathIdOf((await upload(s, "hamlet", "render me.png", await makePng(320, 240))).url);
    const anim = pathIdOf((await upload(s, "hamlet", "moving.gif", await makeAnimatedGif(20, 10, 2))).url);
    const broken = pathIdOf((await upload(s, "hamlet", "broken.png", Buffer.concat([(await makePng(8, 8)).subarray(0, 16), Buffer.alloc(64)]))).url);
    const text = pathIdOf((await upload(s, "hamlet", "plain.txt", "text")).url);
    await waitForThumbnails(s.app);
    const after = await uploadedImages(s.app, [still, anim, broken, text]);
    expect(after.get(still)!.thumbnailUrl).toBe(`/user_uploads/thumbnail/${s.app.realm!.id}/${still.split("/").slice(1, 3).join("/")}/render-me.png/840x560.webp`);
    expect(after.get(anim)).toMatchObject({ originalDimensions: "20x10", contentType: "image/gif", animated: true });
    expect(after.get(anim)!.thumbnailUrl).toEndWith("/moving.gif/840x560-anim.webp");
    expect(after.has(broken)).toBe(false);
    expect(after.has(text)).toBe(false);
    // While thumbnailing is pending: the facts, without a thumbnail (the renderer shows a spinner).
    await s.app.db.run("UPDATE attachments SET thumbnail_state = 'pending' WHERE path_id = ?", [still]);
    expect((await uploadedImages(s.app, [still])).get(still)).toEqual({ originalDimensions: "320x240", contentType: "image/png", thumbnailUrl: undefined, animated: false });
    await s.app.db.run("UPDATE attachments SET thumbnail_state = 'done' WHERE path_id = ?", [still]);
  });

  test("non-images have no thumbnails", async () => {
    const { url } = await upload(s, "hamlet", "readme.txt", "just text");
    expect((await attachmentRow(pathIdOf(url))).thumbnail_state).toBeNull();
    expect((await fetchRaw(s, `/user_uploads/thumbnail/${pathIdOf(url)}/840x560.webp`, { as: "hamlet" })).status).toBe(404);
  });
});

describe("durability", () => {
  test("temp files of interrupted uploads are removed when the server starts, and pending thumbnails resume", async () => {
    const tmp = join(uploadsDir, "tmp");
    mkdirSync(tmp, { recursive: true });
    writeFileSync(join(tmp, "half-written-upload"), "partial");
    const { url } = await upload(s, "hamlet", "later.png", await makePng(50, 40));
    await waitForThumbnails(s.app);
    // As if the server had stopped before thumbnailing.
    await s.app.db.run("UPDATE attachments SET thumbnail_state = 'pending', thumbnails = NULL WHERE path_id = ?", [pathIdOf(url)]);
    writeFileSync(join(tmp, "half-written-upload"), "partial");
    const app2 = await openApp(s.app.config, { quiet: true });
    try {
      await startUploads(app2);
      expect(readdirSync(tmp)).toEqual([]);
      await waitForThumbnails(app2);
      expect((await attachmentRow(pathIdOf(url))).thumbnail_state).toBe("done");
    } finally {
      await closeApp(app2);
    }
    expect(uploadsOf(s.app).storage.root).toBe(uploadsDir);
  });

  test("an upload the database refuses leaves no file behind", async () => {
    const before = readdirSync(join(uploadsDir, String(s.app.realm!.id)), { recursive: true }).length;
    const { setRealmSettings } = await import("../helpers/people");
    await setRealmSettings(s, { upload_quota_mib: 0 });
    try {
      (await s.users.hamlet.client.post("/user_uploads", { file: new File(["x"], "x.txt") })).error("Upload would exceed your organization's upload quota.", "REALM_UPLOAD_QUOTA", 400);
    } finally {
      await setRealmSettings(s, { upload_quota_mib: null });
    }
    expect(readdirSync(join(uploadsDir, String(s.app.realm!.id)), { recursive: true }).length).toBe(before);
    expect(tmpFiles()).toEqual([]);
  });
});

test("basicAuth helper matches the client's header", () => {
  expect(basicAuth(s, "hamlet").authorization).toStartWith("Basic ");
});

describe("over a real connection", () => {
  test("an upload streams through Bun's server, and an oversized one is refused from its Content-Length", async () => {
    const listening = s.server.listen({ port: 0, hostname: "127.0.0.1", reusePort: false });
    try {
      const base = `http://127.0.0.1:${listening.server!.port}`;
      const headers = basicAuth(s, "othello");
      const form = new FormData();
      form.append("file", new File([new Uint8Array(MIB - 10).fill(65)], "letters.txt"));
      const ok = await fetch(`${base}/api/v1/user_uploads`, { method: "POST", headers, body: form });
      const body = await ok.json();
      expect(body.result).toBe("success");
      const got = await fetch(base + body.url, { headers });
      expect((await got.arrayBuffer()).byteLength).toBe(MIB - 10);
      const big = new FormData();
      big.append("file", new File([new Uint8Array(3 * MIB)], "big.bin"));
      const refused = await fetch(`${base}/api/v1/user_uploads`, { method: "POST", headers, body: big });
      expect(refused.status).toBe(400);
      expect((await refused.json()).msg).toBe("Uploaded file is larger than the allowed limit of 1 MiB");
      const ranged = await fetch(base + body.url, { headers: { ...headers, range: "bytes=0-9" } });
      expect(ranged.status).toBe(206);
      expect(await ranged.text()).toBe("AAAAAAAAAA");
    } finally {
      await listening.stop(true);
    }
  });
});
