import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeApp, openApp } from "../../src/app";
import { createLoginLinks } from "../../src/actions/login-links";
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
      const stored = await app.db.all("SELECT token_hash FROM login_links");
      expect(JSON.stringify(stored)).not.toContain(path.split("/").pop()!);
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
});
