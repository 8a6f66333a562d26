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
import type { ImportMessage, ImportRequest } from "../../import/web/worker";
import { performSwap, planSwap, swapPending, undoSwap, webImportDir } from "../../import/web/swap";
import { openDb } from "../../store/db";
import { copyImportJob, countPeoplesMessages, findImportJob, finishImportJob } from "../../store/import-jobs";
import { createLoginLinks } from "../login-links";
import { noteSkip, releaseLiveJob, type LiveJob } from "./progress";
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
    const result = await importOnThread(host.current(), live, { kind: input.kind, config: built, archive: input.archive, slackToken: input.slackToken, orgName: input.orgName });
    live.stage = "switching";
    await switchTo(host, live.id, built, result);
  } catch (e) {
    const app = host.current();
    const text = e instanceof ImportError ? e.message : `the import failed: ${(e as Error)?.message ?? e}`;
    const msg = text.replaceAll(input.archive, input.fileName);
    app.log.warn("web import failed", { job: live.id, error: msg });
    await finishImportJob(app.db, live.id, "failed", nowSecs(app), { error: `${msg.replace(/[.;\s]+$/, "")}. Nothing was changed.` }).catch(() => {});
  } finally {
    // the upload, the build and any download cache go, unless a switch cut short still needs them
    if (!swapPending(config)) rmSync(webImportDir(config), { recursive: true, force: true });
    else rmSync(input.archive, { force: true });
    releaseLiveJob(config);
  }
}

const WORKER = import.meta.url.startsWith("file:///$bunfs/") ? "./import/web/worker.ts" : new URL("../../import/web/worker.ts", import.meta.url).href;

interface Imported {
  summary: string[];
  owner: { id: number; email: string };
}

/** Runs the import on a thread of its own (worker.ts), feeding the live job's progress. */
function importOnThread(app: App, live: LiveJob, req: ImportRequest): Promise<Imported> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER);
    // a server stopping mid-import ends the thread; the next start marks the job interrupted
    app.onClose.push(() => void worker.terminate());
    const finish = (fn: () => void) => {
      worker.terminate();
      fn();
    };
    worker.onmessage = (e: MessageEvent<ImportMessage>) => {
      const m = e.data;
      if (m.type === "start") Object.assign(live, { label: m.label, total: m.total, done: 0, since: Date.now() });
      else if (m.type === "advance") live.done += m.n;
      else if (m.type === "skip") noteSkip(live, m.line);
      // the skipped items, named, follow the summary (the terminal prints them above it)
      else if (m.type === "done") finish(() => resolve({ summary: [...m.summary.map((l) => l.replace("(each named above)", "(each named below)")), ...live.skipped], owner: m.owner }));
      else finish(() => reject(m.refusal ? new ImportError(m.message) : new Error(m.message)));
    };
    worker.onerror = (e) => finish(() => reject(new Error(e.message)));
    worker.postMessage(req);
  });
}

async function switchTo(host: AppHost, jobId: number, built: Config, result: Imported) {
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
    },
    swap: () => void performSwap(config, plan),
    undo: () => undoSwap(config, plan),
  });
  // the replaced organization's own record says what replaced it (a crash before the switch leaves
  // its row running, which the next start marks interrupted)
  try {
    const replaced = await openDb(`file:${join(plan.replacedDir, "parley.db")}`);
    try {
      await finishImportJob(replaced, jobId, "finished", Date.now() / 1000, outcome);
    } finally {
      replaced.close();
    }
  } catch (e) {
    // the switch stands; only the kept-aside copy's record stays behind
    host.current().log.warn("the replaced organization's import record was not updated", { error: String(e) });
  }
}
