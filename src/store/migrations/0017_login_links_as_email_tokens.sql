-- One table of one-time links: the login links `parley import --print-login-links` prints become
-- email_tokens of kind 'login_link' (beside password_reset and email_change), so one set of queries
-- spends them and one clean-up removes the expired ones. Links already printed keep working: their
-- hashes, times and use move over unchanged.
INSERT OR IGNORE INTO email_tokens (token_hash, kind, user_id, new_email, created, expires, used)
  SELECT token_hash, 'login_link', user_id, NULL, created_at, expires_at, used_at FROM login_links;
DROP TABLE login_links;
