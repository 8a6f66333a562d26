import { Elysia, t } from "elysia";
import type { App } from "../app";
import { latestBackupFile, makeBackup, serverFacts } from "../actions/server-page";
import { importOutcome, importStatus, startImport } from "../actions/web-import";
import { zulip } from "../http/plugin";
import { fileResponse } from "../uploads/file-response";

const OutcomeArgs = t.Object({ token: t.String({ maxLength: 64 }) });

/** The owner's server page, in Parley's own namespace (Zulip has no such endpoints). */
export const serverPageRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get("/parley/server", async ({ args, me }) => args.success(await serverFacts(app, me)), { auth: true })
    // the archive is streamed to disk by the action (parse "none": never buffered by the framework)
    .post("/parley/import", async ({ args, me, request }) => args.success(await startImport(app, me, request)), { auth: true, parse: "none" })
    .get("/parley/import", async ({ args, me }) => args.success(await importStatus(app, me)), { auth: true })
    // no session needed: the token handed to the uploader reads their import after the switch
    .get("/parley/import/outcome", async ({ args }) => args.success({ import: await importOutcome(app, args.read(OutcomeArgs).token) }))
    .post("/parley/backups", async ({ args, me }) => args.success({ backup: await makeBackup(app, me) }), { auth: true })
    .get(
      "/parley/backups/latest",
      async ({ me, request }) => {
        const a = await latestBackupFile(app, me);
        // streamed from disk; an archive never changes once renamed into place, so its name identifies it
        return fileResponse(request, { path: a.path, size: a.bytes, identity: a.name, fileName: a.name, contentType: a.name.endsWith(".gz") ? "application/gzip" : "application/x-tar", download: true }, { "cache-control": "private, no-store" });
      },
      { auth: true },
    );
