import type { App } from "../app";
import type { Job } from "./loop";
import { deleteExpiredSessionsNow } from "../actions/sessions";

/** Drops event queues idle past their lifespan (Zulip runs this every minute). */
const gcEventQueues: Job = {
  name: "gc-event-queues",
  intervalMs: 60_000,
  run: async (app: App) => app.events.gc(),
};

/** Forgets expired browser sessions. */
const expireSessions: Job = {
  name: "expire-sessions",
  intervalMs: 3600_000,
  run: (app: App) => deleteExpiredSessionsNow(app),
};

/** Every job of the built-in loop. Each only calls an action. */
export function defaultJobs(): Job[] {
  return [gcEventQueues, expireSessions];
}
