import type { App } from "../app";
import { defaultJobs } from "./jobs";
import { Scheduler } from "./loop";
import { indexSearchBacklog } from "../actions/messages/search-index";

export { Scheduler } from "./loop";
export type { Job } from "./loop";

/**
 * Starts the loop with every job; closeApp stops it and waits for the running job. `firstTick` resolves
 * when the jobs of the first tick (all of them: overdue work at start) have finished.
 */
export function startScheduler(app: App, jobs = defaultJobs()): { scheduler: Scheduler; firstTick: Promise<void> } {
  const scheduler = new Scheduler(app, jobs);
  app.onClose.unshift(() => scheduler.stop());
  const firstTick = scheduler.start();
  // not a job of the first tick, which start-up waits for: a backlog is indexed in the background
  indexSearchBacklog(app);
  return { scheduler, firstTick };
}
