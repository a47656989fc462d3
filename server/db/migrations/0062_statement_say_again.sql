-- Issue 32, decision 0179: after a person decides a line, the suggestions of the file's open lines of that
-- amount are said again (server/statements/say-again.ts). The index finds a file's lines of an amount without
-- reading the file; `kept_to_rail` keeps the import's judgement of whether the file's payers pay on their
-- rail's day (domain/reconcile/match.ts `keepsToRail`), which the few lines of one amount cannot judge.
-- Null: judged before this column, or nothing was open to match; said again as not kept.
CREATE INDEX statement_lines_file_amount_idx ON statement_lines (statement_file_id, bank_amount_cents);
ALTER TABLE statement_files ADD COLUMN kept_to_rail boolean;
