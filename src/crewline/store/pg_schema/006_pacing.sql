-- A platform's rate limit shared by every replica (docs/replicas.md): the time of the next
-- free turn of a named budget (a transport's calls per second for the whole app). A replica
-- reserves a turn by moving ``next_at`` on by the budget's interval in one statement, so
-- two replicas never get the same turn. Judged by the database's clock alone.
CREATE TABLE crewline_pacing (
    name     TEXT PRIMARY KEY,
    next_at  TIMESTAMPTZ NOT NULL
);
