import type { Sql } from "./db";

/** Whether the database answers a read of a real table (the health check). */
export const schemaVersion = async (sql: Sql): Promise<number> =>
  (await sql.get<{ v: number | null }>("SELECT max(version) AS v FROM schema_migrations"))?.v ?? 0;

/** The database's size: its pages (the file without its write-ahead log; on a libSQL server, the same measure). */
export const databaseBytes = async (sql: Sql): Promise<number> =>
  (await sql.get<{ n: number }>("SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()"))?.n ?? 0;

/** Uploaded files as recorded: how many and their bytes (thumbnails and emoji images not counted). Remembered until attachments change. */
export const uploadTotals = (sql: Sql): Promise<{ files: number; bytes: number }> =>
  sql.memo(["attachments"], "stats:uploads", async () => (await sql.get<{ files: number; bytes: number }>("SELECT count(*) AS files, coalesce(sum(size), 0) AS bytes FROM attachments"))!);
