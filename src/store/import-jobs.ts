// Imports started from the web app: the durable record of each one (see migration 0016).
import type { Sql } from "./db";

export type ImportJobState = "running" | "finished" | "failed" | "interrupted";

export interface ImportJobRow {
  id: number;
  kind: "slack" | "zulip";
  state: ImportJobState;
  file_name: string;
  file_bytes: number;
  started_by: number | null;
  watch_token_hash: string;
  error: string | null;
  summary: string | null;
  login_email: string | null;
  login_url: string | null;
  replaced_dir: string | null;
  created_at: number;
  finished_at: number | null;
}

export async function insertImportJob(sql: Sql, job: Omit<ImportJobRow, "id" | "error" | "summary" | "login_email" | "login_url" | "replaced_dir" | "finished_at">): Promise<number> {
  const r = await sql.run(
    "INSERT INTO import_jobs (kind, state, file_name, file_bytes, started_by, watch_token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    [job.kind, job.state, job.file_name, job.file_bytes, job.started_by, job.watch_token_hash, job.created_at],
  );
  return r.lastId;
}

/** A job copied whole (into the imported database, which then holds the outcome). */
export const copyImportJob = (sql: Sql, j: ImportJobRow) =>
  sql.run(
    "INSERT INTO import_jobs (id, kind, state, file_name, file_bytes, started_by, watch_token_hash, error, summary, login_email, login_url, replaced_dir, created_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [j.id, j.kind, j.state, j.file_name, j.file_bytes, j.started_by, j.watch_token_hash, j.error, j.summary, j.login_email, j.login_url, j.replaced_dir, j.created_at, j.finished_at],
  );

export const findImportJob = (sql: Sql, id: number) => sql.get<ImportJobRow>("SELECT * FROM import_jobs WHERE id = ?", [id]);

export const findImportJobByToken = (sql: Sql, tokenHash: string) => sql.get<ImportJobRow>("SELECT * FROM import_jobs WHERE watch_token_hash = ?", [tokenHash]);

export const latestImportJob = (sql: Sql) => sql.get<ImportJobRow>("SELECT * FROM import_jobs ORDER BY id DESC LIMIT 1");

export const runningImportJob = (sql: Sql) => sql.get<ImportJobRow>("SELECT * FROM import_jobs WHERE state = 'running' ORDER BY id DESC LIMIT 1");

export const finishImportJob = (sql: Sql, id: number, state: Exclude<ImportJobState, "running">, at: number, fields: { error?: string | null; summary?: string | null; loginEmail?: string | null; loginUrl?: string | null; replacedDir?: string | null } = {}) =>
  sql.run("UPDATE import_jobs SET state = ?, finished_at = ?, error = ?, summary = ?, login_email = ?, login_url = ?, replaced_dir = ? WHERE id = ?", [
    state,
    at,
    fields.error ?? null,
    fields.summary ?? null,
    fields.loginEmail ?? null,
    fields.loginUrl ?? null,
    fields.replacedDir ?? null,
    id,
  ]);

/** At start: a job still marked running was cut short by a stop or crash. */
export const interruptRunningImportJobs = (sql: Sql, at: number, error: string) =>
  sql.run("UPDATE import_jobs SET state = 'interrupted', finished_at = ?, error = ? WHERE state = 'running'", [at, error]);

/**
 * Messages a person (or a bot someone made) sent. The automatic ones a new organization gets (from
 * the system bots: Notification Bot, Welcome Bot) do not count: the organization is still empty.
 */
export async function countPeoplesMessages(sql: Sql, systemBotEmails: string[]): Promise<number> {
  const marks = systemBotEmails.map(() => "?").join(", ");
  const row = await sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM messages m JOIN users u ON u.id = m.sender_id WHERE u.email NOT IN (${marks || "''"})`, systemBotEmails);
  return row?.n ?? 0;
}
