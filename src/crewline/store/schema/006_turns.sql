-- The regenerate button asks, for each message of a member it draws, whether the owner has
-- written before it and not since: the last row of one role in a conversation. Without this
-- index that read walks the whole conversation back when the owner never wrote in it.
CREATE INDEX rows_by_role ON rows(conversation, role, seq);

-- A session that says it is in the middle of a turn (POST /api/session/turn), since when:
-- with boundary_mid_turn = "refuse", a boundary is refused before anything is sent to it.
ALTER TABLE sessions ADD COLUMN turn_since REAL;
