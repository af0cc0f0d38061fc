-- Which run of each replica name is the current one (docs/replicas.md): a replica writes
-- its holder tag (name plus a nonce drawn at start) here as it starts, so the latest run of
-- a name may take at once the leases an earlier run of that name still holds (a restart),
-- and an earlier run that is in fact still alive (two processes started under one name)
-- can never take them back.
CREATE TABLE crewline_incarnations (
    name        TEXT PRIMARY KEY,
    holder      TEXT NOT NULL,
    started_at  TIMESTAMPTZ NOT NULL
);
