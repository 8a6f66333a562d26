-- Outgoing-webhook bots (Zulip's Service): where the bot's messages are POSTed, in which format
-- (1 generic, 2 Slack-compatible) and the token the receiver checks.
CREATE TABLE bot_services (
  bot_id    INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  base_url  TEXT NOT NULL,
  interface INTEGER NOT NULL DEFAULT 1,
  token     TEXT NOT NULL
);

-- A message an outgoing-webhook bot must be told about (mentioned, or sent a direct message):
-- written once the message is stored, sent by the timer loop, deleted when answered or given up.
-- `attempts` counts the POSTs started (bounded); `next_attempt` is when the row is next due
-- (a row being sent is pushed forward first, so a crash retries it later, never at once twice).
CREATE TABLE outgoing_webhook_jobs (
  id           INTEGER PRIMARY KEY,
  bot_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  message_id   INTEGER NOT NULL,
  trigger      TEXT NOT NULL,
  attempts     INTEGER NOT NULL DEFAULT 0,
  next_attempt REAL NOT NULL,
  last_error   TEXT,
  UNIQUE (bot_id, message_id)
);
CREATE INDEX outgoing_webhook_jobs_due ON outgoing_webhook_jobs (next_attempt);

-- The last payloads each bot's incoming webhook received, with the refusal when there was one
-- (what the integrations page shows an owner whose tool does not post). Pruned to the newest few per bot.
CREATE TABLE webhook_requests (
  id          INTEGER PRIMARY KEY,
  bot_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  integration TEXT NOT NULL,
  received    REAL NOT NULL,
  event       TEXT,
  status      INTEGER NOT NULL,
  error       TEXT,
  payload     TEXT NOT NULL
);
CREATE INDEX webhook_requests_by_bot ON webhook_requests (bot_id, id);
