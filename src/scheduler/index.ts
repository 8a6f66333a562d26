import type { App } from "../app";
import { defaultJobs } from "./jobs";
import { Scheduler } from "./loop";

export { Scheduler } from "./loop";
export type { Job } from "./loop";

/** Starts the loop with every job; closeApp stops it and waits for the running job. */
export function startScheduler(app: App, jobs = defaultJobs()): Scheduler {
  const scheduler = new Scheduler(app, jobs);
  app.onClose.unshift(() => scheduler.stop());
  scheduler.start();
  return scheduler;
}
