import { closeApp, openApp, type App } from "../../src/app";
import type { TestServer } from "./server";

/**
 * A "restart": closes the test server's app and opens a new one on the same data dir and clock.
 * Close the returned app yourself before `s.close()` (which then only removes the data dir).
 */
export async function reopenApp(s: TestServer): Promise<App> {
  await closeApp(s.app);
  return openApp(s.app.config, { quiet: true, clock: s.clock });
}
