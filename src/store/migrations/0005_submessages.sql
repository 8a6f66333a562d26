-- Zulip's submessages: the data of message widgets (polls, to-do lists). A widget message gets its
-- first one when it is sent (the widget's type and initial data); then each vote, new option,
-- question, task or strike its readers send is one more, listed in id order (a rowid table).
CREATE TABLE submessages (
  id         INTEGER PRIMARY KEY,
  message_id INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  sender_id  INTEGER NOT NULL REFERENCES users (id),
  msg_type   TEXT NOT NULL,
  content    TEXT NOT NULL
);
-- Message objects list a message's submessages (fetches: many messages at once); deleting a
-- message cascades through it.
CREATE INDEX submessages_by_message ON submessages (message_id, id);
