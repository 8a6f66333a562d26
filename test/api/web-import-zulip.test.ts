// A Zulip organization export imported from the web app (the Slack case and the refusals are in
// web-import.test.ts): a real `serve`, since only a serving process switches organizations.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load";
import { startServing, type Serving } from "../../src/serve";
import { makePng } from "../helpers/uploads";
import { cloudExport, writeExport } from "../import/zulip-fixture";

const root = mkdtempSync(join(tmpdir(), "parley-web-import-zulip-"));
const dataDir = join(root, "data");
let serving: Serving;
let base: string;

const zuliprc = () => {
  const text = readFileSync(join(dataDir, "zuliprc"), "utf8");
  return { authorization: "Basic " + btoa(`${/email=(.*)/.exec(text)![1]}:${/key=(.*)/.exec(text)![1]}`) };
};

beforeAll(async () => {
  const config = loadConfig({ dataDir }, {});
  config.server.port = 0;
  config.rate_limit.requests_per_minute = 0;
  serving = await startServing(config, { quiet: true });
  base = `http://127.0.0.1:${serving.port}`;
});
afterAll(async () => {
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

test("a Zulip Cloud export uploaded by the owner becomes the organization the server serves, its uploads included", async () => {
  const archive = join(root, "acme.tar.gz");
  await writeExport(archive, cloudExport(new Uint8Array(await makePng(4, 4))));
  const form = new FormData();
  form.append("kind", "zulip");
  form.append("file", Bun.file(archive), "acme.tar.gz");
  const started = await (await fetch(`${base}/api/v1/parley/import`, { method: "POST", headers: zuliprc(), body: form })).json();
  expect(started.result).toBe("success");
  let job: Record<string, any> = {};
  for (let i = 0; i < 300 && job.state !== "finished" && job.state !== "failed"; i++) {
    await Bun.sleep(100);
    const r = await fetch(`${base}/api/v1/parley/import/outcome?token=${started.token}`);
    if (r.status === 200) job = (await r.json()).import;
  }
  expect(job.error).toBeNull();
  expect(job.state).toBe("finished");
  expect(job.summary[0]).toMatch(/^Imported \d+ people, 3 channels, \d+ messages, 2 reactions, 1 files\.$/);
  const realm = await (await fetch(`${base}/api/v1/server_settings`)).json();
  expect(realm.realm_name).toBe("Acme Rockets");
  const reg = await (await fetch(`${base}/api/v1/register`, { method: "POST", headers: zuliprc(), body: new URLSearchParams({ fetch_event_types: JSON.stringify(["realm", "subscription"]) }) })).json();
  expect(reg.result).toBe("success");
  expect(reg.realm_name).toBe("Acme Rockets");
  // the imported upload is in the data dir's uploads folder, the old organization's folder aside
  const attachment = await serving.app.db.get<{ path_id: string }>("SELECT path_id FROM attachments");
  expect(existsSync(join(dataDir, "uploads", attachment!.path_id))).toBe(true);
  expect(existsSync(join(job.replaced_dir, "parley.db"))).toBe(true);
}, 60_000);
