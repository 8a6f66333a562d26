-- Unread messages without an index on the send path. The partial index user_messages_unread put one
-- more B-tree entry per recipient into every send, scattered over one page per recipient: about a
-- third of a 20-recipient send's pages. Instead, each user has an unread floor:
--   * rows from the floor on (the tail) are found by scanning the user's own rows (the primary key);
--   * unread rows below the floor are listed in unread_before_floor.
-- A background step (actions/messages/unread-floors.ts) moves a user's floor up past their tail
-- once writes are quiet, or when the tail grows long, copying the tail's unread rows in one
-- sequential insert. A user without a floor row has floor 0: every row is in the tail.
DROP INDEX user_messages_unread;

CREATE TABLE unread_floors (
  user_id    INTEGER PRIMARY KEY,
  message_id INTEGER NOT NULL  -- the floor: the user's rows with smaller ids are below it
);

CREATE TABLE unread_before_floor (
  user_id    INTEGER NOT NULL,
  message_id INTEGER NOT NULL,
  PRIMARY KEY (user_id, message_id)
) WITHOUT ROWID;

-- Rows already stored are all below the floor.
INSERT INTO unread_floors (user_id, message_id) SELECT user_id, max(message_id) + 1 FROM user_messages GROUP BY user_id;
INSERT INTO unread_before_floor (user_id, message_id) SELECT user_id, message_id FROM user_messages WHERE (flags & 1) = 0;

-- A row below the floor read or unread again: the list follows (tail rows are scanned, so they need nothing).
CREATE TRIGGER user_messages_unread_below_floor AFTER UPDATE OF flags ON user_messages
WHEN (old.flags & 1) != (new.flags & 1)
  AND new.message_id < coalesce((SELECT message_id FROM unread_floors WHERE user_id = new.user_id), 0)
BEGIN
  DELETE FROM unread_before_floor WHERE user_id = new.user_id AND message_id = new.message_id;
  INSERT INTO unread_before_floor (user_id, message_id) SELECT new.user_id, new.message_id WHERE (new.flags & 1) = 0;
END;

CREATE TRIGGER user_messages_delete_unread_below_floor AFTER DELETE ON user_messages WHEN (old.flags & 1) = 0 BEGIN
  DELETE FROM unread_before_floor WHERE user_id = old.user_id AND message_id = old.message_id;
END;
