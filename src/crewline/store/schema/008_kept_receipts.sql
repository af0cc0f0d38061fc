-- A redelivered event is answered with the receipt its first delivery got (what the human
-- was told: the record it answered, or why it answered none), kept beside its dedupe mark
-- in the transaction of its effect. Marks and receipts are forgotten together after a
-- while (bot/receipts.py: longer than any platform redelivers), by their age.
ALTER TABLE seen_events ADD COLUMN receipt TEXT;
CREATE INDEX seen_events_by_age ON seen_events (seen_at);
