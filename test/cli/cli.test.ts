import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";

const MAIN = join(import.meta.dir, "../../src/main.ts");
const root = mkdtempSync(join(tmpdir(), "parley-cli-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(root, `d${++dirs}`);

function run(args: string[], env: Record<string, string> = {}) {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { env: { ...process.env, ...env, PARLEY_CONFIG: "" }, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

async function waitFor(url: string, ms = 10_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      return await fetch(url);
    } catch {
      await Bun.sleep(50);
    }
  }
  throw new Error(`${url} did not answer`);
}

describe("parley --version and --help", () => {
  test("--version prints the version and the Zulip feature level", () => {
    const r = run(["--version"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^parley \d+\.\d+\.\d+ \(Zulip [\d.]+ API, feature level \d+\)/);
  });

  test("--help prints usage with every command and exits 0", () => {
    const r = run(["--help"]);
    expect(r.code).toBe(0);
    for (const c of ["serve", "init", "create-user", "backup"]) expect(r.out).toContain(`parley ${c}`);
  });

  test("an unknown command or an unknown flag is bad usage: exit 2 (no command at all is desktop mode)", () => {
    const desktopFlag = run(["--colour", "red"]);
    expect(desktopFlag.code).toBe(2);
    expect(desktopFlag.err).toContain("--colour");
    const unknown = run(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("unknown command 'frobnicate'");
    const flag = run(["serve", "--colour", "red"]);
    expect(flag.code).toBe(2);
    expect(flag.err).toContain("--colour");
  });

  test("a bad port or a bad config file exits 2 and names the flag or key", () => {
    const port = run(["serve", "--port", "http", "--data-dir", freshDir()]);
    expect(port.code).toBe(2);
    expect(port.err).toContain("--port");
    const cfg = join(root, "bad.toml");
    writeFileSync(cfg, "[server]\nport = 1\nbogus = true\n");
    const bad = run(["serve", "--config", cfg, "--data-dir", freshDir()]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("server.bogus");
  });
});

describe("parley init", () => {
  test("creates the organization and its owner, prints JSON and writes the zuliprc", () => {
    const dir = freshDir();
    const rc = join(root, "init.zuliprc");
    const r = run(["init", "--data-dir", dir, "--org-name", "Acme", "--email", "boss@acme.test", "--full-name", "The Boss", "--zuliprc", rc]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out).toMatchObject({ user_id: 1, email: "boss@acme.test", site: "http://127.0.0.1:9991" });
    expect(out.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(readFileSync(rc, "utf8")).toBe(`[api]\nemail=boss@acme.test\nkey=${out.api_key}\nsite=http://127.0.0.1:9991\n`);
    const db = new Database(join(dir, "parley.db"), { readonly: true });
    expect(db.query("SELECT name FROM realm").get()).toEqual({ name: "Acme" });
    expect(db.query("SELECT role, can_create_users FROM users WHERE is_bot = 0").all()).toEqual([{ role: 100, can_create_users: 1 }]);
    db.close();
  });

  test("on an initialised data dir it fails with exit 1 and changes nothing", () => {
    const dir = freshDir();
    expect(run(["init", "--data-dir", dir, "--org-name", "Acme", "--email", "a@acme.test", "--full-name", "A"]).code).toBe(0);
    const before = readFileSync(join(dir, "parley.db"));
    const again = run(["init", "--data-dir", dir, "--org-name", "Other", "--email", "b@acme.test", "--full-name", "B"]);
    expect(again.code).toBe(1);
    expect(again.err).toContain("already initialised");
    const db = new Database(join(dir, "parley.db"), { readonly: true });
    expect(db.query("SELECT count(*) AS n FROM users WHERE is_bot = 0").get()).toEqual({ n: 1 });
    expect(db.query("SELECT name FROM realm").all()).toEqual([{ name: "Acme" }]);
    db.close();
    expect(before.length).toBeGreaterThan(0);
  });

  test("missing required flags are bad usage", () => {
    const r = run(["init", "--data-dir", freshDir(), "--email", "x@y.test"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("--org-name is required");
  });
});

describe("parley create-user", () => {
  const dir = freshDir();
  test("adds a user with a role and can_create_users, printing JSON", () => {
    expect(run(["init", "--data-dir", dir, "--org-name", "Acme", "--email", "a@acme.test", "--full-name", "A"]).code).toBe(0);
    const r = run(["create-user", "--data-dir", dir, "--email", "mod@acme.test", "--full-name", "Mod", "--role", "administrator", "--can-create-users", "--password", "hunter22"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.email).toBe("mod@acme.test");
    const db = new Database(join(dir, "parley.db"), { readonly: true });
    const row = db.query("SELECT role, can_create_users, password_hash FROM users WHERE id = ?").get(out.user_id) as any;
    expect(row.role).toBe(200);
    expect(row.can_create_users).toBe(1);
    expect(row.password_hash).toStartWith("$argon2id$");
    db.close();
  });

  test("an unknown role is bad usage; a taken email is a runtime failure", () => {
    expect(run(["create-user", "--data-dir", dir, "--email", "x@acme.test", "--full-name", "X", "--role", "king"]).code).toBe(2);
    const dup = run(["create-user", "--data-dir", dir, "--email", "mod@acme.test", "--full-name", "Mod"]);
    expect(dup.code).toBe(1);
    expect(dup.err).toContain("already in use");
  });

  test("without an organization it fails with exit 1", () => {
    const r = run(["create-user", "--data-dir", freshDir(), "--email", "x@acme.test", "--full-name", "X"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("parley init");
  });
});

describe("parley serve", () => {
  test("on an empty data dir creates the organization, prints how to log in, serves, and stops cleanly on SIGTERM", async () => {
    const dir = freshDir();
    const port = await freePort();
    const proc = Bun.spawn([process.execPath, MAIN, "serve", "--data-dir", dir, "--port", String(port)], { stdout: "pipe", stderr: "pipe", env: { ...process.env, PARLEY_CONFIG: "" } });
    try {
      const res = await waitFor(`http://127.0.0.1:${port}/api/v1/server_settings`);
      expect((await res.json()).realm_name).toBe("Parley");
      const rc = readFileSync(join(dir, "zuliprc"), "utf8");
      const email = rc.match(/email=(.*)/)![1]!;
      const key = rc.match(/key=(.*)/)![1]!;
      expect(email).toBe("admin@parley.localhost");
      expect((statSync(join(dir, "zuliprc")).mode & 0o777).toString(8)).toBe("600");
      const me = await (await fetch(`http://127.0.0.1:${port}/api/v1/users/me`, { headers: { authorization: "Basic " + btoa(`${email}:${key}`) } })).json();
      expect(me).toMatchObject({ result: "success", email, role: 100 });
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
      const out = await new Response(proc.stdout).text();
      expect(out).toContain("Log in as: admin@parley.localhost");
      expect(out).toContain(`API key:   in ${join(dir, "zuliprc")}`);
      expect(out).toContain(`URL:       http://127.0.0.1:${port}`);
    } finally {
      proc.kill("SIGKILL");
    }
  }, 20_000);

  test("init, then serve, then a Basic-auth GET /users/me works", async () => {
    const dir = freshDir();
    const init = JSON.parse(run(["init", "--data-dir", dir, "--org-name", "Acme", "--email", "boss@acme.test", "--full-name", "Boss"]).out);
    const port = await freePort();
    const proc = Bun.spawn([process.execPath, MAIN, "serve", "--data-dir", dir, "--port", String(port)], { stdout: "pipe", stderr: "pipe" });
    try {
      await waitFor(`http://127.0.0.1:${port}/api/v1/server_settings`);
      const me = await (await fetch(`http://127.0.0.1:${port}/api/v1/users/me`, { headers: { authorization: "Basic " + btoa(`boss@acme.test:${init.api_key}`) } })).json();
      expect(me).toMatchObject({ result: "success", user_id: init.user_id, full_name: "Boss" });
      expect(existsSync(join(dir, "zuliprc"))).toBe(false); // the org existed: nothing created
      // the organization starts with #general: the owner in it, a default channel where new channels and people are announced
      const get = async (path: string, email: string, key: string) => (await fetch(`http://127.0.0.1:${port}/api/v1${path}`, { headers: { authorization: "Basic " + btoa(`${email}:${key}`) } })).json() as Promise<any>;
      const [general] = (await get("/users/me/subscriptions", "boss@acme.test", init.api_key)).subscriptions;
      expect(general).toMatchObject({ name: "general", description: "Everyone is added to this channel by default. Welcome!", invite_only: false });
      const realm = await (await fetch(`http://127.0.0.1:${port}/api/v1/register`, { method: "POST", headers: { authorization: "Basic " + btoa(`boss@acme.test:${init.api_key}`) }, body: new URLSearchParams({ fetch_event_types: '["realm","default_streams"]' }) })).json() as any;
      expect(realm.realm_default_streams.map((d: any) => d.stream_id ?? d)).toEqual([general.stream_id]);
      expect([realm.realm_new_stream_announcements_stream_id, realm.realm_signup_announcements_stream_id]).toEqual([general.stream_id, general.stream_id]);
      // someone added later is in it too
      const added = JSON.parse(run(["create-user", "--data-dir", dir, "--email", "new@acme.test", "--full-name", "New Person"]).out);
      expect((await get("/users/me/subscriptions", "new@acme.test", added.api_key)).subscriptions.map((x: any) => x.name)).toEqual(["general"]);
      proc.kill("SIGINT");
      expect(await proc.exited).toBe(0);
    } finally {
      proc.kill("SIGKILL");
    }
  }, 20_000);

  test("SIGTERM releases a waiting long-poll and still exits 0", async () => {
    const dir = freshDir();
    const init = JSON.parse(run(["init", "--data-dir", dir, "--org-name", "Acme", "--email", "boss@acme.test", "--full-name", "Boss"]).out);
    const port = await freePort();
    const proc = Bun.spawn([process.execPath, MAIN, "serve", "--data-dir", dir, "--port", String(port)], { stdout: "pipe", stderr: "pipe" });
    try {
      await waitFor(`http://127.0.0.1:${port}/api/v1/server_settings`);
      const auth = { authorization: "Basic " + btoa(`boss@acme.test:${init.api_key}`) };
      // messages only: the scheduler's first tick (250 ms after listening) may change groups meanwhile,
      // whose events would answer the poll before the release does
      const reg = await (await fetch(`http://127.0.0.1:${port}/api/v1/register`, { method: "POST", headers: auth, body: new URLSearchParams({ event_types: '["message"]' }) })).json();
      const poll = fetch(`http://127.0.0.1:${port}/api/v1/events?queue_id=${reg.queue_id}&last_event_id=-1`, { headers: auth }).then((r) => r.json());
      await Bun.sleep(200);
      proc.kill("SIGTERM");
      const answered = await poll;
      expect(answered.result).toBe("success");
      expect(answered.events[0].type).toBe("heartbeat");
      expect(await proc.exited).toBe(0);
    } finally {
      proc.kill("SIGKILL");
    }
  }, 20_000);

  test("an occupied port is a runtime failure: exit 1", async () => {
    const blocker = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    try {
      const r = run(["serve", "--data-dir", freshDir(), "--port", String(blocker.port)]);
      expect(r.code).toBe(1);
      expect(r.err).toContain("cannot listen");
    } finally {
      blocker.stop(true);
    }
  }, 20_000);

  test("a database newer than the code is refused with exit 1", () => {
    const dir = freshDir();
    expect(run(["init", "--data-dir", dir, "--org-name", "Acme", "--email", "a@acme.test", "--full-name", "A"]).code).toBe(0);
    const db = new Database(join(dir, "parley.db"));
    db.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', 0)");
    db.close();
    const r = run(["serve", "--data-dir", dir, "--port", "0"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("newer than this Parley");
  });
});

describe("parley backup", () => {
  test("writes one archive holding a consistent copy of the database (see backup.test.ts for the rest)", () => {
    const dir = freshDir();
    expect(run(["init", "--data-dir", dir, "--org-name", "Acme", "--email", "a@acme.test", "--full-name", "A"]).code).toBe(0);
    const to = join(root, "backup.tar");
    const r = run(["backup", "--data-dir", dir, "--to", to]);
    expect(r.code).toBe(0);
    const out = join(root, "unpacked");
    mkdirSync(out);
    expect(Bun.spawnSync(["tar", "xf", to, "-C", out]).exitCode).toBe(0);
    const db = new Database(join(out, "parley-data", "parley.db"), { readonly: true });
    expect(db.query("SELECT email FROM users WHERE is_bot = 0").all()).toEqual([{ email: "a@acme.test" }]);
    db.close();
    expect(run(["backup", "--data-dir", dir, "--to", to]).code).toBe(2); // refuses to overwrite
  });
});
