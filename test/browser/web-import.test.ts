// The owner of a new organization imports a Slack export from the server page: the upload's progress,
// the import's progress, then "Import finished" with the summary and a one-time link that signs the
// imported owner in. A real `serve` (startServing): only a serving process switches organizations.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../helpers/chromium";
import { loadConfig } from "../../src/config/load";
import { startServing, type Serving } from "../../src/serve";
import { channel, message, user, writeSlackZip, type Json } from "../import/slack-export";
import { dialogViolations, shot } from "./helpers";

const root = mkdtempSync(join(tmpdir(), "parley-web-import-browser-"));
const dataDir = join(root, "data");
let serving: Serving;
let browser: Browser;
let base = "";
let password = "";

beforeAll(async () => {
  const config = loadConfig({ dataDir }, {});
  config.server.port = 0;
  config.rate_limit.requests_per_minute = 0;
  config.rate_limit.unauthenticated_per_minute = 0;
  serving = await startServing(config, { quiet: true });
  base = `http://127.0.0.1:${serving.port}`;
  config.server.external_url = base; // the login link points here
  password = serving.firstLogin!.password;
  browser = await launchChromium();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

const overlay = (page: Page) => page.getByRole("dialog", { name: "Settings" });

/** A small Slack workspace, with enough messages (80,000) that the import's progress is seen: 20,000 took about a second, between two of the page's polls. */
function slackZip(path: string) {
  const days: Record<string, Json[]> = {};
  const start = Date.UTC(2023, 0, 1) / 1000;
  for (let d = 0; d < 1000; d++) {
    const date = new Date((start + d * 86400) * 1000).toISOString().slice(0, 10);
    days[`general/${date}.json`] = Array.from({ length: 80 }, (_, i) => message(i % 2 ? "U01" : "U02", `${start + d * 86400 + i}.000100`, `note ${i} of day ${d}`));
  }
  days["design/2024-03-01.json"] = [message("U02", "1709280000.000100", "the *new* logo is ready")];
  writeSlackZip(path, {
    users: [user("U01", "ada", "Ada Lovelace", "ada@example.com", { is_primary_owner: true, is_owner: true }), user("U02", "bob", "Bob Builder", "bob@example.com")],
    channels: [channel("C01", "general", ["U01", "U02"]), channel("C02", "design", ["U01", "U02"], "Pixels")],
    days,
  });
}

describe("importing from the server page", () => {
  test("the owner uploads a Slack export, watches it import, and signs in to the imported organization with the link shown", async () => {
    const zip = join(root, "acme-slack.zip");
    slackZip(zip);
    // bypassCSP: axe-core is injected as an inline script
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(`${base}/#organization/server`);
      await page.fill("#login-email", "admin@parley.localhost");
      await page.fill("#login-password", password);
      await page.click(".login-form button[type=submit]");
      const box = overlay(page).getByRole("region", { name: "Import from Slack or Zulip" });
      await box.waitFor();
      expect(await dialogViolations(page, ".import-box")).toEqual([]);
      // at phone width the box fits the screen
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await page.locator(".import-box").evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
      await page.setViewportSize({ width: 1280, height: 900 });

      // a file that is not a Slack export: the error is readable next to the control, nothing changed
      const bad = join(root, "notes.zip");
      writeFileSync(bad, "these are my notes, not an export");
      await box.getByLabel("Export file").setInputFiles(bad);
      await box.getByRole("button", { name: "Import" }).click();
      await box.getByRole("alert").filter({ hasText: "notes.zip is not a readable zip archive" }).waitFor();
      await box.screenshot({ path: shot("server-import-error") });
      expect(await box.getByRole("alert").textContent()).toContain("Nothing was changed.");
      expect((await serving.app.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM users WHERE email = 'admin@parley.localhost'"))!.n).toBe(1);

      // the real export: the upload's bar, then the import's
      await box.getByLabel("Export file").setInputFiles(zip);
      await box.getByRole("button", { name: "Import" }).click();
      await box.getByRole("progressbar", { name: /Uploading the export|Import progress/ }).waitFor();
      // the import's own progress: its counts of the export's days, with an estimate
      await box.getByRole("status").filter({ hasText: /^Importing: [\d,]+ of 1,000 days of messages/ }).waitFor({ timeout: 30_000 });
      expect(await box.getByRole("progressbar", { name: "Import progress" }).getAttribute("max")).toBe("1000");
      await box.getByRole("heading", { name: "Import finished" }).waitFor({ timeout: 60_000 });
      await box.getByText("Imported 2 people, 2 channels, 80,001 messages, 0 reactions, 0 files.").waitFor();
      await box.getByText("ada@example.com").waitFor();
      await page.screenshot({ path: shot("server-import-finished") });
      // the page stayed (no trip to the login screen though its session is gone)
      expect(page.url()).toContain("#organization/server");

      // the server now holds the imported organization
      const people = await serving.app.db.all<{ full_name: string }>("SELECT full_name FROM users WHERE is_bot = 0 ORDER BY full_name");
      expect(people.map((p) => p.full_name)).toEqual(["Ada Lovelace", "Bob Builder"]);
      const job = await serving.app.db.get<{ state: string; file_name: string }>("SELECT state, file_name FROM import_jobs");
      expect(job).toEqual({ state: "finished", file_name: "acme-slack.zip" });
      const rc = readFileSync(join(dataDir, "zuliprc"), "utf8");
      expect(rc).toContain("email=ada@example.com");

      // the one-time link signs Ada in, and she finds her channels
      await box.getByRole("link", { name: "Sign in with a one-time link" }).click();
      await page.locator(".app-shell").waitFor();
      await page.getByRole("link", { name: "design" }).first().waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
