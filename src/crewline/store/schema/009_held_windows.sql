-- An escalation whose answer was taken back (an edit, a rewind, an undo) waits for the
-- human: its veto window no longer closes by itself (SPEC §5 rule 5). The transcript keeps
-- the fact too (a silent row), so a rebuilt index has it again.
ALTER TABLE escalations ADD COLUMN window_held INTEGER NOT NULL DEFAULT 0;
