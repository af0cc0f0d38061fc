-- SQLite's migration 006: the last row of one role in a conversation (the regenerate
-- button's check) without walking the conversation, and a session's turn (POST
-- /api/session/turn) for boundary_mid_turn = "refuse".
CREATE INDEX rows_by_role ON rows(conversation, role, seq);

ALTER TABLE sessions ADD COLUMN turn_since DOUBLE PRECISION;
