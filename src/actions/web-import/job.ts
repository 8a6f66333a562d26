// The background half of a web import: the existing import (the same entry points the CLI calls)
// builds the organization in DATA_DIR/import/org-ID (its own temporary build folder beside it, so a
// crash leaves nothing half-written), then the running server switches to it (AppHost). The outcome
// is written into both databases: the replaced one (kept aside) and the imported one, which the
// uploader reads with their token once their session is gone.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { closeApp, nowSecs, openApp, type App, type AppHost } from "../../app";
import type { Config } from "../../config/schema";
import { ImportError } from "../../import/common/problems";
import type { ImportResult } from "../../import/common/run";
import { importSlack } from "../../import/slack/import";
import { importZulip } from "../../import/zulip/import";
import { performSwap, planSwap, undoSwap, webImportDir } from "../../import/web/swap";
import { copyImportJob, countPeoplesMessages, findImportJob, finishImportJob } from "../../store/import-jobs";
import { createLoginLinks } from "../login-links";
import { JobProgress, noteSkip, releaseLiveJob, type LiveJob } from "./progress";
import { SYSTEM_BOT_EMAILS } from "./rules";

export interface JobInput {
  kind: "slack" | "zulip";
  archive: string;
  /** the uploaded file's own name, shown in errors instead of where it was stored */
  fileName: string;
  slackToken: string | null;
  orgName: string;
}

/** A configuration whose data dir is the import's build (the import refuses any other layout). */
export function buildConfig(config: Config, orgDir: string): Config {
  return { ...config, data_dir: orgDir, storage: { ...config.storage, database: `file:${join(orgDir, "parley.db")}`, uploads_dir: join(orgDir, "uploads") } };
}

/** Runs the import and the switch; never throws (the outcome is the job's row). */
export async function runJob(host: AppHost, live: LiveJob, input: JobInput): Promise<void> {
  const config = host.current().config;
  const orgDir = join(webImportDir(config), `org-${live.id}`);
  const built = buildConfig(config, orgDir);
  try {
    live.stage = "importing";
    const opts = { progress: new JobProgress(live), log: (line: string) => noteSkip(live, line) };
    const result: ImportResult =
      input.kind === "slack"
        ? await importSlack(built, { ...opts, zip: input.archive, token: input.slackToken ?? undefined, orgName: input.orgName })
        : await importZulip(built, { ...opts, archive: input.archive });
    live.stage = "switching";
    await switchTo(host, live.id, built, result);
  } catch (e) {
    const app = host.current();
    const text = e instanceof ImportError ? e.message : `the import failed: ${(e as Error)?.message ?? e}`;
    const msg = text.replaceAll(input.archive, input.fileName);
    app.log.warn("web import failed", { job: live.id, error: msg });
    await finishImportJob(app.db, live.id, "failed", nowSecs(app), { error: `${msg}. Nothing was changed.` }).catch(() => {});
  } finally {
    rmSync(input.archive, { force: true });
    rmSync(orgDir, { recursive: true, force: true });
    releaseLiveJob(config);
  }
}

async function switchTo(host: AppHost, jobId: number, built: Config, result: ImportResult) {
  const config = host.current().config;
  const plan = planSwap(config, built.data_dir, new Date().toISOString().replace(/[:.]/g, "-"));
  const summary = JSON.stringify(result.summary);
  // the imported owner's one-time login link, and the outcome, written into the imported database
  const imported = await openApp(built, { quiet: true });
  let outcome: Parameters<typeof finishImportJob>[4];
  try {
    const [link] = await createLoginLinks(imported, [result.owner.id]);
    outcome = { summary, loginEmail: link?.email ?? result.owner.email, loginUrl: link?.url ?? null, replacedDir: plan.replacedDir };
    const row = (await findImportJob(host.current().db, jobId))!;
    await copyImportJob(imported.db, { ...row, state: "finished", finished_at: nowSecs(imported), error: null, summary, login_email: outcome.loginEmail!, login_url: outcome.loginUrl!, replaced_dir: plan.replacedDir });
  } finally {
    await closeApp(imported);
  }
  await host.switchOrganization({
    async check(old: App) {
      // people may have talked while the import ran: then their messages are not thrown away
      if ((await countPeoplesMessages(old.db, SYSTEM_BOT_EMAILS)) > 0) throw new ImportError("messages were sent in this organization while the import ran, so it was not replaced");
      await finishImportJob(old.db, jobId, "finished", nowSecs(old), outcome);
    },
    swap: () => void performSwap(config, plan),
    undo: () => undoSwap(plan),
  });
}
