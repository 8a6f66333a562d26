-- Invitations by email (Zulip's PreregistrationUser) share the invites table with the reusable links:
-- is_multiuse = 0 and `email` set. An emailed link works once: `used_by` is the account made with it.
-- `notify_referrer_on_join`: the inviter gets a Notification Bot message when the person joins.
ALTER TABLE invites ADD COLUMN notify_referrer_on_join INTEGER NOT NULL DEFAULT 1;
ALTER TABLE invites ADD COLUMN used_by INTEGER REFERENCES users (id);
-- A sign-up revokes the other pending invitations of the same address.
CREATE INDEX invites_by_email ON invites (realm_id, email COLLATE NOCASE) WHERE email IS NOT NULL;
-- Each invitation email sent (first send and resends): the organization's daily limit counts them.
CREATE TABLE invite_emails_sent (
  id       INTEGER PRIMARY KEY,
  realm_id INTEGER NOT NULL REFERENCES realm (id),
  sent_at  REAL NOT NULL
);
CREATE INDEX invite_emails_sent_by_time ON invite_emails_sent (realm_id, sent_at);
