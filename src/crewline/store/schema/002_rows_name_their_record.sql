-- A row that concerns an escalation record (its card, the reply that answered it, the
-- closing of its window, the confirmation of its default) names the record, so that
-- reconciliation reads those rows alone instead of decoding the whole transcript.
ALTER TABLE rows ADD COLUMN record TEXT;

UPDATE rows
   SET record = coalesce(json_extract(meta, '$.escalation_id'),
                         json_extract(meta, '$.window_closed'),
                         json_extract(meta, '$.default_applied'))
 WHERE meta <> '{}';

CREATE INDEX rows_about_records ON rows(conversation, seq) WHERE record IS NOT NULL;
