-- The first schema: the transcript (the truth), the projections derived from it, delivery
-- (outbox, platform message refs), session events, dedupe and the audit log.

CREATE TABLE humans (
    id          INTEGER PRIMARY KEY,
    token_hash  TEXT UNIQUE,
    created_at  REAL NOT NULL
);

CREATE TABLE identities (
    platform    TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    human       INTEGER NOT NULL REFERENCES humans(id) ON DELETE CASCADE,
    PRIMARY KEY (platform, user_id)
);

CREATE TABLE members (
    slug        TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    owner       INTEGER NOT NULL REFERENCES humans(id),
    created_at  REAL NOT NULL
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
    created_at  REAL NOT NULL,
    revoked_at  REAL
);

CREATE TABLE threads (
    member      TEXT NOT NULL REFERENCES members(slug) ON DELETE CASCADE,
    transport   TEXT NOT NULL,
    thread_ref  TEXT NOT NULL,
    PRIMARY KEY (member, transport),
    UNIQUE (transport, thread_ref)
);

-- A conversation is a member's thread (key = slug) or a session's own transcript
-- (key = '~' || session id). A rewind starts a new generation.
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
    rewound_in    INTEGER,          -- the generation that rewound it away; NULL while live
    role          TEXT NOT NULL,
    author        TEXT NOT NULL,
    text          TEXT NOT NULL,
    meta          TEXT NOT NULL DEFAULT '{}',
    created_at    REAL NOT NULL
);
CREATE UNIQUE INDEX rows_in_order ON rows(conversation, seq);

CREATE TABLE escalations (
    id              TEXT PRIMARY KEY,
    member          TEXT NOT NULL,
    row_id          TEXT NOT NULL UNIQUE,
    session         TEXT NOT NULL,
    message         TEXT NOT NULL,
    deadline        REAL,
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
    created_at      REAL NOT NULL,
    settled_at      REAL
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
    created_at   REAL NOT NULL,
    settled_at   REAL
);
CREATE INDEX questions_by_member ON questions(member, state);

CREATE TABLE events (
    cursor      INTEGER PRIMARY KEY AUTOINCREMENT,
    session     TEXT NOT NULL,
    kind        TEXT NOT NULL,
    body        TEXT NOT NULL,
    created_at  REAL NOT NULL
);
CREATE INDEX events_by_session ON events(session, cursor);

-- Platform calls waiting to be made. A lane is delivered in id order (per-thread order).
CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    transport   TEXT NOT NULL,
    lane        TEXT NOT NULL,
    op          TEXT NOT NULL,
    object_key  TEXT NOT NULL,
    body        TEXT NOT NULL DEFAULT '{}',
    attempts    INTEGER NOT NULL DEFAULT 0,
    not_before  REAL NOT NULL DEFAULT 0,
    last_error  TEXT,
    created_at  REAL NOT NULL
);
CREATE INDEX outbox_by_lane ON outbox(transport, lane, id);

CREATE TABLE outbox_dead (
    id          INTEGER PRIMARY KEY,
    transport   TEXT NOT NULL,
    lane        TEXT NOT NULL,
    op          TEXT NOT NULL,
    object_key  TEXT NOT NULL,
    body        TEXT NOT NULL,
    attempts    INTEGER NOT NULL,
    last_error  TEXT,
    created_at  REAL NOT NULL,
    failed_at   REAL NOT NULL
);

-- Which platform message shows which crewline object (row, card, bell).
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
    seen_at     REAL NOT NULL,
    PRIMARY KEY (transport, event_id)
) WITHOUT ROWID;

-- The security event log: append-only.
CREATE TABLE sel (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    at          REAL NOT NULL,
    action      TEXT NOT NULL,
    outcome     TEXT NOT NULL,
    actor       TEXT,
    member      TEXT,
    details     TEXT NOT NULL DEFAULT '{}'
);
CREATE TRIGGER sel_append_only_update BEFORE UPDATE ON sel
BEGIN SELECT RAISE(ABORT, 'sel is append-only'); END;
CREATE TRIGGER sel_append_only_delete BEFORE DELETE ON sel
BEGIN SELECT RAISE(ABORT, 'sel is append-only'); END;

CREATE TABLE settings (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
