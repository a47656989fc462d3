-- Issue 32, decision 0161: `Shift+i` ignores every line of a selection or a filter as one action, undone as
-- one (`z`) and answered, like a bulk accept, by counts rather than rows. Its kind joins the action kinds.
ALTER TABLE statement_actions DROP CONSTRAINT statement_actions_kind_check;
ALTER TABLE statement_actions ADD CONSTRAINT statement_actions_kind_check
  CHECK (kind IN ('ACCEPT', 'MATCH', 'IGNORE', 'UNMATCH', 'NOTE', 'BULK_ACCEPT', 'BULK_IGNORE', 'UNDO', 'IMPORT'));
