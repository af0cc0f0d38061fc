-- Context boundaries (rewind, edit-resend, regenerate, reset; SPEC §5): the same tables and
-- columns as SQLite's migration of that name.
--
-- A member's incarnation tells a member removed and re-created under the same slug from the
-- one a boundary froze (SPEC §5.8): the commit checks it before it rewrites anything.
ALTER TABLE members ADD COLUMN incarnation TEXT;
UPDATE members SET incarnation = substr(md5(random()::text || slug), 1, 16)
    WHERE incarnation IS NULL;

-- A stateless session re-reads its transcript every turn: it holds no context to discard,
-- so a boundary counts it as discarded at once instead of waiting for its acknowledgement.
ALTER TABLE sessions ADD COLUMN stateless INTEGER NOT NULL DEFAULT 0;

-- An event a boundary took back before the session read it: the generation that withdrew it.
ALTER TABLE events ADD COLUMN withdrawn_in INTEGER;

-- SQLite orders a member's waiting questions by created_at, then by rowid, which its
-- INSERT OR REPLACE renews on every write: ord is that order here.
ALTER TABLE questions ADD COLUMN ord BIGSERIAL;

-- How far each session has read its event stream: the events after it are the ones not
-- yet delivered, which is what a boundary's commit may still withdraw or move.
CREATE TABLE session_reads (
    session  TEXT PRIMARY KEY,
    through  BIGINT NOT NULL
);

CREATE TABLE boundaries (
    id          TEXT PRIMARY KEY,
    member      TEXT NOT NULL,
    kind        TEXT NOT NULL,
    state       TEXT NOT NULL,      -- asking | committed | failed
    asked       TEXT NOT NULL,      -- JSON list of the session ids asked to discard
    created_at  DOUBLE PRECISION NOT NULL,
    settled_at  DOUBLE PRECISION
);
CREATE INDEX boundaries_in_flight ON boundaries(member) WHERE state = 'asking';

-- Each asked session's answer: ack (its context is discarded) or nack (with a reason).
CREATE TABLE boundary_answers (
    boundary  TEXT NOT NULL REFERENCES boundaries(id),
    session   TEXT NOT NULL,
    answer    TEXT NOT NULL,
    reason    TEXT,
    at        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (boundary, session)
);
