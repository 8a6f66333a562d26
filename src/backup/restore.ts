/**
 * Restores a backup archive into an empty data dir. Every file is written into a staging folder inside
 * the data dir while its checksum is computed; only when the whole archive has been read, every file
 * matches the manifest and the database passes SQLite's quick check are the files moved into place (a
 * rename each, on the same filesystem). Anything wrong, and the staging folder is removed: nothing is
 * left half-restored, and a data dir that did not exist before does not exist after.
 */
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, existsSync } from "node:fs";
import { mkdir, readdir, rename, rm, rmdir, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { hashing, readTar, NotAnArchiveError } from "../lib/tar";
import { checkDatabaseFile } from "../store/snapshot";
import { MIGRATIONS } from "../store/migrations";
import { BackupFormatError, DATABASE_FILE, MANIFEST_FILE, ROOT, parseManifest, safeRelativePath, type FileSum, type Manifest } from "./manifest";

const STAGING_PREFIX = ".parley-restore-";
/** Entries a fresh filesystem or an interrupted restore leaves in a folder that is still "empty". */
const IGNORABLE = (name: string) => name === "lost+found" || name.startsWith(STAGING_PREFIX);
const MAX_MANIFEST_BYTES = 512 * 1024 * 1024;

/** Why a restore was refused; nothing was written. */
export class RestoreError extends Error {}

export async function restoreBackup(file: string, dataDir: string): Promise<Manifest> {
  dataDir = resolve(dataDir);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new RestoreError(`cannot read ${file}: no such file`);
  const createdDir = !existsSync(dataDir);
  if (!createdDir) {
    const st = await stat(dataDir);
    if (!st.isDirectory()) throw new RestoreError(`${dataDir} is not a folder`);
    const names = await readdir(dataDir);
    const others = names.filter((n) => !IGNORABLE(n));
    if (others.length) throw new RestoreError(`${dataDir} is not empty (it has ${others.slice(0, 3).join(", ")}${others.length > 3 ? ", ..." : ""}); restore only into an empty or new folder`);
    // an earlier restore that was killed left its staging folder: it never held anything restored
    for (const n of names) if (n.startsWith(STAGING_PREFIX)) await rm(join(dataDir, n), { recursive: true, force: true });
  }
  const staging = join(dataDir, STAGING_PREFIX + randomBytes(6).toString("hex"));
  await mkdir(staging, { recursive: true });
  const moved: string[] = [];
  try {
    const manifest = await extractVerified(file, staging);
    try {
      await checkDatabaseFile(join(staging, DATABASE_FILE), manifest.schema_version);
    } catch (e) {
      throw new RestoreError(`${file} holds a damaged database (${(e as Error).message}); nothing was restored`);
    }
    // something (a server started meanwhile) wrote into DIR while the archive was checked: leave it alone
    const arrived = (await readdir(dataDir)).filter((n) => !IGNORABLE(n));
    if (arrived.length) throw new RestoreError(`${dataDir} is no longer empty (${arrived.slice(0, 3).join(", ")} appeared during the restore); nothing was restored`);
    for (const name of await readdir(staging)) {
      await rename(join(staging, name), join(dataDir, name));
      moved.push(name);
    }
    await rmdir(staging);
    return manifest;
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    for (const name of moved) await rm(join(dataDir, name), { recursive: true, force: true });
    // a folder this restore made goes again, unless something else has put files in it
    if (createdDir) await rmdir(dataDir).catch(() => {});
    throw e;
  }
}

/** Streams every file into `staging` (checksumming it), then checks the set against the manifest. */
async function extractVerified(file: string, staging: string): Promise<Manifest> {
  const got = new Map<string, FileSum>();
  let manifestText: string | null = null;
  const refuse = (why: string) => new RestoreError(`${file} is not a Parley backup or is damaged: ${why}; nothing was restored`);
  try {
    await readTar(file, async (entry) => {
      const name = entry.name.replace(/\/+$/, "");
      if (name === ROOT && entry.type === "directory") return;
      const rel = name.startsWith(`${ROOT}/`) ? safeRelativePath(name.slice(ROOT.length + 1)) : null;
      if (rel === null) throw new BackupFormatError(`unexpected entry '${entry.name}'`);
      if (entry.type === "directory") return;
      if (entry.type !== "file" && entry.type !== "contiguous-file") throw new BackupFormatError(`'${entry.name}' is a ${entry.type}, not a file`);
      if (rel === MANIFEST_FILE) {
        if (entry.size > MAX_MANIFEST_BYTES) throw new BackupFormatError(`${MANIFEST_FILE} is too large`);
        const chunks: Uint8Array[] = [];
        for await (const chunk of entry.stream) chunks.push(chunk);
        manifestText = Buffer.concat(chunks).toString("utf8");
        return;
      }
      if (got.has(rel)) throw new BackupFormatError(`'${rel}' appears twice`);
      const dest = join(staging, rel);
      await mkdir(dirname(dest), { recursive: true });
      const hash = createHash("sha256");
      const out = createWriteStream(dest, { flags: "wx", mode: rel === DATABASE_FILE || rel === "zuliprc" || rel === "vapid.json" ? 0o600 : 0o644 });
      await pipeline(entry.stream, hashing(hash), out);
      got.set(rel, { size: out.bytesWritten, sha256: hash.digest("hex") });
    });
  } catch (e) {
    if (e instanceof NotAnArchiveError) throw refuse(e.message);
    if (e instanceof BackupFormatError) throw refuse(e.message);
    throw e;
  }
  if (manifestText === null) throw refuse(`it has no ${ROOT}/${MANIFEST_FILE}`);
  let manifest: Manifest;
  try {
    manifest = parseManifest(manifestText);
  } catch (e) {
    throw refuse((e as Error).message);
  }
  const newest = Math.max(...MIGRATIONS.map((m) => m.version));
  if (manifest.schema_version > newest) {
    throw new RestoreError(`${file} was made by a newer Parley (${manifest.parley_version}, schema ${manifest.schema_version}; this one knows ${newest}): upgrade Parley first; nothing was restored`);
  }
  for (const [name, want] of Object.entries(manifest.files)) {
    const have = got.get(name);
    if (!have) throw refuse(`${name} is listed in the manifest but missing`);
    if (have.size !== want.size || have.sha256 !== want.sha256) throw refuse(`checksum mismatch for ${name}`);
  }
  for (const name of got.keys()) if (!(name in manifest.files)) throw refuse(`${name} is not listed in the manifest`);
  return manifest;
}
