/**
 * The manifest of a backup archive: what made it, what it holds, and a SHA-256 of every file. It is the
 * archive's last entry (the checksums are known only once every file has been read), named
 * `parley-data/backup-manifest.json`; every other entry sits under `parley-data/` too, laid out as a
 * data dir, so `tar xzf` alone gives a folder `parley serve --data-dir parley-data` can serve.
 */
export const ROOT = "parley-data";
export const MANIFEST_FILE = "backup-manifest.json";
export const DATABASE_FILE = "parley.db";
export const FORMAT = "parley-backup";
export const FORMAT_VERSION = 1;

export interface FileSum {
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  format_version: number;
  created_at: string;
  parley_version: string;
  zulip_feature_level: number;
  /** the newest migration applied to the database, and all of them */
  schema_version: number;
  migrations: { version: number; name: string }[];
  /** where the database came from: this machine's file, or a libSQL server read through the network */
  database_source: "embedded" | "libsql-server";
  counts: Record<string, number>;
  /** every file of the archive but the manifest, by its path under parley-data/ */
  files: Record<string, FileSum>;
}

/** A damaged archive, or a file that is not one: nothing is restored. */
export class BackupFormatError extends Error {}

/** Parses and checks the manifest's shape; throws BackupFormatError naming what is wrong. */
export function parseManifest(text: string): Manifest {
  let m: any;
  try {
    m = JSON.parse(text);
  } catch {
    throw new BackupFormatError(`its ${MANIFEST_FILE} is not valid JSON`);
  }
  if (m?.format !== FORMAT) throw new BackupFormatError(`its ${MANIFEST_FILE} is not a Parley backup manifest`);
  if (m.format_version !== FORMAT_VERSION) throw new BackupFormatError(`it is backup format ${m.format_version}; this Parley reads format ${FORMAT_VERSION}`);
  if (!Number.isInteger(m.schema_version) || typeof m.files !== "object" || m.files === null || Array.isArray(m.files)) {
    throw new BackupFormatError(`its ${MANIFEST_FILE} is incomplete`);
  }
  for (const [name, sum] of Object.entries(m.files as Record<string, any>)) {
    if (!Number.isInteger(sum?.size) || typeof sum?.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(sum.sha256)) {
      throw new BackupFormatError(`its ${MANIFEST_FILE} has no valid checksum for ${name}`);
    }
  }
  if (!m.files[DATABASE_FILE]) throw new BackupFormatError(`it holds no ${DATABASE_FILE}`);
  return m as Manifest;
}

/**
 * A relative path inside the archive that is safe to write under a folder: no absolute path, no `.`,
 * `..` or empty segment, no backslash or NUL. Null otherwise.
 */
export function safeRelativePath(name: string): string | null {
  if (!name || name.startsWith("/") || /[\\\0]/.test(name)) return null;
  const parts = name.split("/");
  if (parts.some((p) => p === "" || p === "." || p === "..")) return null;
  return parts.join("/");
}
