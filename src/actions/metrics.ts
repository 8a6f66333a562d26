/**
 * /metrics ([metrics] enabled): what an operator graphs and alerts on. Nothing in it names a user, a
 * channel or a message: counts, sizes, latencies and the process's own figures.
 */
import type { App } from "../app";
import { attachMetrics, metricsOf, type ServerMetrics } from "../lib/metrics";
import { databaseBytes, uploadTotals } from "../store/stats";
import { PARLEY_VERSION, ZULIP_FEATURE_LEVEL } from "../domain/version";
import { backupStatus } from "./backups";

/** Turns metrics on for this app (requests are counted from now on) and registers the gauges read at scrape time. */
export function enableMetrics(app: App): ServerMetrics {
  const existing = metricsOf(app);
  if (existing) return existing;
  const m = attachMetrics(app);
  m.info("parley_info", "Parley's version and Zulip API feature level", { version: PARLEY_VERSION, feature_level: String(ZULIP_FEATURE_LEVEL) });
  m.gauge("parley_event_queues", "Event queues registered by clients", () => app.events.size);
  m.gauge("parley_event_polls_held", "Long-polls (GET /events) parked, waiting for an event", () => app.events.heldPolls);
  m.gauge("parley_database_bytes", "Size of the database (its pages)", () => databaseBytes(app.db));
  m.gauge("parley_uploads_bytes", "Bytes of uploaded files (attachments; thumbnails and emoji not counted)", async () => (await uploadTotals(app.db)).bytes);
  m.gauge("parley_uploads_files", "Uploaded files (attachments)", async () => (await uploadTotals(app.db)).files);
  if (app.config.backup.dir) {
    const b = () => backupStatus(app);
    m.gauge("parley_backup_last_success_timestamp_seconds", "When the last automatic backup was written (0: none since start)", () => (b().lastSuccessMs ?? 0) / 1000);
    m.gauge("parley_backup_consecutive_failures", "Automatic backups failed in a row (0 after a success)", () => b().failures);
  }
  return m;
}

/** The text a Prometheus scrape reads, and its content type. */
export async function renderMetrics(app: App): Promise<{ body: string; contentType: string }> {
  const m = enableMetrics(app);
  return { body: await m.render(), contentType: m.contentType };
}
