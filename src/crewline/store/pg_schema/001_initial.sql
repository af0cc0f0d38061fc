-- PostgreSQL's schema for the same data as SQLite's migrations 001..003 (its own numbering:
-- applied in order, the version kept in crewline_schema). Moments are epoch seconds and
-- JSON is text, as in SQLite, so both stores share one codec.

CREATE TABLE crewline_schema (version INTEGER NOT NULL);
INSERT INTO crewline_schema (version) VALUES (0);

CREATE TABLE humans (
    id          BIGSERIAL PRIMARY KEY,
    token_hash  TEXT UNIQUE,
    created_at  DOUBLE PRECISION NOT NULL
);

CREATE TABLE identities (
    platform    TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    human       BIGINT NOT NULL REFERENCES humans(id) ON DELETE CASCADE,
    PRIMARY KEY (platform, user_id)
);

CREATE TABLE members (
    slug        TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    owner       BIGINT NOT NULL REFERENCES humans(id),
    created_at  DOUBLE PRECISION NOT NULL
);

CREATE TABLE member_transports (
    member      TEXT NOT NULL REFERENCES members(slug) ON DELETE CASCADE,
    transport   TEXT NOT NULL,
    PRIMARY KEY (member, transport)
);

CREATE TABLE sessions (
    id          TEXT PRIMARY KEY,
    key_hash    TEXT NOT NULL UNIQUE,
    kind        TEXT NOT NULL,
    member      TEXT REFERENCES members(slug) ON DELETE CASCADE,
    parent      TEXT REFERENCES sessions(id) ON DELETE CASCADE,
    created_at  DOUBLE PRECISION NOT NULL,
    revoked_at  DOUBLE PRECISION
);

CREATE TABLE threads (
    member      TEXT NOT NULL REFERENCES members(slug) ON DELETE CASCADE,
    transport   TEXT NOT NULL,
    thread_ref  TEXT NOT NULL,
    PRIMARY KEY (member, transport),
    UNIQUE (transport, thread_ref)
);

-- The conversation row is locked by every append: seq is assigned in commit order.
CREATE TABLE conversations (
    key         TEXT PRIMARY KEY,
    generation  INTEGER NOT NULL DEFAULT 1,
    next_seq    INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE rows (
    id            TEXT PRIMARY KEY,
    conversation  TEXT NOT NULL,
    seq           INTEGER NOT NULL,
    generation    INTEGER NOT NULL,
    rewound_in    INTEGER,
    role          TEXT NOT NULL,
    author        TEXT NOT NULL,
    text          TEXT NOT NULL,
    meta          TEXT NOT NULL DEFAULT '{}',
    created_at    DOUBLE PRECISION NOT NULL,
    record        TEXT
);
CREATE UNIQUE INDEX rows_in_order ON rows(conversation, seq);
CREATE INDEX rows_about_records ON rows(conversation, seq) WHERE record IS NOT NULL;

CREATE TABLE escalations (
    id              TEXT PRIMARY KEY,
    member          TEXT NOT NULL,
    row_id          TEXT NOT NULL UNIQUE,
    session         TEXT NOT NULL,
    message         TEXT NOT NULL,
    deadline        DOUBLE PRECISION,
    default_action  TEXT,
    options         TEXT NOT NULL DEFAULT '[]',
    goal            TEXT,
    state           TEXT NOT NULL,
    answer          TEXT,
    choice          INTEGER,
    answered_by     TEXT,
    answered_via    TEXT,
    answer_row_id   TEXT,
    default_applied INTEGER NOT NULL DEFAULT 0,
    created_at      DOUBLE PRECISION NOT NULL,
    settled_at      DOUBLE PRECISION,
    ord             BIGSERIAL  -- insertion order, as SQLite's rowid breaks created_at ties
);
CREATE INDEX escalations_by_member ON escalations(member, state);
CREATE INDEX escalations_due ON escalations(deadline) WHERE state = 'pending';

CREATE TABLE questions (
    id           TEXT PRIMARY KEY,
    member       TEXT,
    session      TEXT NOT NULL,
    row_id       TEXT NOT NULL,
    question     TEXT NOT NULL,
    options      TEXT NOT NULL DEFAULT '[]',
    dialog       INTEGER NOT NULL DEFAULT 0,
    state        TEXT NOT NULL,
    answer       TEXT,
    answered_by  TEXT,
    created_at   DOUBLE PRECISION NOT NULL,
    settled_at   DOUBLE PRECISION
);
CREATE INDEX questions_by_member ON questions(member, state);

-- Cursors come from a sequence, taken under the session's advisory lock held to commit: a
-- session's cursor is never visible before its smaller ones (no gap a reader could page past).
CREATE TABLE events (
    cursor      BIGINT PRIMARY KEY,
    session     TEXT NOT NULL,
    kind        TEXT NOT NULL,
    body        TEXT NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL
);
CREATE INDEX events_by_session ON events(session, cursor);

-- Outbox ids likewise, under the lane's lock: a lane is delivered in id order.
CREATE TABLE outbox (
    id          BIGINT PRIMARY KEY,
    transport   TEXT NOT NULL,
    lane        TEXT NOT NULL,
    op          TEXT NOT NULL,
    object_key  TEXT NOT NULL,
    body        TEXT NOT NULL DEFAULT '{}',
    attempts    INTEGER NOT NULL DEFAULT 0,
    not_before  DOUBLE PRECISION NOT NULL DEFAULT 0,
    last_error  TEXT,
    created_at  DOUBLE PRECISION NOT NULL
);
CREATE INDEX outbox_by_lane ON outbox(transport, lane, id);

CREATE SEQUENCE event_cursors;
CREATE SEQUENCE outbox_ids;

CREATE TABLE outbox_dead (
    id          BIGINT PRIMARY KEY,
    transport   TEXT NOT NULL,
    lane        TEXT NOT NULL,
    op          TEXT NOT NULL,
    object_key  TEXT NOT NULL,
    body        TEXT NOT NULL,
    attempts    INTEGER NOT NULL,
    last_error  TEXT,
    created_at  DOUBLE PRECISION NOT NULL,
    failed_at   DOUBLE PRECISION NOT NULL
);

CREATE TABLE platform_messages (
    transport    TEXT NOT NULL,
    object_key   TEXT NOT NULL,
    thread_ref   TEXT NOT NULL,
    message_ref  TEXT NOT NULL,
    PRIMARY KEY (transport, object_key)
);
CREATE INDEX platform_messages_by_ref ON platform_messages(transport, message_ref);

CREATE TABLE seen_events (
    transport   TEXT NOT NULL,
    event_id    TEXT NOT NULL,
    seen_at     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (transport, event_id)
);

CREATE TABLE sel (
    id          BIGSERIAL PRIMARY KEY,
    at          DOUBLE PRECISION NOT NULL,
    action      TEXT NOT NULL,
    outcome     TEXT NOT NULL,
    actor       TEXT,
    member      TEXT,
    details     TEXT NOT NULL DEFAULT '{}'
);
CREATE FUNCTION sel_append_only() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION 'sel is append-only'; END $$;
CREATE TRIGGER sel_append_only BEFORE UPDATE OR DELETE ON sel
FOR EACH STATEMENT EXECUTE FUNCTION sel_append_only();

CREATE TABLE settings (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

CREATE TABLE idempotency_keys (
    session      TEXT NOT NULL,
    key          TEXT NOT NULL,
    fingerprint  TEXT NOT NULL,
    status       INTEGER NOT NULL,
    response     TEXT NOT NULL,
    created_at   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (session, key)
);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at);

CREATE TABLE webhooks (
    session            TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    url                TEXT NOT NULL,
    secret             TEXT NOT NULL,
    delivered_through  BIGINT NOT NULL,
    attempts           INTEGER NOT NULL DEFAULT 0,
    not_before         DOUBLE PRECISION NOT NULL DEFAULT 0,
    last_error         TEXT,
    created_at         DOUBLE PRECISION NOT NULL
);
