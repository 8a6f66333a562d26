-- Unread rows below the floor are found through ranges instead of a list of every row. Raising a floor
-- inserted one list entry per unread row, in the middle of the B-tree (about 0.4 µs each, a tenth of
-- a busy server's time); a range is one row for a run of the user's rows, and reading scans the rows
-- inside it, keeping the unread ones by their flags. So a range may hold read rows as well (the reads
-- since it was made) but every unread row below the floor lies in one. Ranges never overlap.
--   * raising a floor adds a range per 1,000 rows passed: from the first to the last unread among them;
--   * a row below the floor read again as unread, or an old message's new unread row, outside every
--     range, gets a range of its own (the trigger below; insertUserMessages for new rows);
--   * marking read tightens the ranges around the rows read (store/unread-floors.ts tightenRanges).
DROP TRIGGER user_messages_unread_below_floor;
DROP TRIGGER user_messages_delete_unread_below_floor;

CREATE TABLE unread_ranges (
  user_id  INTEGER NOT NULL,
  first_id INTEGER NOT NULL,
  last_id  INTEGER NOT NULL,
  PRIMARY KEY (user_id, first_id)
) WITHOUT ROWID;

INSERT INTO unread_ranges (user_id, first_id, last_id) SELECT user_id, message_id, message_id FROM unread_before_floor;
DROP TABLE unread_before_floor;

-- The range holding a message is the one that starts last at or before it (ranges never overlap).
CREATE TRIGGER user_messages_unread_below_floor AFTER UPDATE OF flags ON user_messages
WHEN (old.flags & 1) = 1 AND (new.flags & 1) = 0
  AND new.message_id < coalesce((SELECT message_id FROM unread_floors WHERE user_id = new.user_id), 0)
  AND coalesce((SELECT last_id FROM unread_ranges WHERE user_id = new.user_id AND first_id <= new.message_id ORDER BY first_id DESC LIMIT 1), 0) < new.message_id
BEGIN
  INSERT INTO unread_ranges (user_id, first_id, last_id) VALUES (new.user_id, new.message_id, new.message_id);
END;
