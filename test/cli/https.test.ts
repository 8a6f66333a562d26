// HTTPS built in: [server] tls_cert and tls_key. A self-signed certificate made with openssl; clients
// trust it by its own PEM (test/ensure-debian-packages.sh installs openssl when it is missing).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../helpers/executable";
import { runParley, startParley, type ServeProcess } from "../helpers/serve-process";

const root = mkdtempSync(join(tmpdir(), "parley-https-"));
let cert = "";
let s: ServeProcess;
let owner: { user_id: number; email: string; api_key: string };
let auth: Record<string, string>;
const config = (name: string, text: string) => {
  const p = join(root, name);
  writeFileSync(p, text);
  return p;
};
/** fetch that trusts our self-signed certificate (and nothing else unusual) */
const sfetch = (url: string, init: RequestInit = {}) => fetch(url, { ...init, tls: { ca: cert } } as RequestInit);

beforeAll(async () => {
  const made = Bun.spawnSync(
    ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", join(root, "key.pem"), "-out", join(root, "cert.pem"),
      "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
    { stderr: "pipe" },
  );
  if (made.exitCode !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  cert = readFileSync(join(root, "cert.pem"), "utf8");
  // paths relative to the config file's folder
  const file = config("parley.toml", `[server]\nport = ${freePort()}\ntls_cert = "cert.pem"\ntls_key = "key.pem"\n`);
  const dir = join(root, "data");
  const init = runParley(["init", "--config", file, "--data-dir", dir, "--org-name", "Secure", "--email", "owner@example.com", "--full-name", "Owner", "--password", "a long passphrase"]);
  if (init.code !== 0) throw new Error(init.err);
  owner = JSON.parse(init.out);
  auth = { authorization: "Basic " + btoa(`${owner.email}:${owner.api_key}`) };
  s = await startParley(["serve", "--config", file, "--data-dir", dir], { https: true });
}, 30_000);

afterAll(async () => {
  if (s) expect(await s.stop()).toBe(0);
  rmSync(root, { recursive: true, force: true });
});

describe("HTTPS built in", () => {
  test("serves HTTPS, and its external_url (in links and the API) says https", async () => {
    expect(s.base).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(s.stdout()).toContain(`Parley is serving ${s.base} `);
    const settings = (await (await sfetch(`${s.base}/api/v1/server_settings`)).json()) as any;
    expect(settings).toMatchObject({ result: "success", realm_url: s.base });
    const me = (await (await sfetch(`${s.base}/api/v1/users/me`, { headers: auth })).json()) as any;
    expect(me).toMatchObject({ result: "success", user_id: owner.user_id });
  });

  test("a client that does not trust the certificate is refused, and plain HTTP gets no answer", async () => {
    await expect(fetch(`${s.base}/api/v1/server_settings`)).rejects.toThrow();
    const plain = s.base.replace("https:", "http:");
    const answered = await fetch(`${plain}/api/v1/server_settings`).then((r) => r.status, () => null);
    expect(answered === null || answered >= 400).toBe(true);
  });

  test("a long-poll held over HTTPS receives the message sent meanwhile", async () => {
    const reg = (await (await sfetch(`${s.base}/api/v1/register`, { method: "POST", headers: auth, body: new URLSearchParams({ event_types: '["message"]' }) })).json()) as any;
    expect(reg.result).toBe("success");
    const poll = sfetch(`${s.base}/api/v1/events?queue_id=${reg.queue_id}&last_event_id=${reg.last_event_id}`, { headers: auth }).then((r) => r.json() as any);
    await Bun.sleep(200); // the poll is parked
    const sent = (await (await sfetch(`${s.base}/api/v1/messages`, { method: "POST", headers: auth, body: new URLSearchParams({ type: "direct", to: `[${owner.user_id}]`, content: "over TLS" }) })).json()) as any;
    expect(sent.result).toBe("success");
    const events = await poll;
    expect(events.result).toBe("success");
    expect(events.events).toEqual([expect.objectContaining({ type: "message", message: expect.objectContaining({ id: sent.id, content: "over TLS" }) })]);
  });

  test("the web login's cookies are Secure over HTTPS", async () => {
    const res = await sfetch(`${s.base}/login`, { method: "POST", body: new URLSearchParams({ username: owner.email, password: "a long passphrase" }), redirect: "manual" });
    expect(res.status).toBe(303);
    const cookies = res.headers.getSetCookie();
    expect(cookies.length).toBe(2);
    for (const c of cookies) expect(c).toEndWith("; Secure");
  });
});

describe("bad TLS files stop the start with a config error naming the key", () => {
  test("a certificate that cannot be read: exit 2, naming server.tls_cert and the path", () => {
    const file = config("missing.toml", `[server]\nport = 0\ntls_cert = "nope.pem"\ntls_key = "key.pem"\n`);
    const r = runParley(["serve", "--config", file, "--data-dir", join(root, "d-missing")]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`parley: config key 'server.tls_cert': cannot read ${join(root, "nope.pem")}`);
  });

  test("a key file that is not PEM: exit 2, naming server.tls_key", () => {
    writeFileSync(join(root, "junk.pem"), "not a key\n");
    const file = config("junk.toml", `[server]\nport = 0\ntls_cert = "cert.pem"\ntls_key = "junk.pem"\n`);
    const r = runParley(["serve", "--config", file, "--data-dir", join(root, "d-junk")]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`parley: config key 'server.tls_key': ${join(root, "junk.pem")} is not a PEM file`);
  });

  test("PEM files that do not make a certificate and key: exit 2, naming both keys", () => {
    writeFileSync(join(root, "broken.pem"), "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
    const file = config("broken.toml", `[server]\nport = 0\ntls_cert = "cert.pem"\ntls_key = "broken.pem"\n`);
    const r = runParley(["serve", "--config", file, "--data-dir", join(root, "d-broken")]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("config keys 'server.tls_cert' / 'server.tls_key': cannot serve HTTPS");
  });
});
