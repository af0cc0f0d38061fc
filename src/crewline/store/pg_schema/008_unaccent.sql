-- Fleet search folds accents, as SQLite's FTS5 tokenizer does (unicode61 removes
-- diacritics): "café" and "cafe", "Zürich" and "Zurich" find the same rows. PostgreSQL's
-- `unaccent` extension ships with the server (Debian's postgresql-NN package, the contrib
-- modules) and is trusted: the owner of the database, or any role with CREATE on it, may
-- create it. Where crewline's role may not, a superuser runs `CREATE EXTENSION unaccent;` in
-- this database first (docs/postgresql.md); this migration then finds it.
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
-- may become punctuation, e.g. "½" is " 1/2"). The query side folds its words the same way
-- (the fleet search's terms, through this function).
CREATE OR REPLACE FUNCTION crewline_fleet_doc(conversation text, said text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT to_tsvector('crewline_fleet'::regconfig,
                             crewline_fleet_words(crewline_fleet_fold(conversation)))
              || to_tsvector('crewline_fleet'::regconfig,
                             crewline_fleet_words(crewline_fleet_fold(said))) $$;

-- Rows indexed before this migration, folded now (only those whose text has a non-ASCII
-- character can change).
UPDATE fleet_text AS f SET doc = crewline_fleet_doc(r.conversation, r.text)
  FROM rows AS r
 WHERE r.id = f.row_id AND (r.text ~ '[^\x01-\x7f]' OR r.conversation ~ '[^\x01-\x7f]');
