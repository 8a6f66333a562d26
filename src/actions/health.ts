import type { App } from "../app";
import { schemaVersion } from "../store/stats";

/** A database that has not answered within this long counts as down (a remote server that hangs). */
const TIMEOUT_MS = 5_000;

/** GET /health: whether the database answers a read. A failure is logged here, never shown to the caller. */
export async function databaseAnswers(app: App): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS)));
    await Promise.race([schemaVersion(app.db), timeout]);
    return true;
  } catch (e) {
    app.log.error("health check: the database does not answer", { error: (e as Error)?.message ?? String(e) });
    return false;
  } finally {
    clearTimeout(timer);
  }
}
