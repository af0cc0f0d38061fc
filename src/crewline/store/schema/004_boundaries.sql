-- Context boundaries (rewind, edit-resend, regenerate, reset; SPEC §5).
--
-- A member's incarnation tells a member removed and re-created under the same slug from the
-- one a boundary froze (SPEC §5.8): the commit checks it before it rewrites anything.
ALTER TABLE members ADD COLUMN incarnation TEXT;
UPDATE members SET incarnation = lower(hex(randomblob(8))) WHERE incarnation IS NULL;

-- A stateless session re-reads its transcript every turn: it holds no context to discard,
-- so a boundary counts it as discarded at once instead of waiting for its acknowledgement.
ALTER TABLE sessions ADD COLUMN stateless INTEGER NOT NULL DEFAULT 0;

-- An event a boundary took back before the session read it (it concerned a rewound row,
-- or it was moved after the boundary's own rows): the generation that withdrew it.
ALTER TABLE events ADD COLUMN withdrawn_in INTEGER;

-- How far each session has read its event stream: the events after it are the ones not
-- yet delivered, which is what a boundary's commit may still withdraw or move.
CREATE TABLE session_reads (
    session  TEXT PRIMARY KEY,
    through  INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE boundaries (
    id          TEXT PRIMARY KEY,
    member      TEXT NOT NULL,
    kind        TEXT NOT NULL,
    state       TEXT NOT NULL,      -- asking | committed | failed
    asked       TEXT NOT NULL,      -- JSON list of the session ids asked to discard
    created_at  REAL NOT NULL,
    settled_at  REAL
);
CREATE INDEX boundaries_in_flight ON boundaries(member) WHERE state = 'asking';

-- Each asked session's answer: ack (its context is discarded) or nack (with a reason).
CREATE TABLE boundary_answers (
    boundary  TEXT NOT NULL REFERENCES boundaries(id),
    session   TEXT NOT NULL,
    answer    TEXT NOT NULL,
    reason    TEXT,
    at        REAL NOT NULL,
    PRIMARY KEY (boundary, session)
) WITHOUT ROWID;
