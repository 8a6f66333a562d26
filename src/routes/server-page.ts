import { Elysia } from "elysia";
import type { App } from "../app";
import { latestBackupFile, makeBackup, serverFacts } from "../actions/server-page";
import { zulip } from "../http/plugin";
import { fileResponse } from "../uploads/file-response";

/** The owner's server page, in Parley's own namespace (Zulip has no such endpoints). */
export const serverPageRoutes = (app: App) =>
  new Elysia()
    .use(zulip(app))
    .get("/parley/server", async ({ args, me }) => args.success(await serverFacts(app, me)), { auth: true })
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
