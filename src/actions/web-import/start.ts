// POST /parley/import: the owner's archive, streamed to DATA_DIR/import (never held in memory, capped
// by [limits] max_import_size_mib), becomes a job that runs in the background.
import { mkdirSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { nowSecs, type App } from "../../app";
import { isOwner } from "../../domain/roles";
import { badRequest, ownerRequired } from "../../errors";
import { randomAlnum } from "../../lib/random";
import { webImportDir } from "../../import/web/swap";
import { insertImportJob } from "../../store/import-jobs";
import type { UserRow } from "../../store/users";
import { CappedWriter } from "../../uploads/storage";
import { multipartBoundary, MultipartError, readMultipart } from "../../uploads/multipart";
import { claimLiveJob, releaseLiveJob, type LiveJob } from "./progress";
import { importRefusal } from "./rules";
import { importLimitBytes, tokenHash } from "./status";
import { runJob } from "./job";

const KINDS = new Set(["slack", "zulip"]);

interface Received {
  path: string;
  fileName: string;
  bytes: number;
  fields: Map<string, string>;
}

/** Starts an import; answers with the job's id and the token only the uploader holds. */
export async function startImport(app: App, actor: UserRow, request: Request): Promise<{ job_id: number; token: string }> {
  if (!isOwner(actor.role)) throw ownerRequired();
  const refusal = await importRefusal(app);
  if (refusal) throw badRequest(refusal);
  const limit = importLimitBytes(app);
  if (Number(request.headers.get("content-length") ?? 0) > limit + 64 * 1024) throw tooLarge(app);
  const live: LiveJob = { id: 0, stage: "receiving", label: "", done: 0, total: 0, since: Date.now(), skipped: [] };
  if (!claimLiveJob(app.config, live)) throw badRequest("An import is already under way.");
  let received: Received | null = null;
  try {
    received = await receive(app, request, limit);
    const kind = received.fields.get("kind") ?? "";
    if (!KINDS.has(kind)) throw badRequest(kind ? `Unknown kind of export '${kind}' (slack or zulip)` : "Missing 'kind' argument");
    const token = randomAlnum(32);
    const id = await app.db.tx((sql) =>
      insertImportJob(sql, { kind: kind as "slack" | "zulip", state: "running", file_name: received!.fileName, file_bytes: received!.bytes, started_by: actor.id, watch_token_hash: tokenHash(token), created_at: nowSecs(app) }),
    );
    live.id = id;
    const input = { kind: kind as "slack" | "zulip", archive: received.path, fileName: received.fileName, slackToken: received.fields.get("slack_token")?.trim() || null, orgName: app.realm?.name ?? app.config.organization.name };
    void runJob(app.host!, live, input);
    return { job_id: id, token };
  } catch (e) {
    releaseLiveJob(app.config);
    if (received) rmSync(received.path, { force: true });
    throw e;
  }
}

const tooLarge = (app: App) => badRequest(`The export is larger than this server's limit of ${app.config.limits.max_import_size_mib} MiB ([limits] max_import_size_mib)`);

/** The multipart body: small fields kept, the one file written to disk as it arrives. */
async function receive(app: App, request: Request, limit: number): Promise<Received> {
  const boundary = multipartBoundary(request.headers.get("content-type"));
  if (!boundary || !request.body) throw badRequest("You must upload the export as a file");
  const dir = webImportDir(app.config);
  mkdirSync(dir, { recursive: true });
  const fields = new Map<string, string>();
  let file: Received | null = null;
  let handle: Awaited<ReturnType<typeof open>> | null = null;
  let fieldBytes = 0;
  try {
    await readMultipart(request.body, boundary, async (info) => {
      if (info.filename === null) {
        const parts: Uint8Array[] = [];
        return {
          write(c) {
            if ((fieldBytes += c.length) > 16 * 1024) throw badRequest("Form field too large");
            parts.push(c.slice());
          },
          end: () => void fields.set(info.name, Buffer.concat(parts).toString("utf8")),
        };
      }
      if (file) throw badRequest("Upload one export at a time");
      const path = join(dir, `upload-${randomAlnum(12)}`);
      handle = await open(path, "wx");
      const current: Received = { path, fileName: info.filename.slice(0, 200), bytes: 0, fields };
      file = current;
      const writer = new CappedWriter(handle, limit, () => tooLarge(app));
      return {
        async write(chunk) {
          await writer.write(chunk);
          current.bytes = writer.written;
        },
        async end() {
          await handle!.datasync();
          await handle!.close();
          handle = null;
        },
      };
    });
  } catch (e) {
    if (handle) await (handle as Awaited<ReturnType<typeof open>>).close().catch(() => {});
    if (file) rmSync((file as Received).path, { force: true });
    if (e instanceof MultipartError) throw badRequest("You must upload the export as a file");
    throw e;
  }
  if (!file) throw badRequest("You must upload the export as a file");
  return file;
}
