-- The baseline: crewline's whole schema, written once for every engine. {real}, {bigint},
-- {rowid}, {serial}, {stream_id} and {without_rowid} are the engine's spelling of a type
-- (store/schema/__init__.py), a line marked "<engine> only" is that engine's alone, and
-- what only one engine has is in 013_baseline.<engine>.sql. Moments are epoch seconds and
-- JSON is text, on every engine.

CREATE TABLE humans (
    id          {rowid},
    token_hash  TEXT UNIQUE,
    created_at  {real} NOT NULL
);

CREATE TABLE identities (
    platform    TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    human       {bigint} NOT NULL REFERENCES humans(id) ON DELETE CASCADE,
    PRIMARY KEY (platform, user_id)
);

-- A member's incarnation tells a member removed and re-created under the same slug from the
-- one a boundary froze (SPEC §5.8): the boundary's commit checks it before it rewrites.
CREATE TABLE members (
    slug         TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    owner        {bigint} NOT NULL REFERENCES humans(id),
    created_at   {real} NOT NULL,
    incarnation  TEXT
);

CREATE TABLE member_transports (
    member      TEXT NOT NULL REFERENCES members(slug) ON DELETE CASCADE,
    transport   TEXT NOT NULL,
    PRIMARY KEY (member, transport)
);

-- A stateless session re-reads its transcript every turn: it holds no context to discard,
-- so a boundary counts it as discarded at once. ``turn_since``: the session said it is in
-- the middle of a turn (POST /api/session/turn), since then.
CREATE TABLE sessions (
    id          TEXT PRIMARY KEY,
    key_hash    TEXT NOT NULL UNIQUE,
    kind        TEXT NOT NULL,
    member      TEXT REFERENCES members(slug) ON DELETE CASCADE,
    parent      TEXT REFERENCES sessions(id) ON DELETE CASCADE,
    created_at  {real} NOT NULL,
    revoked_at  {real},
    stateless   INTEGER NOT NULL DEFAULT 0,
    turn_since  {real}
);

CREATE TABLE threads (
    member      TEXT NOT NULL REFERENCES members(slug) ON DELETE CASCADE,
    transport   TEXT NOT NULL,
    thread_ref  TEXT NOT NULL,
    PRIMARY KEY (member, transport),
    UNIQUE (transport, thread_ref)
);

-- A conversation is a member's thread (key = slug) or a session's own transcript
-- (key = '~' || session id). A rewind starts a new generation. Every append moves next_seq
-- on in the conversation's row, so seqs follow commit order.
CREATE TABLE conversations (
    key         TEXT PRIMARY KEY,
    generation  INTEGER NOT NULL DEFAULT 1,
    next_seq    INTEGER NOT NULL DEFAULT 1
);

-- The transcript, the truth. A row about an escalation record (its card, the reply that
-- answered it, the closing of its window, the confirmation of its default) names the
-- record, so reconciliation reads those rows alone.
CREATE TABLE rows (
    id            TEXT PRIMARY KEY,
    conversation  TEXT NOT NULL,
    seq           INTEGER NOT NULL,
    generation    INTEGER NOT NULL,
    rewound_in    INTEGER,          -- the generation that rewound it away; NULL while live
    role          TEXT NOT NULL,
    author        TEXT NOT NULL,
    text          TEXT NOT NULL,
    meta          TEXT NOT NULL DEFAULT '{{}}',
    created_at    {real} NOT NULL,
    record        TEXT
);
CREATE UNIQUE INDEX rows_in_order ON rows(conversation, seq);
CREATE INDEX rows_about_records ON rows(conversation, seq) WHERE record IS NOT NULL;
-- The last row of one role in a conversation (the regenerate button's check), found
-- without walking the conversation back.
CREATE INDEX rows_by_role ON rows(conversation, role, seq);

CREATE TABLE escalations (
    id              TEXT PRIMARY KEY,
    member          TEXT NOT NULL,
    row_id          TEXT NOT NULL UNIQUE,
    session         TEXT NOT NULL,
    message         TEXT NOT NULL,
    deadline        {real},
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
    created_at      {real} NOT NULL,
    settled_at      {real},
    ord             BIGSERIAL,  -- postgresql only: insertion order, as SQLite's rowid
    -- An escalation whose answer was taken back (an edit, a rewind, an undo) waits for the
    -- human: its veto window no longer closes by itself (SPEC §5 rule 5). The transcript
    -- keeps the fact too (a silent row), so a rebuilt index has it again.
    window_held     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX escalations_by_member ON escalations(member, state);

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
    created_at   {real} NOT NULL,
    settled_at   {real}
);
CREATE INDEX questions_by_member ON questions(member, state);

-- A session's event stream. ``withdrawn_in``: the generation of the boundary that took the
-- event back before the session read it.
CREATE TABLE events (
    cursor        {stream_id},
    session       TEXT NOT NULL,
    kind          TEXT NOT NULL,
    body          TEXT NOT NULL,
    created_at    {real} NOT NULL,
    withdrawn_in  INTEGER
);
CREATE INDEX events_by_session ON events(session, cursor);

-- Platform calls waiting to be made. A lane is delivered in id order (per-thread order).
CREATE TABLE outbox (
    id          {stream_id},
    transport   TEXT NOT NULL,
    lane        TEXT NOT NULL,
    op          TEXT NOT NULL,
    object_key  TEXT NOT NULL,
    body        TEXT NOT NULL DEFAULT '{{}}',
    attempts    INTEGER NOT NULL DEFAULT 0,
    not_before  {real} NOT NULL DEFAULT 0,
    last_error  TEXT,
    created_at  {real} NOT NULL
);
CREATE INDEX outbox_by_lane ON outbox(transport, lane, id);

CREATE TABLE outbox_dead (
    id          {bigint} PRIMARY KEY,
    transport   TEXT NOT NULL,
    lane        TEXT NOT NULL,
    op          TEXT NOT NULL,
    object_key  TEXT NOT NULL,
    body        TEXT NOT NULL,
    attempts    INTEGER NOT NULL,
    last_error  TEXT,
    created_at  {real} NOT NULL,
    failed_at   {real} NOT NULL
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

-- Platform events taken (dedupe), with the receipt the first delivery got, so a redelivery
-- is answered the same; forgotten together by their age (bot/receipts.py).
CREATE TABLE seen_events (
    transport   TEXT NOT NULL,
    event_id    TEXT NOT NULL,
    seen_at     {real} NOT NULL,
    receipt     TEXT,
    PRIMARY KEY (transport, event_id)
){without_rowid};
CREATE INDEX seen_events_by_age ON seen_events (seen_at);

-- The security event log: append-only (each engine's part refuses updates and deletes).
CREATE TABLE sel (
    id          {serial},
    at          {real} NOT NULL,
    action      TEXT NOT NULL,
    outcome     TEXT NOT NULL,
    actor       TEXT,
    member      TEXT,
    details     TEXT NOT NULL DEFAULT '{{}}'
);

CREATE TABLE settings (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

-- The first outcome of a write sent with an Idempotency-Key, kept with the write itself (one
-- transaction), so a retry returns it instead of writing again. A key is the session's own.
CREATE TABLE idempotency_keys (
    session      TEXT NOT NULL,
    key          TEXT NOT NULL,
    fingerprint  TEXT NOT NULL,   -- sha256 of the verb and the request body
    status       INTEGER NOT NULL,
    response     TEXT NOT NULL,
    created_at   {real} NOT NULL,
    PRIMARY KEY (session, key)
){without_rowid};
CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at);

-- A session's webhook, and how far its event stream has been delivered there. The secret
-- signs each delivery (HMAC), so it is kept as given: a hash could not sign.
CREATE TABLE webhooks (
    session            TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    url                TEXT NOT NULL,
    secret             TEXT NOT NULL,
    delivered_through  {bigint} NOT NULL,  -- the last cursor the receiver acknowledged
    attempts           INTEGER NOT NULL DEFAULT 0,
    not_before         {real} NOT NULL DEFAULT 0,
    last_error         TEXT,
    created_at         {real} NOT NULL
);

-- Context boundaries (rewind, edit-resend, regenerate, reset; SPEC §5). How far each session
-- has read its event stream: the events after it are the ones a boundary may still withdraw
-- or move.
CREATE TABLE session_reads (
    session  TEXT PRIMARY KEY,
    through  {bigint} NOT NULL
){without_rowid};

CREATE TABLE boundaries (
    id          TEXT PRIMARY KEY,
    member      TEXT NOT NULL,
    kind        TEXT NOT NULL,
    state       TEXT NOT NULL,      -- asking | committed | failed
    asked       TEXT NOT NULL,      -- JSON list of the session ids asked to discard
    created_at  {real} NOT NULL,
    settled_at  {real}
);
CREATE INDEX boundaries_in_flight ON boundaries(member) WHERE state = 'asking';

-- Each asked session's answer: ack (its context is discarded) or nack (with a reason).
CREATE TABLE boundary_answers (
    boundary  TEXT NOT NULL REFERENCES boundaries(id),
    session   TEXT NOT NULL,
    answer    TEXT NOT NULL,
    reason    TEXT,
    at        {real} NOT NULL,
    PRIMARY KEY (boundary, session)
){without_rowid};

-- The concierge (SPEC §4): its suggestions, its answers (the last 20, for undo), the ledger
-- of every decision. The policy lives in `settings` (concierge.answer, concierge.act).
CREATE TABLE concierge_suggestions (
    record_id   TEXT PRIMARY KEY,          -- an escalation's or a question's id
    member      TEXT NOT NULL REFERENCES members(slug) ON DELETE CASCADE,
    text        TEXT NOT NULL,
    why         TEXT NOT NULL,
    brain       TEXT NOT NULL,
    at          {real} NOT NULL,
    dismissed   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX concierge_suggestions_by_member ON concierge_suggestions(member);

CREATE TABLE concierge_answers (
    id            {serial},
    at            {real} NOT NULL,
    member        TEXT NOT NULL,
    record_id     TEXT NOT NULL,
    record_kind   TEXT NOT NULL,           -- escalation | question
    session       TEXT NOT NULL,           -- the session that was answered
    text          TEXT NOT NULL,
    why           TEXT NOT NULL,
    row_id        TEXT NOT NULL,           -- the thread line that says it
    event_cursor  {bigint},                -- the session event that carried the answer
    undone_at     {real}
);

CREATE TABLE concierge_ledger (
    id          {serial},
    at          {real} NOT NULL,
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
-- The concierge's judgement of a record, found by the record at start (one cut short by a
-- stop or a crash is made again).
CREATE INDEX concierge_ledger_record ON concierge_ledger (record_id);
