-- SQLite's migration 007: the concierge's judgement of a record found by the record, at start
-- (a judgement cut short by a stop or a crash is made again).
CREATE INDEX concierge_ledger_record ON concierge_ledger (record_id);
