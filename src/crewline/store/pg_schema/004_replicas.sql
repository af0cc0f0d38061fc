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
