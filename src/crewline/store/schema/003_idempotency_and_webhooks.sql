-- What agents' retried writes and pushed events need to be remembered across restarts.

-- The first outcome of a write sent with an Idempotency-Key, kept with the write itself (one
-- transaction), so a retry returns it instead of writing again. A key is the session's own.
CREATE TABLE idempotency_keys (
    session      TEXT NOT NULL,
    key          TEXT NOT NULL,
    fingerprint  TEXT NOT NULL,   -- sha256 of the verb and the request body
    status       INTEGER NOT NULL,
    response     TEXT NOT NULL,
    created_at   REAL NOT NULL,
    PRIMARY KEY (session, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at);

-- A session's webhook, and how far its event stream has been delivered there. The secret
-- signs each delivery (HMAC), so it is kept as given: a hash could not sign.
CREATE TABLE webhooks (
    session            TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    url                TEXT NOT NULL,
    secret             TEXT NOT NULL,
    delivered_through  INTEGER NOT NULL,  -- the last cursor the receiver acknowledged
    attempts           INTEGER NOT NULL DEFAULT 0,
    not_before         REAL NOT NULL DEFAULT 0,
    last_error         TEXT,
    created_at         REAL NOT NULL
);
