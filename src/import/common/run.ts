// One import from start to end: refuse a data dir that is not empty, build beside it, move the
// result into place only when every step succeeded, and print the summary. A refusal or failure
// removes the build and leaves the data dir as it was.

import type { Config } from "../../config/schema";
import { Downloader, type DownloaderOptions } from "./download";
import { ImportError, SkipLog } from "./problems";
import { Progress, summaryLines, type Totals } from "./progress";
import { buildDirOf, prepareTarget, type ImportTarget } from "./target";
import { ImportWriter, type ImportPerson } from "./writer";

export interface ImportRun {
  target: ImportTarget;
  skips: SkipLog;
  progress: Progress;
  /** lines added to the summary (what was left behind, and why) */
  notes: string[];
  /** Creates the organization with its owner; call once, first. */
  open(org: { name: string; description?: string }, owner: ImportPerson): Promise<ImportWriter>;
  /** A downloader whose finished files survive a crashed run (cleared after success). */
  downloader(opts: Omit<DownloaderOptions, "cacheDir" | "maxBytes">): Downloader;
}

export interface RunOptions {
  out?: NodeJS.WriteStream;
  /** where skipped items are logged (default: stderr) */
  log?: (line: string) => void;
  /** reports progress (default: a bar on `out`); the web import's watches it */
  progress?: Progress;
}

export interface ImportResult {
  totals: Totals;
  skipped: Map<string, number>;
  summary: string[];
  dataDir: string;
  owner: { email: string; apiKey: string; id: number };
}

export async function runImport(config: Config, opts: RunOptions, convert: (run: ImportRun) => Promise<void>): Promise<ImportResult> {
  const target = prepareTarget(config);
  const skips = new SkipLog(opts.log);
  const out = opts.out ?? process.stdout;
  const downloads: Downloader[] = [];
  let writer: ImportWriter | null = null;
  const run: ImportRun = {
    target,
    skips,
    progress: opts.progress ?? new Progress(out),
    notes: [],
    async open(org, owner) {
      if (writer) throw new Error("the organization is already open");
      writer = await ImportWriter.open(target, org, owner);
      return writer;
    },
    downloader(d) {
      const dl = new Downloader({ ...d, cacheDir: `${buildDirOf(target.dataDir)}-downloads`, maxBytes: config.limits.max_file_upload_size_mib * 1024 * 1024 });
      downloads.push(dl);
      return dl;
    },
  };
  try {
    await convert(run);
    if (!writer) throw new ImportError("the export holds no organization to import");
    const w = writer as ImportWriter;
    const totals = await w.finish();
    for (const d of downloads) d.clear();
    const summary = summaryLines(totals, skips.counts, run.notes);
    return { totals, skipped: skips.counts, summary, dataDir: target.dataDir, owner: { ...w.owner } };
  } catch (e) {
    run.progress.finish();
    if (writer) await (writer as ImportWriter).abort();
    else target.abort();
    throw e;
  }
}


