-- The concierge looks up its judgement of a record at start (a judgement cut short by a
-- stop or a crash is made again): the ledger grows with every decision, so index it.
CREATE INDEX concierge_ledger_record ON concierge_ledger (record_id);
