-- An index for every reference to a row the server deletes (tests/db/foreign-key-indexes.test.ts).
--
-- Deleting a parent row makes PostgreSQL check or cascade into each referencing table once per deleted
-- row, with `WHERE fk = $1` and nothing else; an index with another condition cannot serve it, so each
-- was a sequential scan of the child. Deleting a SEPA file of 10,000 transfers scanned the statement-line
-- matches 10,000 times (216 s once in a bench); a bulk delete of settlements scanned every SEPA link row
-- per settlement, twice (the deletion's own history check, then the key's). The conditions below are
-- only `IS NOT NULL`, so rows without the reference (most matches are payouts and invoices) cost nothing.
CREATE INDEX statement_line_matches_sepa_file_idx ON statement_line_matches (sepa_file_id)
  WHERE sepa_file_id IS NOT NULL;
CREATE INDEX statement_line_matches_sepa_transaction_idx ON statement_line_matches (sepa_transaction_id)
  WHERE sepa_transaction_id IS NOT NULL;
CREATE INDEX statement_effects_sepa_file_idx ON statement_effects (sepa_file_id);
CREATE INDEX statement_effects_sepa_transaction_idx ON statement_effects (sepa_transaction_id)
  WHERE sepa_transaction_id IS NOT NULL;
CREATE INDEX payout_blocks_sepa_transaction_idx ON payout_blocks (sepa_transaction_id)
  WHERE sepa_transaction_id IS NOT NULL;
CREATE INDEX payout_blocks_sepa_status_report_idx ON payout_blocks (sepa_status_report_id)
  WHERE sepa_status_report_id IS NOT NULL;
CREATE INDEX provider_invoices_settlement_idx ON provider_invoices (settlement_id)
  WHERE settlement_id IS NOT NULL;

-- The SEPA links had only their "never in two live files" index, partial (`WHERE live`). One index now
-- does both jobs without a second entry per claimed settlement: unique on (settlement, true-while-live),
-- where a link no longer live has NULL as its second key, and NULLs never collide.
CREATE UNIQUE INDEX sepa_transaction_settlements_settlement_key
  ON sepa_transaction_settlements (settlement_id, (CASE WHEN live THEN true END));
DROP INDEX sepa_transaction_settlements_live_key;
CREATE UNIQUE INDEX sepa_transaction_recoveries_settlement_key
  ON sepa_transaction_recoveries (settlement_id, (CASE WHEN live THEN true END));
DROP INDEX sepa_transaction_recoveries_live_key;
