-- Emails are durable rows sent by the timer loop (src/notify/): a row is claimed (claimed_until, a
-- lease a crashed sender's claim runs out of) before it is handed to SMTP, marked sent after, and
-- retried with back-off (next_attempt) until it gives up (failed = 1). message_id is the
-- Message-ID header, fixed when the row is written, so a resend after a crash is recognisable.
ALTER TABLE outbox_emails ADD COLUMN html TEXT;
ALTER TABLE outbox_emails ADD COLUMN headers TEXT NOT NULL DEFAULT '{}';
ALTER TABLE outbox_emails ADD COLUMN message_id TEXT;
ALTER TABLE outbox_emails ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox_emails ADD COLUMN next_attempt REAL NOT NULL DEFAULT 0;
ALTER TABLE outbox_emails ADD COLUMN claimed_until REAL;
ALTER TABLE outbox_emails ADD COLUMN failed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox_emails ADD COLUMN last_error TEXT;
ALTER TABLE outbox_emails ADD COLUMN sent_at REAL;
-- Rows written before the outbox had a sender were logged (or sent) already: none is sent now.
UPDATE outbox_emails SET failed = 1, last_error = 'written before the email outbox' WHERE sent = 0;
CREATE INDEX outbox_emails_due ON outbox_emails (next_attempt) WHERE sent = 0 AND failed = 0;

-- Missed-message notifications: the timer loop reads messages past `last_message_id` (nothing is
-- written on the send path), decides per recipient (src/notify/decide.ts) and writes one row per
-- (user, message) that may become an email, with the cursor's move, in one transaction. The email
-- job turns a user's rows into emails once the first is `due` (their batching period).
CREATE TABLE notify_cursor (
  id              INTEGER PRIMARY KEY CHECK (id = 1),
  last_message_id INTEGER NOT NULL
);
INSERT INTO notify_cursor (id, last_message_id) SELECT 1, COALESCE(MAX(id), 0) FROM messages;

CREATE TABLE missed_message_emails (
  user_id            INTEGER NOT NULL REFERENCES users (id),
  message_id         INTEGER NOT NULL,
  trigger            TEXT NOT NULL,     -- direct_message | mentioned | wildcard_mentioned | followed_topic | stream_email_notify
  mentioned_group_id INTEGER,
  due                REAL NOT NULL,
  PRIMARY KEY (user_id, message_id)
) WITHOUT ROWID;
CREATE INDEX missed_message_emails_due ON missed_message_emails (due);

-- One-time links sent by email: password reset and email change. Only the SHA-256 of the token is
-- kept; `used` is set when it is spent.
CREATE TABLE email_tokens (
  token_hash TEXT PRIMARY KEY,
  kind       TEXT NOT NULL,             -- password_reset | email_change
  user_id    INTEGER NOT NULL REFERENCES users (id),
  new_email  TEXT,                      -- email_change: the address it confirms
  created    REAL NOT NULL,
  expires    REAL NOT NULL,
  used       REAL
);
CREATE INDEX email_tokens_by_user ON email_tokens (user_id, kind);

-- Secrets this server keeps (the key signing one-click unsubscribe links), made on first use.
CREATE TABLE server_secrets (
  name  TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
