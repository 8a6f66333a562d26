import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeApp, openApp } from "../../src/app";
import { createLoginLinks } from "../../src/actions/login-links";
import { hashToken, passwordResetTarget } from "../../src/actions/password-reset";
import { createServer } from "../../src/server";
import { FakeClock } from "../helpers/server";
import { channel, message, user, writeSlackZip } from "./slack-export";
import { importConfig } from "./open-imported";

const root = mkdtempSync(join(tmpdir(), "parley-login-links-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const zip = join(root, "export.zip");
writeSlackZip(zip, {
  users: [
    user("U01", "ada", "Ada Lovelace", "ada@example.com", { is_primary_owner: true, is_owner: true }),
    user("U02", "bob", "Bob Builder", "bob@example.com"),
    user("U03", "finn", "Finn Former", "finn@example.com", { deleted: true }),
    user("U04", "deploybot", "Deploy Bot", null, { is_bot: true, profile: { bot_id: "B04", real_name_normalized: "Deploy Bot" } }),
  ],
  channels: [channel("C01", "general", ["U01", "U02"])],
  days: { "general/2024-01-01.json": [message("U01", "1704067260.000100", "hello")] },
});

describe("--print-login-links", () => {
  test("prints a one-time link per active person; a link signs its person in once", async () => {
    const dataDir = join(root, "cli");
    const run = Bun.spawnSync([process.execPath, "src/main.ts", "import", "slack", zip, "--data-dir", dataDir, "--print-login-links"], {
      cwd: join(import.meta.dir, "../.."),
      env: { ...process.env, PARLEY_CONFIG: "" },
    });
    const out = run.stdout.toString();
    expect(run.exitCode).toBe(0);
    const links = [...out.matchAll(/^ {2}(\S+) {2}(\S+)$/gm)].map((m) => ({ email: m[1]!, url: m[2]! }));
    // deactivated people and bots get none
    expect(links.map((l) => l.email).sort()).toEqual(["ada@example.com", "bob@example.com"]);
    expect(links.every((l) => /\/accounts\/login\/link\/[A-Za-z0-9]{40}$/.test(l.url))).toBe(true);

    const app = await openApp(importConfig(dataDir), { quiet: true });
    try {
      const server = createServer(app);
      const bob = links.find((l) => l.email === "bob@example.com")!;
      const path = new URL(bob.url).pathname;
      const first = await server.handle(new Request(`http://parley.test${path}`));
      expect(first.status).toBe(303);
      expect(first.headers.get("location")).toBe("/");
      const session = /parley_session=([^;]+)/.exec(first.headers.getSetCookie().join("\n"))![1]!;
      const me = await server.handle(new Request("http://parley.test/json/users/me", { headers: { cookie: `parley_session=${session}` } }));
      expect(((await me.json()) as { email: string }).email).toBe("bob@example.com");
      // used: a second click goes to the login page, with no session
      const second = await server.handle(new Request(`http://parley.test${path}`));
      expect(second.headers.get("location")).toBe("/?login_failed=1");
      expect(second.headers.getSetCookie()).toEqual([]);
      // kept as the password-reset links are: one email_tokens row per link, its hash only, spent
      const stored = await app.db.all<{ token_hash: string; used: number | null; user_id: number }>("SELECT token_hash, used, user_id FROM email_tokens WHERE kind = 'login_link'");
      expect(stored.length).toBe(2);
      expect(JSON.stringify(stored)).not.toContain(path.split("/").pop()!);
      const bobId = (await app.db.get<{ id: number }>("SELECT id FROM users WHERE delivery_email = 'bob@example.com'"))!.id;
      expect(stored.find((r) => r.user_id === bobId)!.used).not.toBeNull();
      expect(await app.db.get("SELECT name FROM sqlite_master WHERE name = 'login_links'")).toBeUndefined();
    } finally {
      await closeApp(app);
    }
  }, 60_000);

  test("an expired link, a made-up one and one whose person was deactivated sign nobody in", async () => {
    const dataDir = join(root, "cli");
    const clock = new FakeClock(Date.now());
    const app = await openApp(importConfig(dataDir), { quiet: true, clock });
    try {
      const server = createServer(app);
      const ada = (await app.db.get<{ id: number }>("SELECT id FROM users WHERE delivery_email = 'ada@example.com'"))!.id;
      const bob = (await app.db.get<{ id: number }>("SELECT id FROM users WHERE delivery_email = 'bob@example.com'"))!.id;
      const [adaLink, bobLink] = await createLoginLinks(app, [ada, bob]);
      const use = (url: string) => server.handle(new Request(`http://parley.test${new URL(url, "http://x").pathname}`));
      clock.advance(8 * 24 * 3600 * 1000);
      expect((await use(adaLink!.url)).headers.get("location")).toBe("/?login_failed=1");
      expect((await use("/accounts/login/link/" + "a".repeat(40))).headers.get("location")).toBe("/?login_failed=1");
      clock.advance(-8 * 24 * 3600 * 1000);
      await app.db.run("UPDATE users SET is_active = 0 WHERE id = ?", [bob]);
      const deactivated = await use(bobLink!.url);
      expect(deactivated.headers.get("location")).toBe("/?login_failed=1");
      expect(deactivated.headers.getSetCookie()).toEqual([]);
    } finally {
      await closeApp(app);
    }
  }, 30_000);

  test("a login link does not open the password-reset page, and a reset link does not sign in", async () => {
    const dataDir = join(root, "cli");
    const app = await openApp(importConfig(dataDir), { quiet: true });
    try {
      const server = createServer(app);
      const ada = (await app.db.get<{ id: number }>("SELECT id FROM users WHERE delivery_email = 'ada@example.com'"))!.id;
      const [link] = await createLoginLinks(app, [ada]);
      const token = link!.url.split("/").pop()!;
      expect(await passwordResetTarget(app, token)).toBeNull();
      const resetToken = "R".repeat(40);
      await app.db.run("INSERT INTO email_tokens (token_hash, kind, user_id, created, expires) VALUES (?, 'password_reset', ?, ?, ?)", [hashToken(resetToken), ada, Date.now() / 1000, Date.now() / 1000 + 3600]);
      const asLogin = await server.handle(new Request(`http://parley.test/accounts/login/link/${resetToken}`));
      expect(asLogin.headers.get("location")).toBe("/?login_failed=1");
      expect((await passwordResetTarget(app, resetToken))?.id).toBe(ada);
    } finally {
      await closeApp(app);
    }
  }, 30_000);

  test("migration 17 moves links printed before it into email_tokens, and they still sign in once", async () => {
    const dataDir = join(root, "cli");
    let app = await openApp(importConfig(dataDir), { quiet: true });
    const token = "L".repeat(40);
    const now = Date.now() / 1000;
    try {
      const ada = (await app.db.get<{ id: number }>("SELECT id FROM users WHERE delivery_email = 'ada@example.com'"))!.id;
      // the database as migration 14 left it: a login_links table holding a printed link
      await app.db.exec(`CREATE TABLE login_links (token_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users (id), created_at REAL NOT NULL,
        expires_at REAL NOT NULL, used_at REAL) WITHOUT ROWID`);
      await app.db.run("INSERT INTO login_links VALUES (?, ?, ?, ?, NULL), (?, ?, ?, ?, ?)", [hashToken(token), ada, now, now + 3600, hashToken("U".repeat(40)), ada, now, now + 3600, now]);
      await app.db.run("DELETE FROM schema_migrations WHERE version = 17");
    } finally {
      await closeApp(app);
    }
    app = await openApp(importConfig(dataDir), { quiet: true });
    try {
      expect(await app.db.get("SELECT name FROM sqlite_master WHERE name = 'login_links'")).toBeUndefined();
      const server = createServer(app);
      const first = await server.handle(new Request(`http://parley.test/accounts/login/link/${token}`));
      expect(first.headers.get("location")).toBe("/");
      const again = await server.handle(new Request(`http://parley.test/accounts/login/link/${token}`));
      expect(again.headers.get("location")).toBe("/?login_failed=1");
      // a link used before the migration stays used
      const used = await server.handle(new Request(`http://parley.test/accounts/login/link/${"U".repeat(40)}`));
      expect(used.headers.get("location")).toBe("/?login_failed=1");
    } finally {
      await closeApp(app);
    }
  }, 30_000);
});
