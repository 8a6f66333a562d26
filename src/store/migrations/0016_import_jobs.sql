-- Imports started from the web app (the owner's server page): one row per uploaded archive. The row
-- outlives a crash, so a start finds a job that was running and marks it interrupted; the finished
-- row is also written into the imported database, so the uploader can read the outcome after the switch.
CREATE TABLE import_jobs (
  id               INTEGER PRIMARY KEY,
  kind             TEXT NOT NULL,              -- 'slack' | 'zulip'
  state            TEXT NOT NULL,              -- 'running' | 'finished' | 'failed' | 'interrupted'
  file_name        TEXT NOT NULL,
  file_bytes       INTEGER NOT NULL,
  started_by       INTEGER,                    -- a user of the organization that was replaced
  watch_token_hash TEXT NOT NULL,              -- SHA-256 of the uploader's token (reads the outcome after the switch)
  error            TEXT,
  summary          TEXT,                       -- JSON array of the summary's lines
  login_email      TEXT,                       -- the imported owner
  login_url        TEXT,                       -- their one-time login link (shown only to the uploader)
  replaced_dir     TEXT,                       -- where the replaced organization's files were kept
  created_at       REAL NOT NULL,
  finished_at      REAL
);
