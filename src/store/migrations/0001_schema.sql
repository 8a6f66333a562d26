-- Parley's schema: one organization (realm) per data dir, Zulip's data model in SQLite.
-- Timestamps are UNIX seconds (REAL where Zulip reports fractions). JSON columns hold
-- settings read as a whole and cached in memory; everything queried by value is a column.

CREATE TABLE realm (
  id              INTEGER PRIMARY KEY,
  string_id       TEXT NOT NULL DEFAULT '',
  name            TEXT NOT NULL,
  description     TEXT NOT NULL DEFAULT '',
  date_created    REAL NOT NULL,
  deactivated     INTEGER NOT NULL DEFAULT 0,
  -- every PATCH /realm setting not listed above, merged over the defaults in code
  settings        TEXT NOT NULL DEFAULT '{}',
  -- presence_last_update_id: a counter bumped on every presence change (presence sync)
  presence_sequence INTEGER NOT NULL DEFAULT 0
);

-- Zulip addresses messages to "recipients": a user (1:1 DMs), a channel, or a DM group.
CREATE TABLE recipients (
  id      INTEGER PRIMARY KEY,
  type    INTEGER NOT NULL,           -- 1 personal, 2 stream, 3 direct message group
  type_id INTEGER NOT NULL
);
CREATE UNIQUE INDEX recipients_by_type ON recipients (type, type_id);

CREATE TABLE users (
  id               INTEGER PRIMARY KEY,
  realm_id         INTEGER NOT NULL REFERENCES realm (id),
  email            TEXT NOT NULL,              -- API email
  delivery_email   TEXT NOT NULL,
  full_name        TEXT NOT NULL,
  role             INTEGER NOT NULL DEFAULT 400,  -- 100 owner, 200 admin, 300 moderator, 400 member, 600 guest
  is_active        INTEGER NOT NULL DEFAULT 1,
  is_bot           INTEGER NOT NULL DEFAULT 0,
  bot_type         INTEGER,                    -- 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded
  bot_owner_id     INTEGER REFERENCES users (id),
  api_key          TEXT NOT NULL,
  password_hash    TEXT,                       -- argon2id via Bun.password; NULL means no password login
  can_create_users INTEGER NOT NULL DEFAULT 0,
  date_joined      REAL NOT NULL,
  timezone         TEXT NOT NULL DEFAULT '',
  avatar_source    TEXT NOT NULL DEFAULT 'G',  -- G gravatar, U uploaded
  avatar_version   INTEGER NOT NULL DEFAULT 1,
  is_imported_stub INTEGER NOT NULL DEFAULT 0,
  recipient_id     INTEGER REFERENCES recipients (id),
  settings         TEXT NOT NULL DEFAULT '{}', -- personal settings (PATCH /settings), merged over defaults
  -- bots: where a bot sends by default and which channel its queues register for (POST/PATCH /bots)
  default_sending_stream_id         INTEGER,
  default_events_register_stream_id INTEGER,
  default_all_public_streams        INTEGER NOT NULL DEFAULT 0
);
-- Every authenticated request looks its user up by API key.
CREATE UNIQUE INDEX users_by_api_key ON users (api_key);
-- Emails are unique per organization, case-insensitively (login, DM recipients by email).
CREATE UNIQUE INDEX users_by_email ON users (realm_id, email COLLATE NOCASE);
CREATE UNIQUE INDEX users_by_delivery_email ON users (realm_id, delivery_email COLLATE NOCASE);
CREATE INDEX users_by_bot_owner ON users (bot_owner_id) WHERE bot_owner_id IS NOT NULL;

-- Browser sessions (the web client and the tus endpoint accept the session cookie).
CREATE TABLE sessions (
  token      TEXT PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created    REAL NOT NULL,
  expires    REAL NOT NULL
);

-- User groups. System groups (role:*) have is_system_group = 1; anonymous groups used as
-- group-setting values ({direct_members, direct_subgroups}) have name NULL.
CREATE TABLE user_groups (
  id              INTEGER PRIMARY KEY,
  realm_id        INTEGER NOT NULL REFERENCES realm (id),
  name            TEXT,
  description     TEXT NOT NULL DEFAULT '',
  is_system_group INTEGER NOT NULL DEFAULT 0,
  deactivated     INTEGER NOT NULL DEFAULT 0,
  creator_id      INTEGER REFERENCES users (id),
  date_created    REAL,
  settings        TEXT NOT NULL DEFAULT '{}'   -- can_manage_group, can_join_group, ... group ids
);
CREATE UNIQUE INDEX user_groups_by_name ON user_groups (realm_id, name) WHERE name IS NOT NULL;

CREATE TABLE user_group_members (
  group_id INTEGER NOT NULL REFERENCES user_groups (id) ON DELETE CASCADE,
  user_id  INTEGER NOT NULL REFERENCES users (id),
  PRIMARY KEY (group_id, user_id)
) WITHOUT ROWID;
-- "which groups is this user in" is asked by every permission check.
CREATE INDEX user_group_members_by_user ON user_group_members (user_id, group_id);

CREATE TABLE user_group_subgroups (
  group_id    INTEGER NOT NULL REFERENCES user_groups (id) ON DELETE CASCADE,
  subgroup_id INTEGER NOT NULL REFERENCES user_groups (id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, subgroup_id)
) WITHOUT ROWID;
CREATE INDEX user_group_subgroups_by_subgroup ON user_group_subgroups (subgroup_id, group_id);

CREATE TABLE channel_folders (
  id                   INTEGER PRIMARY KEY,
  realm_id             INTEGER NOT NULL REFERENCES realm (id),
  name                 TEXT NOT NULL,
  description          TEXT NOT NULL DEFAULT '',
  rendered_description TEXT NOT NULL DEFAULT '',
  "order"              INTEGER NOT NULL DEFAULT 0,
  creator_id           INTEGER REFERENCES users (id),
  date_created         REAL NOT NULL,
  is_archived          INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX channel_folders_by_name ON channel_folders (realm_id, name COLLATE NOCASE);

CREATE TABLE streams (
  id                             INTEGER PRIMARY KEY,
  realm_id                       INTEGER NOT NULL REFERENCES realm (id),
  name                           TEXT NOT NULL,
  description                    TEXT NOT NULL DEFAULT '',
  rendered_description           TEXT NOT NULL DEFAULT '',
  invite_only                    INTEGER NOT NULL DEFAULT 0,
  is_web_public                  INTEGER NOT NULL DEFAULT 0,
  history_public_to_subscribers  INTEGER NOT NULL DEFAULT 1,
  date_created                   REAL NOT NULL,
  creator_id                     INTEGER REFERENCES users (id),
  message_retention_days         INTEGER,     -- NULL: organization default; -1: unlimited
  is_archived                    INTEGER NOT NULL DEFAULT 0,
  folder_id                      INTEGER REFERENCES channel_folders (id),
  topics_policy                  TEXT NOT NULL DEFAULT 'inherit',
  first_message_id               INTEGER,
  recipient_id                   INTEGER REFERENCES recipients (id),
  -- group settings: each a user_groups id (system, named or anonymous)
  can_add_subscribers_group              INTEGER NOT NULL REFERENCES user_groups (id),
  can_remove_subscribers_group           INTEGER NOT NULL REFERENCES user_groups (id),
  can_administer_channel_group           INTEGER NOT NULL REFERENCES user_groups (id),
  can_delete_any_message_group           INTEGER NOT NULL REFERENCES user_groups (id),
  can_delete_own_message_group           INTEGER NOT NULL REFERENCES user_groups (id),
  can_send_message_group                 INTEGER NOT NULL REFERENCES user_groups (id),
  can_create_topic_group                 INTEGER NOT NULL REFERENCES user_groups (id),
  can_move_messages_out_of_channel_group INTEGER NOT NULL REFERENCES user_groups (id),
  can_move_messages_within_channel_group INTEGER NOT NULL REFERENCES user_groups (id),
  can_resolve_topics_group               INTEGER NOT NULL REFERENCES user_groups (id),
  can_subscribe_group                    INTEGER NOT NULL REFERENCES user_groups (id)
);
-- Channel names are unique per organization, case-insensitively (send by name, get_stream_id).
CREATE UNIQUE INDEX streams_by_name ON streams (realm_id, name COLLATE NOCASE);

CREATE TABLE default_streams (
  realm_id  INTEGER NOT NULL REFERENCES realm (id),
  stream_id INTEGER NOT NULL REFERENCES streams (id) ON DELETE CASCADE,
  PRIMARY KEY (realm_id, stream_id)
) WITHOUT ROWID;

CREATE TABLE subscriptions (
  user_id                  INTEGER NOT NULL REFERENCES users (id),
  stream_id                INTEGER NOT NULL REFERENCES streams (id) ON DELETE CASCADE,
  active                   INTEGER NOT NULL DEFAULT 1,   -- 0 after unsubscribing (keeps settings, "unsubscribed")
  color                    TEXT NOT NULL,
  is_muted                 INTEGER NOT NULL DEFAULT 0,
  pin_to_top               INTEGER NOT NULL DEFAULT 0,
  desktop_notifications    INTEGER,                      -- NULL: follow the user's global setting
  audible_notifications    INTEGER,
  push_notifications       INTEGER,
  email_notifications      INTEGER,
  wildcard_mentions_notify INTEGER,
  PRIMARY KEY (user_id, stream_id)
) WITHOUT ROWID;
-- Send fans a channel message out to its active subscribers: (stream_id) → user ids.
CREATE INDEX subscriptions_by_stream ON subscriptions (stream_id, user_id) WHERE active = 1;

-- Direct-message groups of three or more people (1:1 DMs use the other user's personal recipient).
CREATE TABLE direct_message_groups (
  id           INTEGER PRIMARY KEY,
  user_ids     TEXT NOT NULL UNIQUE,   -- sorted ids joined by ','
  recipient_id INTEGER REFERENCES recipients (id)
);

-- AUTOINCREMENT: a deleted newest message's id is never given again (clients cache messages by id).
CREATE TABLE messages (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  realm_id         INTEGER NOT NULL REFERENCES realm (id),
  sender_id        INTEGER NOT NULL REFERENCES users (id),
  recipient_id     INTEGER NOT NULL REFERENCES recipients (id),
  stream_id        INTEGER REFERENCES streams (id),   -- NULL for direct messages
  -- for direct messages: the sorted participant ids joined by ',' (one conversation = one key)
  dm_key           TEXT,
  topic            TEXT NOT NULL DEFAULT '',
  content          TEXT NOT NULL,
  rendered_content TEXT NOT NULL,
  date_sent        REAL NOT NULL,
  client           TEXT NOT NULL DEFAULT 'Unspecified',
  last_edit_time   REAL,
  last_moved_time  REAL,
  edit_history     TEXT,                              -- JSON list, newest first
  has_attachment   INTEGER NOT NULL DEFAULT 0,
  has_image        INTEGER NOT NULL DEFAULT 0,
  has_link         INTEGER NOT NULL DEFAULT 0,
  is_me_message    INTEGER NOT NULL DEFAULT 0
);
-- Fetching a topic (the most common narrow) and topic lists walk (stream, topic, id).
CREATE INDEX messages_by_stream_topic ON messages (stream_id, topic COLLATE NOCASE, id) WHERE stream_id IS NOT NULL;
-- Channel narrows and per-channel history/retention walk (stream, id).
CREATE INDEX messages_by_stream ON messages (stream_id, id) WHERE stream_id IS NOT NULL;
-- A direct-message conversation narrow.
CREATE INDEX messages_by_dm ON messages (dm_key, id) WHERE dm_key IS NOT NULL;
-- sender: narrows and "delete their messages" on deactivation.
CREATE INDEX messages_by_sender ON messages (sender_id, id);

-- Full-text search over content and topic (external content: no second copy of the text).
-- Indexing is deferred (as Zulip's fts_update_log): sends add no FTS pages to their commit; the
-- search indexer (src/actions/messages/search-index.ts) indexes messages with id > last_id in id
-- order shortly after, and before any search runs. Message ids only grow, so one watermark suffices.
CREATE VIRTUAL TABLE messages_fts USING fts5 (topic, content, content = 'messages', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2');
CREATE TABLE messages_fts_indexed (id INTEGER PRIMARY KEY CHECK (id = 1), last_id INTEGER NOT NULL);
INSERT INTO messages_fts_indexed (id, last_id) VALUES (1, 0);
-- Only rows already indexed are touched: an external-content 'delete' of a row never indexed corrupts the index.
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages WHEN old.id <= (SELECT last_id FROM messages_fts_indexed) BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, topic, content) VALUES ('delete', old.id, old.topic, old.content);
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF topic, content ON messages WHEN old.id <= (SELECT last_id FROM messages_fts_indexed) BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, topic, content) VALUES ('delete', old.id, old.topic, old.content);
  INSERT INTO messages_fts (rowid, topic, content) VALUES (new.id, new.topic, new.content);
END;

-- Per-user message rows: who received what, with the personal flags as a bitmask
-- (bit 0 read, 1 starred, 2 collapsed, 3 mentioned, 4 stream_wildcard_mentioned,
--  5 topic_wildcard_mentioned, 6 has_alert_word, 7 historical; see src/domain/flags.ts).
-- The hottest insert (one row per recipient per message) carries no foreign keys: checking two parent
-- keys per row doubled its cost. Rows are only written for existing messages and users (users are
-- never deleted), and deleting a message deletes its rows through the trigger below.
CREATE TABLE user_messages (
  user_id    INTEGER NOT NULL,
  message_id INTEGER NOT NULL,
  flags      INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, message_id)
) WITHOUT ROWID;
CREATE TRIGGER messages_delete_user_messages AFTER DELETE ON messages BEGIN
  DELETE FROM user_messages WHERE message_id = old.id;
END;
-- Unread counts in /register and first_unread anchors read only a user's unread rows.
CREATE INDEX user_messages_unread ON user_messages (user_id, message_id) WHERE (flags & 1) = 0;
-- Starred messages and mention narrows are small per user.
CREATE INDEX user_messages_starred ON user_messages (user_id, message_id) WHERE (flags & 2) = 2;
-- Deleting a message and "who has this message" go by message id.
CREATE INDEX user_messages_by_message ON user_messages (message_id);
-- Mention narrows (is:mentioned) and the unread mentions of /register.
CREATE INDEX user_messages_mentioned ON user_messages (user_id, message_id) WHERE (flags & 56) != 0;

-- A rowid table: reactions are listed in the order they were added.
CREATE TABLE reactions (
  id            INTEGER PRIMARY KEY,
  message_id    INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  user_id       INTEGER NOT NULL REFERENCES users (id),
  emoji_name    TEXT NOT NULL,
  emoji_code    TEXT NOT NULL,
  reaction_type TEXT NOT NULL    -- unicode_emoji, realm_emoji, zulip_extra_emoji
);
CREATE UNIQUE INDEX reactions_by_message ON reactions (message_id, user_id, reaction_type, emoji_code);

CREATE TABLE realm_emoji (
  id          INTEGER PRIMARY KEY,
  realm_id    INTEGER NOT NULL REFERENCES realm (id),
  name        TEXT NOT NULL,
  author_id   INTEGER REFERENCES users (id),
  file_name   TEXT NOT NULL,
  is_animated INTEGER NOT NULL DEFAULT 0,   -- animated emoji also have a still PNG (still_url)
  deactivated INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX realm_emoji_by_name ON realm_emoji (realm_id, name);

CREATE TABLE attachments (
  id              INTEGER PRIMARY KEY,
  realm_id        INTEGER NOT NULL REFERENCES realm (id),
  owner_id        INTEGER NOT NULL REFERENCES users (id),
  path_id         TEXT NOT NULL UNIQUE,   -- "{realm_id}/{random}/{filename}" under uploads_dir
  file_name       TEXT NOT NULL,
  size            INTEGER NOT NULL,
  content_type    TEXT,
  create_time     REAL NOT NULL,
  is_realm_public INTEGER NOT NULL DEFAULT 0,
  is_web_public   INTEGER NOT NULL DEFAULT 0,
  thumbnail_state TEXT,                   -- NULL not an image, 'pending', 'done', 'failed'
  -- images: dimensions after EXIF rotation, frame count, generated thumbnail names (JSON list)
  original_width  INTEGER,
  original_height INTEGER,
  frames          INTEGER,
  thumbnails      TEXT
);
CREATE INDEX attachments_by_owner ON attachments (owner_id, id);
-- The cleanup job looks for old attachments with no message.
CREATE INDEX attachments_by_time ON attachments (create_time);

CREATE TABLE attachment_messages (
  attachment_id INTEGER NOT NULL REFERENCES attachments (id) ON DELETE CASCADE,
  message_id    INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  PRIMARY KEY (attachment_id, message_id)
) WITHOUT ROWID;
-- Deleting a message finds the attachments it referenced.
CREATE INDEX attachment_messages_by_message ON attachment_messages (message_id, attachment_id);

CREATE TABLE scheduled_messages (
  id                   INTEGER PRIMARY KEY,
  realm_id             INTEGER NOT NULL REFERENCES realm (id),
  sender_id            INTEGER NOT NULL REFERENCES users (id),
  type                 TEXT NOT NULL,        -- 'stream' or 'private'
  stream_id            INTEGER REFERENCES streams (id),
  to_user_ids          TEXT,                 -- JSON list for direct messages
  topic                TEXT NOT NULL DEFAULT '',
  content              TEXT NOT NULL,
  rendered_content     TEXT NOT NULL,
  scheduled_timestamp  INTEGER NOT NULL,
  read_by_sender       INTEGER,
  client               TEXT NOT NULL DEFAULT 'Unspecified',
  delivered            INTEGER NOT NULL DEFAULT 0,
  delivered_message_id INTEGER,
  failed               INTEGER NOT NULL DEFAULT 0,
  failure_message      TEXT,
  created              REAL NOT NULL
);
-- The delivery job asks "what is due and still pending" every tick.
CREATE INDEX scheduled_messages_due ON scheduled_messages (scheduled_timestamp) WHERE delivered = 0 AND failed = 0;
CREATE INDEX scheduled_messages_by_sender ON scheduled_messages (sender_id, scheduled_timestamp);

-- One row per user: the last active and last connected (idle) report.
CREATE TABLE presence (
  user_id             INTEGER PRIMARY KEY REFERENCES users (id),
  realm_id            INTEGER NOT NULL REFERENCES realm (id),
  last_active_time    REAL,
  last_connected_time REAL,
  last_update_id      INTEGER NOT NULL DEFAULT 0
);
-- Incremental presence sync: "changed since update id N".
CREATE INDEX presence_by_update ON presence (realm_id, last_update_id);
-- Initial presence fetch: "connected within the last N days".
CREATE INDEX presence_by_connected ON presence (realm_id, last_connected_time);

CREATE TABLE invites (
  id                                  INTEGER PRIMARY KEY,
  realm_id                            INTEGER NOT NULL REFERENCES realm (id),
  referrer_id                         INTEGER NOT NULL REFERENCES users (id),
  key                                 TEXT NOT NULL UNIQUE,
  is_multiuse                         INTEGER NOT NULL DEFAULT 1,
  email                               TEXT,
  invited_as                          INTEGER NOT NULL DEFAULT 400,
  stream_ids                          TEXT NOT NULL DEFAULT '[]',
  group_ids                           TEXT NOT NULL DEFAULT '[]',
  include_realm_default_subscriptions INTEGER NOT NULL DEFAULT 0,
  welcome_message_custom_text         TEXT,
  created                             REAL NOT NULL,
  expires                             REAL,      -- NULL never expires
  revoked                             INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE playgrounds (
  id                INTEGER PRIMARY KEY,
  realm_id          INTEGER NOT NULL REFERENCES realm (id),
  name              TEXT NOT NULL,
  pygments_language TEXT NOT NULL,
  url_template      TEXT NOT NULL
);

CREATE TABLE push_devices (
  id       INTEGER PRIMARY KEY,
  user_id  INTEGER NOT NULL REFERENCES users (id),
  kind     TEXT NOT NULL,        -- 'apns' or 'fcm'
  token    TEXT NOT NULL,
  appid    TEXT,
  created  REAL NOT NULL
);
CREATE UNIQUE INDEX push_devices_by_token ON push_devices (user_id, kind, token);

-- Per-user topic visibility (muted / unmuted / followed).
CREATE TABLE user_topics (
  user_id           INTEGER NOT NULL REFERENCES users (id),
  stream_id         INTEGER NOT NULL REFERENCES streams (id) ON DELETE CASCADE,
  topic             TEXT NOT NULL COLLATE NOCASE,
  visibility_policy INTEGER NOT NULL,
  last_updated      REAL NOT NULL,
  PRIMARY KEY (user_id, stream_id, topic)
) WITHOUT ROWID;

CREATE TABLE muted_users (
  user_id       INTEGER NOT NULL REFERENCES users (id),
  muted_user_id INTEGER NOT NULL REFERENCES users (id),
  date_muted    REAL NOT NULL,
  PRIMARY KEY (user_id, muted_user_id)
) WITHOUT ROWID;
-- Sending a message asks "who muted this sender" (their copy is marked read).
CREATE INDEX muted_users_by_muted ON muted_users (muted_user_id, user_id);

-- User status (POST /users/me/status): one row per user who ever set one. `away` is not stored
-- here: it is the inverse of the presence_enabled personal setting.
CREATE TABLE user_status (
  user_id       INTEGER PRIMARY KEY REFERENCES users (id),
  status_text   TEXT NOT NULL DEFAULT '',
  emoji_name    TEXT NOT NULL DEFAULT '',
  emoji_code    TEXT NOT NULL DEFAULT '',
  reaction_type TEXT NOT NULL DEFAULT 'unicode_emoji',
  timestamp     REAL NOT NULL
);

-- Drafts synchronized between a user's clients; `to_ids` is the JSON list the API shows.
CREATE TABLE drafts (
  id             INTEGER PRIMARY KEY,
  user_id        INTEGER NOT NULL REFERENCES users (id),
  type           TEXT NOT NULL,        -- '' unaddressed, 'stream', 'private'
  to_ids         TEXT NOT NULL DEFAULT '[]',
  topic          TEXT NOT NULL DEFAULT '',
  content        TEXT NOT NULL,
  last_edit_time REAL NOT NULL
);
-- /register and GET /drafts list a user's drafts by last edit.
CREATE INDEX drafts_by_user ON drafts (user_id, last_edit_time);

CREATE TABLE saved_snippets (
  id           INTEGER PRIMARY KEY,
  user_id      INTEGER NOT NULL REFERENCES users (id),
  title        TEXT NOT NULL,
  content      TEXT NOT NULL,
  date_created REAL NOT NULL
);
CREATE INDEX saved_snippets_by_user ON saved_snippets (user_id, id);

-- Linkifiers (realm filters): applied in "order", then id.
CREATE TABLE linkifiers (
  id           INTEGER PRIMARY KEY,
  realm_id     INTEGER NOT NULL REFERENCES realm (id),
  pattern      TEXT NOT NULL,
  url_template TEXT NOT NULL,
  "order"      INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX linkifiers_by_pattern ON linkifiers (realm_id, pattern);

-- The organization's defaults for personal settings (PATCH /realm/user_settings_defaults): only the
-- values an administrator set, merged over Zulip's defaults in code. Like Zulip, they are copied into
-- a user's own settings when the user is created (the trigger below), so later changes to the
-- defaults never alter existing users.
CREATE TABLE realm_user_defaults (
  realm_id INTEGER PRIMARY KEY REFERENCES realm (id),
  settings TEXT NOT NULL DEFAULT '{}'
);
CREATE TRIGGER users_copy_realm_defaults AFTER INSERT ON users
WHEN EXISTS (SELECT 1 FROM realm_user_defaults WHERE realm_id = new.realm_id)
BEGIN
  UPDATE users SET settings = json_patch((SELECT settings FROM realm_user_defaults WHERE realm_id = new.realm_id), new.settings)
  WHERE id = new.id;
END;

CREATE TABLE alert_words (
  user_id INTEGER NOT NULL REFERENCES users (id),
  word    TEXT NOT NULL,
  PRIMARY KEY (user_id, word)
) WITHOUT ROWID;

CREATE TABLE custom_profile_fields (
  id                          INTEGER PRIMARY KEY,
  realm_id                    INTEGER NOT NULL REFERENCES realm (id),
  name                        TEXT NOT NULL,
  hint                        TEXT NOT NULL DEFAULT '',
  field_type                  INTEGER NOT NULL,
  field_data                  TEXT NOT NULL DEFAULT '',
  "order"                     INTEGER NOT NULL DEFAULT 0,
  display_in_profile_summary  INTEGER NOT NULL DEFAULT 0,
  required                    INTEGER NOT NULL DEFAULT 0,
  editable_by_user            INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX custom_profile_fields_by_name ON custom_profile_fields (realm_id, name COLLATE NOCASE);

CREATE TABLE custom_profile_values (
  user_id        INTEGER NOT NULL REFERENCES users (id),
  field_id       INTEGER NOT NULL REFERENCES custom_profile_fields (id) ON DELETE CASCADE,
  value          TEXT NOT NULL,
  rendered_value TEXT,
  PRIMARY KEY (user_id, field_id)
) WITHOUT ROWID;

-- Mail that was sent (or, without [email] smtp_url, would have been): tests and operators read it.
CREATE TABLE outbox_emails (
  id         INTEGER PRIMARY KEY,
  to_address TEXT NOT NULL,
  subject    TEXT NOT NULL,
  body       TEXT NOT NULL,
  created    REAL NOT NULL,
  sent       INTEGER NOT NULL DEFAULT 0
);

-- Versions of tables that hot paths cache in memory (message send and fetch keep users, channels,
-- subscribers, groups and custom emoji in maps): every write bumps its table's version, and a cache
-- reloads when the version it was built from moved. One small read replaces several per request.
CREATE TABLE cache_versions (name TEXT PRIMARY KEY, version INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
INSERT INTO cache_versions (name) VALUES ('users'), ('streams'), ('subscriptions'), ('user_groups'), ('realm_emoji');
CREATE TRIGGER users_version_insert AFTER INSERT ON users BEGIN UPDATE cache_versions SET version = version + 1 WHERE name = 'users'; END;
CREATE TRIGGER users_version_update AFTER UPDATE ON users BEGIN UPDATE cache_versions SET version = version + 1 WHERE name = 'users'; END;
CREATE TRIGGER users_version_delete AFTER DELETE ON users BEGIN UPDATE cache_versions SET version = version + 1 WHERE name = 'users'; END;
CREATE TRIGGER streams_version_insert AFTER INSERT ON streams BEGIN UPDATE cache_versions SET version = version + 1 WHERE name = 'streams'; END;
CREATE TRIGGER streams_version_update AFTER UPDATE ON streams BEGIN UPDATE cache_versions SET version = version + 1 WHERE name = 'streams'; END;
CREATE TRIGGER streams_version_delete AFTER DELETE ON streams BEGIN UPDATE cache_versions SET version = version + 1 WHERE name = 'streams'; END;
CREATE TRIGGER subscriptions_version_insert AFTER INSERT ON subscriptions BEGIN UPDATE cache_versions SET version = version + 1 WHERE name = 'subscriptions'; END;
CREATE TRIGGER subscriptions_version_update AFTER UPDATE ON subscriptions BEGIN UPDATE cache_versions SET version = version + 1 WHERE name = 'subscriptions'; END;
CREATE TRIGGER subscriptions_version_delete AFTER DELETE ON subscriptions BEGIN UPDATE cache_versions SET version = version + 1 WHERE name = 'subscriptions'; END;
CREATE TRIGGER user_groups_version_insert AFTER INSERT ON user_groups BEGIN UPDATE cache_versions SET version = version + 1 WHERE name = 'user_groups'; END;
CREATE TRIGGER user_groups_version_update AFTER UPDATE ON user_groups BEGIN UPDATE cache_versions SET version = version + 1 WHERE name = 'user_groups'; END;
CREATE TRIGGER user_groups_version_delete AFTER DELETE ON user_groups BEGIN UPDATE cache_versions SET version = version + 1 WHERE name = 'user_groups'; END;
CREATE TRIGGER realm_emoji_version_insert AFTER INSERT ON realm_emoji BEGIN UPDATE cache_versions SET version = version + 1 WHERE name = 'realm_emoji'; END;
CREATE TRIGGER realm_emoji_version_update AFTER UPDATE ON realm_emoji BEGIN UPDATE cache_versions SET version = version + 1 WHERE name = 'realm_emoji'; END;
CREATE TRIGGER realm_emoji_version_delete AFTER DELETE ON realm_emoji BEGIN UPDATE cache_versions SET version = version + 1 WHERE name = 'realm_emoji'; END;
