// A Zulip export .tar.gz unpacked into a folder beside the data dir (Zulip's own importer reads an
// unpacked folder too): entries are streamed to disk one at a time, under the export's one top folder
// (zulip-export-xxxx/ in Zulip's, or none), refusing names that would land outside the folder.
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import { pipeline } from "node:stream/promises";
import { NotAnArchiveError, readTar } from "../../lib/tar";
import { ImportError } from "../common/problems";

export class ExportFolder {
  constructor(
    /** the archive, for messages */
    readonly archive: string,
    /** the unpacked export's root (where realm.json is) */
    readonly root: string,
    private readonly unpacked: string,
  ) {}

  has(name: string): boolean {
    return existsSync(this.path(name));
  }

  path(name: string): string {
    return join(this.root, name);
  }

  /** A JSON file of the export; a missing or invalid one is refused naming it. */
  json<T = unknown>(name: string, required = true): T | null {
    const path = this.path(name);
    if (!existsSync(path)) {
      if (!required) return null;
      throw new ImportError(`${this.archive}: ${name} is missing (is this a Zulip organization export?)`);
    }
    try {
      return JSON.parse(readFileSync(path, "utf8")) as T;
    } catch (e) {
      throw new ImportError(`${this.archive}: ${name} is not valid JSON (${(e as Error).message})`);
    }
  }

  remove() {
    rmSync(this.unpacked, { recursive: true, force: true });
  }
}

/** Unpacks `archive` into `into` (made fresh); a file that is not a complete tar(.gz) is refused. */
export async function unpackExport(archive: string, into: string): Promise<ExportFolder> {
  rmSync(into, { recursive: true, force: true });
  mkdirSync(into, { recursive: true });
  const tops = new Set<string>();
  try {
    await readTar(archive, async (entry) => {
      const name = normalize(entry.name.replace(/\\/g, "/")).replace(/^(\.\/)+/, "");
      if (name.startsWith("..") || name.startsWith(sep) || name.includes(`${sep}..${sep}`)) throw new ImportError(`${archive}: the entry '${entry.name}' points outside the export; refused`);
      if (entry.type !== "file") return;
      tops.add(name.split(sep)[0]!);
      const to = join(into, name);
      mkdirSync(dirname(to), { recursive: true });
      await pipeline(entry.stream as any, createWriteStream(to));
    });
  } catch (e) {
    rmSync(into, { recursive: true, force: true });
    if (e instanceof ImportError) throw e;
    if (e instanceof NotAnArchiveError) throw new ImportError(`${archive} is not a readable .tar.gz export (${e.message})`);
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new ImportError(`${archive} does not exist`);
    throw new ImportError(`${archive} cannot be unpacked (${(e as Error).message})`);
  }
  // Zulip's exports hold one top folder (zulip-export-xxxx/); realm.json sits in it
  const only = [...tops];
  const root = only.length === 1 && !existsSync(join(into, "realm.json")) && existsSync(join(into, only[0]!)) && !only[0]!.endsWith(".json") ? join(into, only[0]!) : into;
  return new ExportFolder(archive, root, into);
}
