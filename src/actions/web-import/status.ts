// What the server page shows of an import: its state, its progress with a rate and an estimate,
// its error or summary; the uploader (holding the job's token) also gets the imported owner's login.
import { createHash } from "node:crypto";
import type { App } from "../../app";
import { isOwner } from "../../domain/roles";
import { notFound, ownerRequired } from "../../errors";
import { countPeoplesMessages, findImportJobByToken, latestImportJob, type ImportJobRow } from "../../store/import-jobs";
import type { UserRow } from "../../store/users";
import { liveJob, type LiveJob } from "./progress";
import { importRefusal, SYSTEM_BOT_EMAILS } from "./rules";

export const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

export const importLimitBytes = (app: App) => app.config.limits.max_import_size_mib * 1024 * 1024;

function jobDict(row: ImportJobRow, live: LiveJob | null) {
  const elapsed = live ? (Date.now() - live.since) / 1000 : 0;
  const rate = live && elapsed > 0 ? live.done / elapsed : 0;
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    // while running: "importing" then "switching" (the server swaps its database)
    stage: row.state === "running" ? (live?.stage ?? "importing") : null,
    progress: live && row.state === "running" ? { label: live.label, done: live.done, total: live.total, per_second: Math.round(rate), seconds_left: rate > 0 && live.total > live.done ? Math.ceil((live.total - live.done) / rate) : null } : null,
    skipped: live?.skipped ?? [],
    file_name: row.file_name,
    file_size: row.file_bytes,
    error: row.error,
    summary: row.summary ? (JSON.parse(row.summary) as string[]) : null,
    started_timestamp: Math.floor(row.created_at),
    finished_timestamp: row.finished_at === null ? null : Math.floor(row.finished_at),
  };
}

/** GET /parley/import: the latest import, and whether one may start now (owners only). */
export async function importStatus(app: App, actor: UserRow) {
  if (!isOwner(actor.role)) throw ownerRequired();
  const row = await latestImportJob(app.db);
  const live = liveJob(app.config);
  const refusal = await importRefusal(app);
  return {
    import: row ? jobDict(row, live?.id === row.id ? live : null) : null,
    can_import: refusal === null,
    refusal,
    // the web app offers the import only to an organization without messages
    has_messages: (await countPeoplesMessages(app.db, SYSTEM_BOT_EMAILS)) > 0,
    max_size: importLimitBytes(app),
  };
}

/**
 * GET /parley/import/outcome?token=: the uploader's view of their import, which also works once the
 * server has switched to the imported organization (where their session no longer exists).
 */
export async function importOutcome(app: App, token: string) {
  const row = /^[A-Za-z0-9]{32}$/.test(token) ? await findImportJobByToken(app.db, tokenHash(token)) : undefined;
  if (!row) throw notFound("No import with this token");
  const live = liveJob(app.config);
  return {
    ...jobDict(row, live?.id === row.id ? live : null),
    login: row.state === "finished" && row.login_email ? { email: row.login_email, url: row.login_url } : null,
    replaced_dir: row.replaced_dir,
  };
}
