-- The month close (issue 31, docs/decisions/0155) counts and sums a month's statement lines by whether
-- they are done (MATCHED, IGNORED) or left. At 1,000,000 lines a month is ~86,000 of them, and reading
-- their status and amount from the heap was a scan of the whole table (184 ms, 80,967 blocks). The date
-- index already read by the reconciliation table's keyset (bank_date, id) now carries both columns, so
-- the month is an index-only scan (38 ms): the same index, no new one for the imports to write. A line's
-- status was already indexed (statement_lines_status_idx), so changing it was never a HOT update; its
-- amount never changes.
DROP INDEX statement_lines_date_idx;
CREATE INDEX statement_lines_date_idx ON statement_lines (bank_date, id) INCLUDE (status, bank_amount_cents);
