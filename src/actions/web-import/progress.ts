// What the running web import is doing, in memory (the durable row says only that it runs): the
// import's phase, its counts and rate, and the items it skipped. Keyed by data dir, not by App: the
// job outlives the App it started on (the switch replaces it).
import { resolve } from "node:path";
import type { Config } from "../../config/schema";

export interface LiveJob {
  id: number;
  /** "receiving" (the upload), "importing", "switching" */
  stage: "receiving" | "importing" | "switching";
  label: string;
  done: number;
  total: number;
  /** when the current label's count began (ms) */
  since: number;
  /** skipped items, named (the newest 50) */
  skipped: string[];
}

const jobs = new Map<string, LiveJob>();
const keyOf = (config: Config) => resolve(config.data_dir);

export const liveJob = (config: Config) => jobs.get(keyOf(config)) ?? null;

/** Claims the data dir for one import; false when another is under way. */
export function claimLiveJob(config: Config, job: LiveJob): boolean {
  if (jobs.has(keyOf(config))) return false;
  jobs.set(keyOf(config), job);
  return true;
}

export const releaseLiveJob = (config: Config) => void jobs.delete(keyOf(config));

export function noteSkip(job: LiveJob, line: string) {
  job.skipped.push(line);
  if (job.skipped.length > 50) job.skipped.shift();
}
