// At start: no web import can be running in a process that is only starting, so a job still marked
// running was cut short (a crash, a kill, a stop): it is marked interrupted, and what it left in
// DATA_DIR/import (the upload, a half-built organization) is removed. The organization in place was
// never touched: an import only builds beside it.
import { existsSync, rmSync } from "node:fs";
import { nowSecs, type App } from "../../app";
import { webImportDir } from "../../import/web/swap";
import { interruptRunningImportJobs } from "../../store/import-jobs";

export async function recoverWebImports(app: App): Promise<void> {
  const { changes } = await app.db.tx((sql) => interruptRunningImportJobs(sql, nowSecs(app), "The server stopped during the import. Nothing was changed; upload the export again to retry."));
  if (changes) app.log.warn("an import from the web app was interrupted by a stop; the organization was not changed");
  const dir = webImportDir(app.config);
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
}
