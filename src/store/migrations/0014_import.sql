-- One-time login links (`parley import slack --print-login-links`): imported people have no password;
-- a link signs its person in once, within its lifetime. Only the token's SHA-256 is kept.
CREATE TABLE login_links (
  token_hash   TEXT PRIMARY KEY,
  user_id      INTEGER NOT NULL REFERENCES users (id),
  created_at   REAL NOT NULL,
  expires_at   REAL NOT NULL,
  used_at      REAL
) WITHOUT ROWID;
CREATE INDEX login_links_by_user ON login_links (user_id);
