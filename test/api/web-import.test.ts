// Importing a Slack export from the web app: POST/GET /api/v1/parley/import on a real `serve`
// (startServing on port 0), since only a serving process can switch to the imported organization.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { loadConfig } from "../../src/config/load";
import { startServing, type Serving } from "../../src/serve";
import { createUser } from "../../src/actions/users";
import { ROLE } from "../../src/domain/roles";
import { sendNotification } from "../../src/actions/messages/notification-bot";
import { findStreamByName } from "../../src/store/streams";
import { channel, message, user, writeSlackZip, type Json } from "../import/slack-export";

const root = mkdtempSync(join(tmpdir(), "parley-web-import-"));
const dataDir = join(root, "data");
let serving: Serving;
let base: string;
let owner: { email: string; key: string };
let iago: { email: string; key: string };
let hamlet: { email: string; key: string };

const zuliprc = () => {
  const text = readFileSync(join(dataDir, "zuliprc"), "utf8");
  return { email: /email=(.*)/.exec(text)![1]!, key: /key=(.*)/.exec(text)![1]! };
};
const auth = (who: { email: string; key: string }) => ({ authorization: "Basic " + btoa(`${who.email}:${who.key}`) });

async function call(method: string, path: string, who: { email: string; key: string } | null, body?: BodyInit) {
  const res = await fetch(`${base}/api/v1${path}`, { method, headers: who ? auth(who) : {}, body });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

function upload(who: { email: string; key: string }, file: Blob, name: string, fields: Record<string, string> = { kind: "slack" }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", file, name);
  return call("POST", "/parley/import", who, form);
}

/** Polls the uploader's view until the import is no longer running. */
async function outcome(token: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const r = await fetch(`${base}/api/v1/parley/import/outcome?token=${token}`);
    if (r.status === 200) {
      const body = (await r.json()) as { import: Record<string, any> };
      expect(body).not.toHaveProperty("ignored_parameters_unsupported");
      if (body.import.state !== "running") return body.import;
    }
    if (Date.now() > deadline) throw new Error("the import did not end");
    await Bun.sleep(100);
  }
}

const slackZip = (path: string) =>
  writeSlackZip(path, {
    users: [user("U01", "ada", "Ada Lovelace", "ada@example.com", { is_primary_owner: true, is_owner: true }), user("U02", "bob", "Bob Builder", "bob@example.com")],
    channels: [channel("C01", "general", ["U01", "U02"]), channel("C02", "engineering", ["U01", "U02"], "Build things")],
    days: {
      "general/2024-01-01.json": [message("U01", "1704067260.000100", "hello from Slack"), message("U02", "1704067320.000200", "hi Ada")],
      "engineering/2024-01-02.json": [message("U02", "1704153600.000100", "the *build* is green"), message("U99", "1704153700.000100", "who am I?")],
    },
  });

beforeAll(async () => {
  const config = loadConfig({ dataDir }, {});
  config.server.port = 0;
  config.server.external_url = "http://parley.test";
  config.rate_limit.requests_per_minute = 0;
  config.rate_limit.unauthenticated_per_minute = 0;
  serving = await startServing(config, { quiet: true });
  base = `http://127.0.0.1:${serving.port}`;
  owner = zuliprc();
  const a = await createUser(serving.app, null, { email: "iago@example.com", fullName: "Iago", password: null, role: ROLE.administrator });
  const m = await createUser(serving.app, null, { email: "hamlet@example.com", fullName: "King Hamlet", password: null, role: ROLE.member });
  iago = { email: a.email, key: a.apiKey };
  hamlet = { email: m.email, key: m.apiKey };
});

afterAll(async () => {
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** What DATA_DIR/import holds (an upload, a build), if it exists. */
const importDirEntries = () => (existsSync(join(dataDir, "import")) ? readdirSync(join(dataDir, "import")) : []);
const jobRows = () => serving.app.db.all<{ id: number; state: string }>("SELECT id, state FROM import_jobs");

describe("who may import", () => {
  test("administrators and members are refused, and nothing is stored or started", async () => {
    const zip = join(root, "refused.zip");
    slackZip(zip);
    for (const who of [iago, hamlet]) {
      const r = await upload(who, Bun.file(zip), "refused.zip");
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ result: "error", msg: "Must be an organization owner", code: "UNAUTHORIZED_PRINCIPAL" });
      const s = await call("GET", "/parley/import", who);
      expect(s.body).toMatchObject({ result: "error", msg: "Must be an organization owner" });
    }
    expect(await jobRows()).toEqual([]);
    expect(importDirEntries()).toEqual([]);
  });

  test("the owner of a new organization, holding only the automatic messages, may import", async () => {
    // Notification Bot's notes (a new channel, a new person) do not make the organization "used"
    const general = (await findStreamByName(serving.app.db, "general"))!;
    await sendNotification(serving.app, general, "signups", "Iago joined this organization.");
    const r = await call("GET", "/parley/import", owner);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: "success", import: null, can_import: true, refusal: null, has_messages: false, max_size: 2048 * 1024 * 1024 });
    expect((await serving.app.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM messages"))!.n).toBeGreaterThan(0);
  });

  test("an export larger than [limits] max_import_size_mib is refused, and nothing of it stays on disk", async () => {
    const limits = serving.app.config.limits;
    limits.max_import_size_mib = 0;
    try {
      const r = await upload(owner, new Blob([new Uint8Array(200_000)]), "huge.zip");
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ result: "error", msg: "The export is larger than this server's limit of 0 MiB ([limits] max_import_size_mib)", code: "BAD_REQUEST" });
      // sent in chunks, without a length: the cap holds while the file is written
      const boundary = "xyz";
      const head = `--${boundary}\r\ncontent-disposition: form-data; name="kind"\r\n\r\nslack\r\n--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="huge.zip"\r\n\r\n`;
      const body = new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode(head));
          for (let i = 0; i < 4; i++) c.enqueue(new Uint8Array(100_000));
          c.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
          c.close();
        },
      });
      const chunked = await fetch(`${base}/api/v1/parley/import`, { method: "POST", headers: { ...auth(owner), "content-type": `multipart/form-data; boundary=${boundary}` }, body });
      expect(await chunked.json()).toMatchObject({ result: "error", msg: "The export is larger than this server's limit of 0 MiB ([limits] max_import_size_mib)" });
    } finally {
      limits.max_import_size_mib = 2048;
    }
    expect(await jobRows()).toEqual([]);
    expect(importDirEntries()).toEqual([]);
    expect((await call("GET", "/parley/import", owner)).body.can_import).toBe(true);
  });

  test("an upload without a kind, or of an unknown kind, is refused before anything runs", async () => {
    const r = await upload(owner, new Blob(["x"]), "x.zip", { kind: "mattermost" });
    expect(r.body).toMatchObject({ result: "error", msg: "Unknown kind of export 'mattermost' (slack or zulip)", code: "BAD_REQUEST" });
    const none = await upload(owner, new Blob(["x"]), "x.zip", {});
    expect(none.body).toMatchObject({ result: "error", msg: "Missing 'kind' argument" });
    expect(await jobRows()).toEqual([]);
  });
});

describe("an import", () => {
  test("a file that is not a Slack export fails with a readable error, and the organization stays as it was", async () => {
    const before = await call("GET", "/users", owner);
    const r = await upload(owner, new Blob(["this is not a zip archive"]), "broken.zip");
    expect(r.status).toBe(200);
    expect(r.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    const job = await outcome(r.body.token);
    expect(job.state).toBe("failed");
    expect(job.error).toMatch(/^broken\.zip is not a readable zip archive .*Nothing was changed\.$/);
    expect(job.login).toBeNull();
    // the same organization, the same people; the upload is gone
    const after = await call("GET", "/users", owner);
    expect(after.body.members.map((u: { email: string }) => u.email).sort()).toEqual(before.body.members.map((u: { email: string }) => u.email).sort());
    expect(importDirEntries()).toEqual([]);
    const status = await call("GET", "/parley/import", owner);
    expect(status.body.import).toMatchObject({ state: "failed", kind: "slack", file_name: "broken.zip", error: job.error });
    expect(status.body.can_import).toBe(true);
  });

  test("a message sent while the import ran keeps the organization: the switch is refused and the message stays", async () => {
    const zip = join(root, "slow.zip");
    const days: Record<string, Json[]> = {};
    for (let d = 0; d < 600; d++) days[`general/${new Date(Date.UTC(2020, 0, 1 + d)).toISOString().slice(0, 10)}.json`] = Array.from({ length: 40 }, (_, i) => message("U01", `${1577836800 + d * 86400 + i}.000100`, `m${i}`));
    writeSlackZip(zip, { users: [user("U01", "ada", "Ada Lovelace", "ada@example.com", { is_primary_owner: true, is_owner: true })], channels: [channel("C01", "general", ["U01"])], days });
    const r = await upload(owner, Bun.file(zip), "slow.zip");
    expect(r.body.result).toBe("success");
    const sent = await call("POST", "/messages", hamlet, new URLSearchParams({ type: "stream", to: "general", topic: "hello", content: "Anyone here?" }));
    expect(sent.body.result).toBe("success");
    const job = await outcome(r.body.token);
    expect(job.state).toBe("failed");
    expect(job.error).toBe("messages were sent in this organization while the import ran, so it was not replaced. Nothing was changed.");
    const mine = await call("GET", `/messages/${sent.body.id}`, hamlet);
    expect(mine.body.message.content).toBe("<p>Anyone here?</p>");
    expect(importDirEntries()).toEqual([]);
    // the organization is empty again once the message goes
    expect((await call("DELETE", `/messages/${sent.body.id}`, owner)).body.result).toBe("success");
  }, 60_000);

  test("a Slack export replaces the organization: the uploader reads the summary and a login link, and /register shows the imported people and channels", async () => {
    const zip = join(root, "workspace.zip");
    slackZip(zip);
    // a client registered on the old organization
    const queue = await call("POST", "/register", owner, new URLSearchParams({ event_types: JSON.stringify(["message"]) }));
    expect(queue.body.queue_id).toBeTruthy();

    const r = await upload(owner, Bun.file(zip), "workspace.zip");
    expect(r.body.result).toBe("success");
    const job = await outcome(r.body.token);
    expect(job.error).toBeNull();
    expect(job).toMatchObject({ state: "finished", kind: "slack", file_name: "workspace.zip" });
    expect(job.summary[0]).toBe("Imported 2 people, 2 channels, 3 messages, 0 reactions, 0 files.");
    // the skipped message, named under the counts
    expect(job.summary[1]).toMatch(/^Skipped 1 messages? \(each named below\)\.$/);
    expect(job.summary.slice(2).join("\n")).toContain("U99");
    expect(job.login.email).toBe("ada@example.com");
    expect(job.login.url).toMatch(/^http:\/\/parley\.test\/accounts\/login\/link\/[A-Za-z0-9]{40}$/);
    // the replaced organization is kept aside in the data dir
    expect(existsSync(join(job.replaced_dir, "parley.db"))).toBe(true);
    const kept = new Database(join(job.replaced_dir, "parley.db"), { readonly: true });
    expect(kept.query("SELECT state, file_name FROM import_jobs WHERE id = ?").get(r.body.job_id)).toEqual({ state: "finished", file_name: "workspace.zip" });
    expect(kept.query("SELECT COUNT(*) AS n FROM users WHERE email = 'admin@parley.localhost'").get()).toEqual({ n: 1 });
    kept.close();
    expect(job.replaced_dir.startsWith(dataDir)).toBe(true);

    // the old owner's key belongs to the old organization
    expect((await call("GET", "/users/me", owner)).status).toBe(401);
    // the imported owner's key is in the data dir's zuliprc
    const ada = zuliprc();
    expect(ada.email).toBe("ada@example.com");
    const reg = await call("POST", "/register", ada, new URLSearchParams({ fetch_event_types: JSON.stringify(["realm_user", "subscription"]) }));
    expect(reg.body.result).toBe("success");
    expect(reg.body.realm_users.map((u: { email: string; full_name: string }) => u.full_name).sort()).toEqual(["Ada Lovelace", "Bob Builder"]);
    expect(reg.body.subscriptions.map((s: { name: string }) => s.name).sort()).toEqual(["engineering", "general"]);
    const msgs = await call("GET", `/messages?anchor=newest&num_before=10&num_after=0&narrow=${encodeURIComponent("[]")}`, ada);
    expect(msgs.body.messages.map((m: { content: string }) => m.content)).toEqual(["<p>hello from Slack</p>", "<p>hi Ada</p>", "<p>the <strong>build</strong> is green</p>"]);
    // every event queue of the old organization is gone: clients register again
    const old = await call("GET", `/events?queue_id=${queue.body.queue_id}&last_event_id=-1&dont_block=true`, ada);
    expect(old.body).toMatchObject({ result: "error", code: "BAD_EVENT_QUEUE_ID" });
    // the imported database knows the import too, and the org now has messages: no second import
    const status = await call("GET", "/parley/import", ada);
    expect(status.body.import).toMatchObject({ state: "finished", file_name: "workspace.zip" });
    expect(status.body.can_import).toBe(false);
    expect(status.body.has_messages).toBe(true);
    expect(status.body.refusal).toMatch(/already has messages/);
    // the login link signs Ada in once
    const link = await fetch(job.login.url.replace("http://parley.test", base), { redirect: "manual" });
    expect(link.status).toBe(303);
    expect(link.headers.get("set-cookie")).toContain("parley_session=");
  });

  test("an organization that has messages is refused, touching nothing", async () => {
    const ada = zuliprc();
    const zip = join(root, "again.zip");
    slackZip(zip);
    const r = await upload(ada, Bun.file(zip), "again.zip");
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe("This organization already has messages: an import is offered only before the first message is sent. Import with `parley import` into a new data folder instead.");
    expect((await jobRows()).length).toBe(1);
    expect(importDirEntries()).toEqual([]);
  });

  test("the uploader's view needs the job's token", async () => {
    const r = await fetch(`${base}/api/v1/parley/import/outcome?token=${"a".repeat(32)}`);
    const missing = await fetch(`${base}/api/v1/parley/import/outcome`);
    expect(await missing.json()).toMatchObject({ result: "error", msg: "Missing 'token' argument" });
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ result: "error", msg: "No import with this token" });
  });
});

