-- The baseline's part only PostgreSQL has: the schema's version, the sequences of the
-- streams, insertion order, the audit log's guard, fleet retrieval on tsvector, and what
-- several replicas on one database share (leases, wake-ups, rate budgets, incarnations).

CREATE TABLE crewline_schema (version INTEGER NOT NULL);
INSERT INTO crewline_schema (version) VALUES (0);

-- Event cursors and outbox ids come from sequences, each taken under its stream's advisory
-- lock held to commit (store/postgres_statements.py): a session's cursor (a lane's id) is
-- never visible before its smaller ones.
CREATE SEQUENCE event_cursors;
CREATE SEQUENCE outbox_ids;

-- Insertion order, as SQLite's rowid breaks ties between questions created at one moment
-- (the escalations' is in their table).
ALTER TABLE questions ADD COLUMN ord BIGSERIAL;

-- An escalation without a deadline never comes due: left out of the due index (one index
-- entry and one WAL record fewer per such escalation, docs/postgresql.md, Throughput).
CREATE INDEX escalations_due ON escalations(deadline)
    WHERE state = 'pending' AND deadline IS NOT NULL;

CREATE FUNCTION sel_append_only() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION 'sel is append-only'; END $$;
CREATE TRIGGER sel_append_only BEFORE UPDATE OR DELETE ON sel
FOR EACH STATEMENT EXECUTE FUNCTION sel_append_only();

-- Fleet search folds accents, as SQLite's FTS5 tokenizer does (unicode61 removes
-- diacritics): "café" and "cafe", "Zürich" and "Zurich" find the same rows. PostgreSQL's
-- `unaccent` extension ships with the server (Debian's postgresql-NN package, the contrib
-- modules) and is trusted: the owner of the database, or any role with CREATE on it, may
-- create it. Where crewline's role may not, a superuser runs `CREATE EXTENSION unaccent;` in
-- this database first (docs/postgresql.md); the baseline then finds it.
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS unaccent;
EXCEPTION
    WHEN insufficient_privilege OR undefined_file OR feature_not_supported THEN
        RAISE EXCEPTION 'crewline needs the unaccent extension in this database: %', SQLERRM
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'a superuser runs CREATE EXTENSION unaccent; in this database'
                         ' (it ships with the PostgreSQL server: Debian''s postgresql package)';
END $$;

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

-- unaccent(text) is STABLE only because it looks its dictionary up through search_path; this
-- wrapper names both by the extension's own schema, so it is IMMUTABLE and may stand in
-- stored documents and indexes. The schema is read, not assumed: the extension may already
-- live outside `public`.
DO $$
DECLARE
    home text := (SELECT quote_ident(n.nspname) FROM pg_extension e
                    JOIN pg_namespace n ON n.oid = e.extnamespace
                   WHERE e.extname = 'unaccent');
BEGIN
    EXECUTE format(
        'CREATE FUNCTION crewline_fleet_fold(text) RETURNS text'
        ' LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE'
        ' AS $f$ SELECT %s.unaccent(%L::regdictionary, $1) $f$',
        home, home || '.unaccent');
END $$;

-- The document: accents folded before ASCII punctuation is made a space (a folded letter
-- may become punctuation, e.g. "½" is " 1/2"). The search folds its terms the same way.
CREATE FUNCTION crewline_fleet_doc(conversation text, said text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT to_tsvector('crewline_fleet'::regconfig,
                             crewline_fleet_words(crewline_fleet_fold(conversation)))
              || to_tsvector('crewline_fleet'::regconfig,
                             crewline_fleet_words(crewline_fleet_fold(said))) $$;

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

-- Several crewline replicas on one database (docs/replicas.md).
--
-- A lease: one holder at a time for a named piece of work (a transport's single connection,
-- an outbox lane). ``epoch`` grows with every new holder, so a holder that lost its lease
-- cannot renew it by mistake (fencing); ``previous`` is the holder it was taken from while
-- still held (NULL when released cleanly), so the new holder knows a call may have been
-- made and not recorded. Expiry is judged by the database's clock alone.
CREATE TABLE crewline_leases (
    name        TEXT PRIMARY KEY,
    holder      TEXT,
    epoch       BIGINT NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL,
    previous    TEXT
);

-- Wake the other replicas when a session's event commits: NOTIFY is delivered on commit
-- only, and the notifying connection's application_name lets a replica skip its own.
CREATE FUNCTION crewline_event_committed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('crewline_events', current_setting('application_name') || E'\n' || NEW.session);
    RETURN NULL;
END
$$;
CREATE TRIGGER events_notify AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION crewline_event_committed();

-- A platform's rate limit shared by every replica: the time of the next free turn of a
-- named budget (a transport's calls per second for the whole app). A replica reserves a
-- turn by moving ``next_at`` on by the budget's interval in one statement, so two replicas
-- never get the same turn. Judged by the database's clock alone.
CREATE TABLE crewline_pacing (
    name     TEXT PRIMARY KEY,
    next_at  TIMESTAMPTZ NOT NULL
);

-- Which run of each replica name is the current one: a replica writes its holder tag (name
-- plus a nonce drawn at start) here as it starts, so the latest run of a name may take at
-- once the leases an earlier run of that name still holds (a restart), and an earlier run
-- that is in fact still alive (two processes started under one name) can never take them
-- back.
CREATE TABLE crewline_incarnations (
    name        TEXT PRIMARY KEY,
    holder      TEXT NOT NULL,
    started_at  TIMESTAMPTZ NOT NULL
);
