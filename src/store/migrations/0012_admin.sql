-- Default channel groups (Zulip's DefaultStreamGroup): named sets of channels offered to new users.
CREATE TABLE default_stream_groups (
  id          INTEGER PRIMARY KEY,
  realm_id    INTEGER NOT NULL REFERENCES realm (id),
  name        TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  UNIQUE (realm_id, name)
);

CREATE TABLE default_stream_group_streams (
  group_id  INTEGER NOT NULL REFERENCES default_stream_groups (id) ON DELETE CASCADE,
  stream_id INTEGER NOT NULL REFERENCES streams (id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, stream_id)
) WITHOUT ROWID;

CREATE INDEX default_stream_group_streams_by_stream ON default_stream_group_streams (stream_id);
