import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { MAIN, runParley, startParley } from "../helpers/serve-process";
import { startFakeSmtp } from "../helpers/smtp";

const root = mkdtempSync(join(tmpdir(), "parley-notify-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(root, `d${++n}`);

function configWith(smtpUrl: string): string {
  const file = join(root, `parley-${++n}.toml`);
  writeFileSync(file, `[email]\nsmtp_url = "${smtpUrl}"\n`);
  return file;
}

/** `parley ...args` without blocking this process (the fake SMTP server answers from its event loop). */
async function runAsync(args: string[]) {
  const proc = Bun.spawn([process.execPath, MAIN, ...args], { env: { ...process.env, PARLEY_CONFIG: "" }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

const basic = (email: string, key: string) => ({ authorization: "Basic " + btoa(`${email}:${key}`) });

describe("a missed-message email across a SIGKILL", () => {
  test("a direct message sent just before the process is killed is emailed exactly once after the restart", async () => {
    const smtp = await startFakeSmtp();
    const dir = fresh();
    const config = configWith(`smtp://127.0.0.1:${smtp.port}`);
    const owner = JSON.parse(runParley(["init", "--data-dir", dir, "--config", config, "--org-name", "Acme", "--email", "boss@acme.test", "--full-name", "Boss"]).out);
    const away = JSON.parse(runParley(["create-user", "--data-dir", dir, "--config", config, "--email", "away@acme.test", "--full-name", "Away Person"]).out);
    let p = await startParley(["serve", "--data-dir", dir, "--config", config, "--port", "0"]);
    try {
      // a short batching period, still long enough that nothing is sent before the kill
      const patch = await fetch(`${p.base}/api/v1/settings`, { method: "PATCH", headers: basic(away.email, away.api_key), body: new URLSearchParams({ email_notifications_batching_period_seconds: "3" }) });
      expect((await patch.json()).result).toBe("success");
      const sent = await fetch(`${p.base}/api/v1/messages`, { method: "POST", headers: basic(owner.email, owner.api_key), body: new URLSearchParams({ type: "direct", to: JSON.stringify([away.user_id]), content: "Are you there?" }) });
      expect((await sent.json()).result).toBe("success");
      p.proc.kill("SIGKILL");
      await p.proc.exited;
      expect(smtp.mails.length).toBe(0);
      p = await startParley(["serve", "--data-dir", dir, "--config", config, "--port", "0"]);
      const deadline = performance.now() + 20_000;
      while (smtp.mails.length === 0 && performance.now() < deadline) await Bun.sleep(100);
      expect(smtp.mails.length).toBe(1);
      // a few more ticks of every job: nothing more goes out
      await Bun.sleep(6_000);
      expect(smtp.mails.length).toBe(1);
      const mail = await smtp.parsed(0);
      expect(mail.subject).toBe("DMs with Boss");
      expect(mail.text).toContain("Are you there?");
      expect(await p.stop()).toBe(0);
      const db = new Database(join(dir, "parley.db"), { readonly: true });
      expect(db.query("SELECT to_address, sent, attempts FROM outbox_emails").all()).toEqual([{ to_address: "away@acme.test", sent: 1, attempts: 1 }]);
      expect(db.query("SELECT count(*) AS n FROM missed_message_emails").get()).toEqual({ n: 0 });
      db.close();
    } finally {
      p.proc.kill("SIGKILL");
      await smtp.close();
    }
  }, 60_000);
});

describe("parley send-test-email", () => {
  test("without SMTP it writes the email to DATA_DIR/emails.log and exits 0", () => {
    const dir = fresh();
    const r = runParley(["send-test-email", "ops@example.com", "--data-dir", dir]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ sent: true, to: "ops@example.com", via: join(dir, "emails.log") });
    expect(readFileSync(join(dir, "emails.log"), "utf8")).toContain("To: ops@example.com\nSubject: Parley test email\n");
  });

  test("through SMTP it sends now and exits 0; an unreachable server exits 1 with the reason; a bad address is a usage error", async () => {
    const smtp = await startFakeSmtp();
    const r = await runAsync(["send-test-email", "ops@example.com", "--data-dir", fresh(), "--config", configWith(`smtp://127.0.0.1:${smtp.port}`)]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ sent: true, via: `SMTP (127.0.0.1:${smtp.port})` });
    expect(smtp.mails.length).toBe(1);
    expect((await smtp.parsed(0)).subject).toBe("Parley test email");
    await smtp.close();
    const down = runParley(["send-test-email", "ops@example.com", "--data-dir", fresh(), "--config", configWith(`smtp://127.0.0.1:${smtp.port}`)]);
    expect(down.code).toBe(1);
    expect(JSON.parse(down.err)).toMatchObject({ sent: false });
    expect(JSON.parse(down.err).detail).toContain("ECONNREFUSED");
    expect(runParley(["send-test-email", "not-an-address", "--data-dir", fresh()]).code).toBe(2);
    expect(runParley(["send-test-email", "--data-dir", fresh()]).code).toBe(2);
  }, 30_000);
});
