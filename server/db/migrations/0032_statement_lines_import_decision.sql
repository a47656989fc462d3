-- The matcher's decision on a line it found a counterpart for is kept on the line, not as a history row
-- (docs/decisions/0115): the state the import wrote it in — status, method, difference and links, as a
-- line's history states are — or null when the matcher left it UNMATCHED. A line's history shows it as
-- the matcher's entry (no person, at the import's time, UNMATCHED → this state), just as it shows the
-- upload from the file (decision 0097). A 100,000-line statement's ~35,000 decisions were one
-- `statement_line_history` row each, ~1.5 s of its import; as a column they are written with the line.
-- Lines imported before this migration keep their history rows and have no decision here.
ALTER TABLE statement_lines ADD COLUMN import_decision jsonb;
