// A web import cut short by SIGKILL: the next start serves the old organization as it was, marks the
// job interrupted and clears the half-built import. And a switch cut short between its renames is
// finished by the next start (the journal), so the data dir never holds half of each organization.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runParley, startParley } from "../helpers/serve-process";
import { channel, message, user, writeSlackZip, type Json } from "../import/slack-export";
import { loadConfig } from "../../src/config/load";
import { finishPendingSwap, performSwap, planSwap, undoSwap } from "../../src/import/web/swap";

const root = mkdtempSync(join(tmpdir(), "parley-web-import-crash-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const basic = (email: string, key: string) => ({ authorization: "Basic " + btoa(`${email}:${key}`) });

/** A Slack export large enough that its import runs for a while: many days, many messages each. */
function bigSlackZip(path: string) {
  const days: Record<string, Json[]> = {};
  const start = Date.UTC(2020, 0, 1) / 1000;
  for (let d = 0; d < 1500; d++) {
    const date = new Date((start + d * 86400) * 1000).toISOString().slice(0, 10);
    days[`general/${date}.json`] = Array.from({ length: 40 }, (_, i) => message(i % 2 ? "U01" : "U02", `${start + d * 86400 + i}.000100`, `message ${i} of day ${d}`));
  }
  writeSlackZip(path, {
    users: [user("U01", "ada", "Ada Lovelace", "ada@example.com", { is_primary_owner: true, is_owner: true }), user("U02", "bob", "Bob Builder", "bob@example.com")],
    channels: [channel("C01", "general", ["U01", "U02"])],
    days,
  });
}

describe("a web import across a SIGKILL", () => {
  test("killed mid-import, the server starts with the old organization intact and the job marked interrupted", async () => {
    const dir = join(root, "data");
    // polled often: no rate limit
    const config = join(root, "parley.toml");
    writeFileSync(config, "[rate_limit]\nrequests_per_minute = 0\n");
    const owner = JSON.parse(runParley(["init", "--data-dir", dir, "--org-name", "Acme", "--email", "boss@acme.test", "--full-name", "Boss"]).out);
    const zip = join(root, "big.zip");
    bigSlackZip(zip);
    let p = await startParley(["serve", "--data-dir", dir, "--config", config, "--port", "0"]);
    try {
      const form = new FormData();
      form.append("kind", "slack");
      form.append("file", Bun.file(zip), "big.zip");
      const started = await (await fetch(`${p.base}/api/v1/parley/import`, { method: "POST", headers: basic(owner.email, owner.api_key), body: form })).json();
      expect(started.result).toBe("success");
      // wait until messages are being written, then kill
      const deadline = performance.now() + 30_000;
      let progress: { done: number; total: number } | null = null;
      while (performance.now() < deadline) {
        const s = await (await fetch(`${p.base}/api/v1/parley/import`, { headers: basic(owner.email, owner.api_key) })).json();
        expect(s.import?.state, JSON.stringify(s)).toBe("running");
        progress = s.import.progress;
        if (progress && progress.done > 0) break;
        await Bun.sleep(20);
      }
      expect(progress!.done).toBeGreaterThan(0);
      expect(progress!.done).toBeLessThan(progress!.total);
      expect(readdirSync(join(dir, "import")).length).toBeGreaterThan(0);
      p.proc.kill("SIGKILL");
      await p.proc.exited;

      p = await startParley(["serve", "--data-dir", dir, "--config", config, "--port", "0"]);
      // the old organization, as it was: its owner's key works and its people are there
      const users = await (await fetch(`${p.base}/api/v1/users`, { headers: basic(owner.email, owner.api_key) })).json();
      expect(users.result).toBe("success");
      expect(users.members.map((u: { email: string }) => u.email)).toContain("boss@acme.test");
      expect(users.members.map((u: { email: string }) => u.email)).not.toContain("ada@example.com");
      const s = await (await fetch(`${p.base}/api/v1/parley/import`, { headers: basic(owner.email, owner.api_key) })).json();
      expect(s.import).toMatchObject({ state: "interrupted", file_name: "big.zip", error: "The server stopped during the import. Nothing was changed; upload the export again to retry." });
      expect(s.can_import).toBe(true);
      // the upload and the half-built organization are gone
      expect(existsSync(join(dir, "import"))).toBe(false);
      expect(readdirSync(dir).filter((f) => f.startsWith("replaced-by-import"))).toEqual([]);
      // the uploader's view says the same
      const o = await (await fetch(`${p.base}/api/v1/parley/import/outcome?token=${started.token}`)).json();
      expect(o.import.state).toBe("interrupted");
    } finally {
      await p.stop();
    }
  }, 90_000);
});

describe("a switch cut short", () => {
  const layout = (name: string) => {
    const dataDir = join(root, name);
    const built = join(dataDir, "import", "org-1");
    mkdirSync(join(dataDir, "uploads"), { recursive: true });
    mkdirSync(join(built, "uploads"), { recursive: true });
    for (const [f, text] of [["parley.db", "old db"], ["parley.db-wal", "old wal"], ["zuliprc", "old rc"], ["uploads/a", "old upload"]]) writeFileSync(join(dataDir, f!), text!);
    for (const [f, text] of [["parley.db", "new db"], ["zuliprc", "new rc"], ["uploads/b", "new upload"]]) writeFileSync(join(built, f!), text!);
    const config = loadConfig({ dataDir }, {});
    return { dataDir, built, config, plan: planSwap(config, built, "t") };
  };
  const read = (p: string) => (existsSync(p) ? Bun.file(p).text() : Promise.resolve(null));

  test("a crash while the old files were moving aside is finished at the next start: the imported organization, none of the old one's files", async () => {
    const { dataDir, config, plan } = layout("half-out");
    // the journal was written and the database alone had moved aside
    mkdirSync(plan.replacedDir, { recursive: true });
    writeFileSync(join(dataDir, "import", "swap.json"), JSON.stringify(plan));
    renameSync(join(dataDir, "parley.db"), join(plan.replacedDir, "parley.db"));
    expect(finishPendingSwap(config)).toBe(true);
    expect(await read(join(dataDir, "parley.db"))).toBe("new db");
    // the old write-ahead log must not sit beside the new database
    expect(existsSync(join(dataDir, "parley.db-wal"))).toBe(false);
    expect(await read(join(plan.replacedDir, "parley.db-wal"))).toBe("old wal");
    expect(await read(join(plan.replacedDir, "parley.db"))).toBe("old db");
    expect(readdirSync(join(dataDir, "uploads"))).toEqual(["b"]);
    expect(await read(join(dataDir, "zuliprc"))).toBe("new rc");
    expect(existsSync(join(dataDir, "import", "swap.json"))).toBe(false);
    expect(finishPendingSwap(config)).toBe(false);
  });

  test("a crash while the imported files were moving in is finished at the next start", async () => {
    const { dataDir, built, config, plan } = layout("half-in");
    mkdirSync(plan.replacedDir, { recursive: true });
    for (const [live, , aside] of plan.items) if (existsSync(live)) renameSync(live, aside);
    writeFileSync(join(dataDir, "import", "swap.json"), JSON.stringify({ ...plan, phase: "in" }));
    renameSync(join(built, "parley.db"), join(dataDir, "parley.db"));
    expect(finishPendingSwap(config)).toBe(true);
    expect(await read(join(dataDir, "parley.db"))).toBe("new db");
    expect(await read(join(dataDir, "zuliprc"))).toBe("new rc");
    expect(readdirSync(join(dataDir, "uploads"))).toEqual(["b"]);
    expect(readdirSync(join(plan.replacedDir, "uploads"))).toEqual(["a"]);
  });

  test("a switch undone (the imported database would not open) puts the old files back and forgets the switch", async () => {
    const { dataDir, built, config, plan } = layout("undone");
    performSwap(config, plan);
    expect(await read(join(dataDir, "parley.db"))).toBe("new db");
    undoSwap(config, plan);
    expect(await read(join(dataDir, "parley.db"))).toBe("old db");
    expect(await read(join(dataDir, "parley.db-wal"))).toBe("old wal");
    expect(await read(join(dataDir, "zuliprc"))).toBe("old rc");
    expect(readdirSync(join(dataDir, "uploads"))).toEqual(["a"]);
    expect(await read(join(built, "parley.db"))).toBe("new db");
    // nothing for the next start to redo
    expect(finishPendingSwap(config)).toBe(false);
    expect(await read(join(dataDir, "parley.db"))).toBe("old db");
  });
});
