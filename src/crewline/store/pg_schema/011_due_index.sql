-- An escalation without a deadline never comes due: leave it out of the due index. One
-- index entry (and one WAL record, about 70 bytes) fewer per such escalation
-- (docs/postgresql.md, Throughput). The scheduler's query (``due_windows``) already asks
-- for ``deadline IS NOT NULL``, so it still reads this index.
DROP INDEX escalations_due;
CREATE INDEX escalations_due ON escalations(deadline)
    WHERE state = 'pending' AND deadline IS NOT NULL;
