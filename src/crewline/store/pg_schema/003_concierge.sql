-- The concierge (SPEC §4), as SQLite's migration of that name: its suggestions, its answers
-- (the last 20, for undo), the ledger of every decision, and fleet retrieval. The policy
-- lives in `settings` (concierge.answer, concierge.act).

CREATE TABLE concierge_suggestions (
    record_id   TEXT PRIMARY KEY,          -- an escalation's or a question's id
    member      TEXT NOT NULL REFERENCES members(slug) ON DELETE CASCADE,
    text        TEXT NOT NULL,
    why         TEXT NOT NULL,
    brain       TEXT NOT NULL,
    at          DOUBLE PRECISION NOT NULL,
    dismissed   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX concierge_suggestions_by_member ON concierge_suggestions(member);

CREATE TABLE concierge_answers (
    id            BIGSERIAL PRIMARY KEY,
    at            DOUBLE PRECISION NOT NULL,
    member        TEXT NOT NULL,
    record_id     TEXT NOT NULL,
    record_kind   TEXT NOT NULL,           -- escalation | question
    session       TEXT NOT NULL,           -- the session that was answered
    text          TEXT NOT NULL,
    why           TEXT NOT NULL,
    row_id        TEXT NOT NULL,           -- the thread line that says it
    event_cursor  BIGINT,                  -- the session event that carried the answer
    undone_at     DOUBLE PRECISION
);

CREATE TABLE concierge_ledger (
    id          BIGSERIAL PRIMARY KEY,
    at          DOUBLE PRECISION NOT NULL,
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

-- Fleet retrieval: members' own rows (role 'member') in members' threads, while live, with
-- the member's slug, so a question naming a member finds its rows. SQLite's FTS5 index
-- uses the porter stemmer over unicode61 tokens (any run of letters and digits, no stop
-- words); this configuration is its PostgreSQL counterpart: English Snowball stemming
-- without a stop-word list, over text whose ASCII punctuation is made a space first (so
-- "staging.example.com:4321" is the words staging, example, com, 4321, as in FTS5, not
-- one host token).
CREATE TEXT SEARCH DICTIONARY crewline_fleet_stem (TEMPLATE = snowball, Language = english);
CREATE TEXT SEARCH CONFIGURATION crewline_fleet (COPY = english);
ALTER TEXT SEARCH CONFIGURATION crewline_fleet
    ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part,
                      numword, numhword, hword_numpart
    WITH crewline_fleet_stem;

CREATE FUNCTION crewline_fleet_words(text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT regexp_replace($1, '[!-/:-@\[-`{-~]+', ' ', 'g') $$;

CREATE FUNCTION crewline_fleet_doc(conversation text, said text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT to_tsvector('crewline_fleet'::regconfig, crewline_fleet_words(conversation))
              || to_tsvector('crewline_fleet'::regconfig, crewline_fleet_words(said)) $$;

-- One entry per indexed row; ``id`` is the order rows were said in, so the newest matches
-- are read first (the GIN index finds rare words, the id index walks common ones newest
-- first and stops: either way a search reads a bounded number of entries).
CREATE TABLE fleet_text (
    id            BIGSERIAL PRIMARY KEY,
    row_id        TEXT NOT NULL UNIQUE,
    doc           tsvector NOT NULL
);
CREATE INDEX fleet_text_words ON fleet_text USING gin (doc);
-- The planner picks between the two by how common a question's words are, which it reads
-- from the column's statistics. The default keeps the 1,000 most common lexemes and rates
-- every other one as about as common as the last of them: with many distinct lexemes, a
-- rare word would look common and be searched by walking the whole table newest first.
ALTER TABLE fleet_text ALTER COLUMN doc SET STATISTICS 1000;

INSERT INTO fleet_text (row_id, doc)
    SELECT id, crewline_fleet_doc(conversation, text) FROM rows
     WHERE role = 'member' AND rewound_in IS NULL AND conversation NOT LIKE '~%'
     ORDER BY created_at, conversation, seq;

CREATE FUNCTION crewline_fleet_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO fleet_text (row_id, doc)
        VALUES (NEW.id, crewline_fleet_doc(NEW.conversation, NEW.text));
    RETURN NULL;
END $$;
CREATE TRIGGER fleet_text_add AFTER INSERT ON rows FOR EACH ROW
    WHEN (NEW.role = 'member' AND NEW.rewound_in IS NULL AND NEW.conversation NOT LIKE '~%')
    EXECUTE FUNCTION crewline_fleet_add();

CREATE FUNCTION crewline_fleet_drop() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM fleet_text WHERE row_id = OLD.id;
    RETURN NULL;
END $$;
CREATE TRIGGER fleet_text_rewound AFTER UPDATE OF rewound_in ON rows FOR EACH ROW
    WHEN (OLD.rewound_in IS NULL AND NEW.rewound_in IS NOT NULL
          AND OLD.role = 'member' AND OLD.conversation NOT LIKE '~%')
    EXECUTE FUNCTION crewline_fleet_drop();
CREATE TRIGGER fleet_text_gone AFTER DELETE ON rows FOR EACH ROW
    WHEN (OLD.role = 'member' AND OLD.rewound_in IS NULL AND OLD.conversation NOT LIKE '~%')
    EXECUTE FUNCTION crewline_fleet_drop();
