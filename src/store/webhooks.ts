import { changedRows, type Sql } from "./db";

export interface BotServiceRow {
  bot_id: number;
  base_url: string;
  interface: number;
  token: string;
}

export const insertBotService = (sql: Sql, s: BotServiceRow) =>
  sql.run("INSERT INTO bot_services (bot_id, base_url, interface, token) VALUES (?, ?, ?, ?)", [s.bot_id, s.base_url, s.interface, s.token]);
export const updateBotServiceRow = (sql: Sql, botId: number, baseUrl: string, iface: number) =>
  sql.run("UPDATE bot_services SET base_url = ?, interface = ? WHERE bot_id = ?", [baseUrl, iface, botId]);
export const findBotService = (sql: Sql, botId: number) => sql.get<BotServiceRow>("SELECT * FROM bot_services WHERE bot_id = ?", [botId]);
export const listBotServices = (sql: Sql, botIds: number[]) =>
  botIds.length ? sql.all<BotServiceRow>(`SELECT * FROM bot_services WHERE bot_id IN (${botIds.map(() => "?").join(",")})`, botIds) : Promise.resolve([]);

/** The active outgoing-webhook bots' ids: asked on every send, remembered until bots or users change. */
export const listActiveServiceBotIds = (sql: Sql) =>
  sql.memo(["bot_services", changedRows("users")], "outgoing-webhook-bots", async () =>
    new Set((await sql.all<{ id: number }>("SELECT s.bot_id AS id FROM bot_services s JOIN users u ON u.id = s.bot_id WHERE u.is_active = 1")).map((r) => r.id)),
  );

export interface OutgoingJobRow {
  id: number;
  bot_id: number;
  message_id: number;
  trigger: string;
  attempts: number;
  next_attempt: number;
  last_error: string | null;
}

/** One row per bot and message (a bot both mentioned and in a direct message is told once). */
export async function insertOutgoingJobs(sql: Sql, jobs: { botId: number; messageId: number; trigger: string; due: number }[]) {
  for (const j of jobs) {
    await sql.run("INSERT OR IGNORE INTO outgoing_webhook_jobs (bot_id, message_id, trigger, next_attempt) VALUES (?, ?, ?, ?)", [j.botId, j.messageId, j.trigger, j.due]);
  }
}

export const listDueOutgoingJobs = (sql: Sql, now: number, limit: number) =>
  sql.all<OutgoingJobRow>("SELECT * FROM outgoing_webhook_jobs WHERE next_attempt <= ? ORDER BY next_attempt, id LIMIT ?", [now, limit]);

/** Takes a due row for one attempt: counts it and pushes it to `retryAt`; false when another run took it first. */
export async function claimOutgoingJob(sql: Sql, job: OutgoingJobRow, retryAt: number): Promise<boolean> {
  const { changes } = await sql.run("UPDATE outgoing_webhook_jobs SET attempts = attempts + 1, next_attempt = ? WHERE id = ? AND attempts = ?", [retryAt, job.id, job.attempts]);
  return changes === 1;
}

export const noteOutgoingJobError = (sql: Sql, id: number, error: string) => sql.run("UPDATE outgoing_webhook_jobs SET last_error = ? WHERE id = ?", [error, id]);
export const deleteOutgoingJob = (sql: Sql, id: number) => sql.run("DELETE FROM outgoing_webhook_jobs WHERE id = ?", [id]);
export const listOutgoingJobs = (sql: Sql) => sql.all<OutgoingJobRow>("SELECT * FROM outgoing_webhook_jobs ORDER BY id");

export interface WebhookRequestRow {
  id: number;
  bot_id: number;
  integration: string;
  received: number;
  event: string | null;
  status: number;
  error: string | null;
  payload: string;
}

/** How many of a bot's last requests are kept. */
export const WEBHOOK_REQUESTS_KEPT = 10;

/** Records a request a bot's webhook received, and forgets the ones older than the newest few. */
export async function insertWebhookRequest(sql: Sql, r: Omit<WebhookRequestRow, "id">): Promise<void> {
  const { lastId } = await sql.run("INSERT INTO webhook_requests (bot_id, integration, received, event, status, error, payload) VALUES (?, ?, ?, ?, ?, ?, ?)", [
    r.bot_id,
    r.integration,
    r.received,
    r.event,
    r.status,
    r.error,
    r.payload,
  ]);
  if (lastId % 4 !== 0) return; // pruned every few inserts: the list reads only the newest anyway
  await sql.run("DELETE FROM webhook_requests WHERE bot_id = ? AND id < (SELECT id FROM webhook_requests WHERE bot_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)", [
    r.bot_id,
    r.bot_id,
    WEBHOOK_REQUESTS_KEPT - 1,
  ]);
}

export const listWebhookRequests = (sql: Sql, botId: number) =>
  sql.all<WebhookRequestRow>("SELECT * FROM webhook_requests WHERE bot_id = ? ORDER BY id DESC LIMIT ?", [botId, WEBHOOK_REQUESTS_KEPT]);
