-- Web Push (RFC 8030) sent by Parley itself: the browsers' subscriptions, and a durable outbox.

-- One row per browser that subscribed; the same endpoint again for the same user updates its keys.
CREATE TABLE web_push_subscriptions (
  id       INTEGER PRIMARY KEY,
  user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  endpoint TEXT NOT NULL,
  p256dh   TEXT NOT NULL,          -- the browser's P-256 public key, base64url (65 bytes uncompressed)
  auth     TEXT NOT NULL,          -- the 16-byte authentication secret, base64url
  created  REAL NOT NULL
);
CREATE UNIQUE INDEX web_push_subscriptions_by_endpoint ON web_push_subscriptions (user_id, endpoint);

-- What to push: one row per (user, message), written by enqueueWebPush (src/notify/webpush/outbox.ts)
-- in the sender's transaction, so a crash after the message cannot lose the notification.
CREATE TABLE web_push_outbox (
  id         INTEGER PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  message_id INTEGER NOT NULL,     -- no foreign key: a deleted message is skipped at send time
  trigger    TEXT NOT NULL,        -- why: 'direct_message', 'mentioned', 'followed_topic', ...
  created    REAL NOT NULL
);
CREATE UNIQUE INDEX web_push_outbox_by_message ON web_push_outbox (user_id, message_id);

-- One delivery per (outbox row, subscription), so a retry goes only where it failed.
-- state: 'pending' (next_at says when), 'sending' (claimed until claimed_until), 'sent', 'skipped', 'failed'.
CREATE TABLE web_push_deliveries (
  id              INTEGER PRIMARY KEY,
  outbox_id       INTEGER NOT NULL REFERENCES web_push_outbox (id) ON DELETE CASCADE,
  subscription_id INTEGER NOT NULL REFERENCES web_push_subscriptions (id) ON DELETE CASCADE,
  state           TEXT NOT NULL DEFAULT 'pending',
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_at         REAL NOT NULL,
  claimed_until   REAL,
  done_at         REAL,
  last_error      TEXT
);
CREATE UNIQUE INDEX web_push_deliveries_once ON web_push_deliveries (outbox_id, subscription_id);
-- The timer loop's query: work that is due (pending) or whose claim ran out (a crash while sending).
CREATE INDEX web_push_deliveries_due ON web_push_deliveries (next_at) WHERE state IN ('pending', 'sending');
CREATE INDEX web_push_deliveries_by_subscription ON web_push_deliveries (subscription_id);
