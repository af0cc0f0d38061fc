-- The baseline's part only SQLite has: the due index, the audit log's guard, and fleet
-- retrieval on FTS5.

-- The windows that may come due (the scheduler's query asks for a deadline too).
CREATE INDEX escalations_due ON escalations(deadline) WHERE state = 'pending';

CREATE TRIGGER sel_append_only_update BEFORE UPDATE ON sel
BEGIN SELECT RAISE(ABORT, 'sel is append-only'); END;
CREATE TRIGGER sel_append_only_delete BEFORE DELETE ON sel
BEGIN SELECT RAISE(ABORT, 'sel is append-only'); END;

-- Fleet retrieval: members' own rows (role 'member') in members' threads, while live, kept
-- current with the transcript by triggers. The member's slug is indexed with the text, so
-- a question naming a member finds its rows; Porter stemming lets "create" find "created";
-- unicode61 folds accents and makes punctuation separate words.
CREATE VIRTUAL TABLE fleet_text USING fts5(
    conversation, text, content='rows', content_rowid='rowid', tokenize='porter unicode61'
);

CREATE TRIGGER fleet_text_add AFTER INSERT ON rows
WHEN new.role = 'member' AND new.rewound_in IS NULL AND new.conversation NOT LIKE '~%'
BEGIN
    INSERT INTO fleet_text(rowid, conversation, text)
        VALUES (new.rowid, new.conversation, new.text);
END;

CREATE TRIGGER fleet_text_rewound AFTER UPDATE OF rewound_in ON rows
WHEN old.rewound_in IS NULL AND new.rewound_in IS NOT NULL
     AND old.role = 'member' AND old.conversation NOT LIKE '~%'
BEGIN
    INSERT INTO fleet_text(fleet_text, rowid, conversation, text)
        VALUES ('delete', old.rowid, old.conversation, old.text);
END;

CREATE TRIGGER fleet_text_gone BEFORE DELETE ON rows
WHEN old.role = 'member' AND old.rewound_in IS NULL AND old.conversation NOT LIKE '~%'
BEGIN
    INSERT INTO fleet_text(fleet_text, rowid, conversation, text)
        VALUES ('delete', old.rowid, old.conversation, old.text);
END;
