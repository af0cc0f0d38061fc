-- The concierge (SPEC §4): its suggestions, its answers (the last 20, for undo), the ledger
-- of every decision, and fleet retrieval: a full-text index over what members said in
-- their threads, kept current with the transcript by triggers. The policy lives in
-- `settings` (concierge.answer, concierge.act).

CREATE TABLE concierge_suggestions (
    record_id   TEXT PRIMARY KEY,          -- an escalation's or a question's id
    member      TEXT NOT NULL REFERENCES members(slug) ON DELETE CASCADE,
    text        TEXT NOT NULL,
    why         TEXT NOT NULL,
    brain       TEXT NOT NULL,
    at          REAL NOT NULL,
    dismissed   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX concierge_suggestions_by_member ON concierge_suggestions(member);

CREATE TABLE concierge_answers (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    at            REAL NOT NULL,
    member        TEXT NOT NULL,
    record_id     TEXT NOT NULL,
    record_kind   TEXT NOT NULL,           -- escalation | question
    session       TEXT NOT NULL,           -- the session that was answered
    text          TEXT NOT NULL,
    why           TEXT NOT NULL,
    row_id        TEXT NOT NULL,           -- the thread line that says it
    event_cursor  INTEGER,                 -- the session event that carried the answer
    undone_at     REAL
);

CREATE TABLE concierge_ledger (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    at          REAL NOT NULL,
    member      TEXT,
    record_id   TEXT,
    decision    TEXT NOT NULL,             -- answered | suggested | escalated | refused | …
    verdict     TEXT,                      -- the gate's verdict kind
    policy      TEXT NOT NULL,
    brain       TEXT NOT NULL,
    rationale   TEXT NOT NULL,
    evidence    TEXT NOT NULL DEFAULT '[]',
    actor       TEXT
);

-- Fleet retrieval: members' own rows (role 'member') in members' threads, while live. The
-- member's slug is indexed with the text, so a question naming a member finds its rows;
-- Porter stemming lets "create" find "created".
CREATE VIRTUAL TABLE fleet_text USING fts5(
    conversation, text, content='rows', content_rowid='rowid', tokenize='porter unicode61'
);
INSERT INTO fleet_text(rowid, conversation, text)
    SELECT rowid, conversation, text FROM rows
     WHERE role = 'member' AND rewound_in IS NULL AND conversation NOT LIKE '~%';

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
END
