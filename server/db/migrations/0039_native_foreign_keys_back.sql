-- The database's own foreign keys back for the eleven references migrations 0029 and 0030 checked with
-- statement-level triggers (docs/decisions/0136, superseding 0111 and 0113). Measured on one machine in one
-- run, alternating, the keys cost the import and the SEPA generation less than the 15 % the team allows
-- (bench/results/statement-import.md, bench/results/finance-sepa.md); the database guards integrity, not
-- our PL/pgSQL.
--
-- Each key is put back exactly as the migration that first created it wrote it (0004, 0022): same name,
-- same ON DELETE action, none deferrable. Added without NOT VALID, so every existing row is checked now.

-- 0029's and 0030's triggers go with their functions: the reference checks, the on-delete and on-truncate
-- actions, and the refusals of an identity change (a key re-checks a changed reference and refuses a
-- change of a named row's id itself, so nothing is lost; an unnamed row's id may change again, as before
-- 0029).
DROP FUNCTION sepa_links_check_references() CASCADE;
DROP FUNCTION settlements_deleted_check_links() CASCADE;
DROP FUNCTION sepa_transactions_deleted_drop_links() CASCADE;
DROP FUNCTION check_references() CASCADE;
DROP FUNCTION references_deleted() CASCADE;
DROP FUNCTION refuse_identity_change() CASCADE;

-- 0004
ALTER TABLE sepa_transaction_settlements
  ADD CONSTRAINT sepa_transaction_settlements_settlement_id_fkey
    FOREIGN KEY (settlement_id) REFERENCES settlements (id),
  ADD CONSTRAINT sepa_transaction_settlements_sepa_transaction_id_sepa_file_fkey
    FOREIGN KEY (sepa_transaction_id, sepa_file_id) REFERENCES sepa_transactions (id, sepa_file_id) ON DELETE CASCADE;

-- 0004 (file, history) and 0022 (last action, links)
ALTER TABLE statement_lines
  ADD CONSTRAINT statement_lines_statement_file_id_fkey
    FOREIGN KEY (statement_file_id) REFERENCES statement_files (id) ON DELETE CASCADE,
  ADD CONSTRAINT statement_lines_last_action_id_fkey
    FOREIGN KEY (last_action_id) REFERENCES statement_actions (id) ON DELETE SET NULL;
ALTER TABLE statement_line_matches
  ADD CONSTRAINT statement_line_matches_statement_line_id_fkey
    FOREIGN KEY (statement_line_id) REFERENCES statement_lines (id) ON DELETE CASCADE,
  ADD CONSTRAINT statement_line_matches_sepa_file_id_fkey
    FOREIGN KEY (sepa_file_id) REFERENCES sepa_files (id) ON DELETE CASCADE,
  ADD CONSTRAINT statement_line_matches_sepa_transaction_id_fkey
    FOREIGN KEY (sepa_transaction_id) REFERENCES sepa_transactions (id) ON DELETE CASCADE,
  ADD CONSTRAINT statement_line_matches_payout_id_fkey
    FOREIGN KEY (payout_id) REFERENCES provider_payouts (id) ON DELETE CASCADE,
  ADD CONSTRAINT statement_line_matches_invoice_id_fkey
    FOREIGN KEY (invoice_id) REFERENCES provider_invoices (id) ON DELETE CASCADE;
ALTER TABLE statement_line_history
  ADD CONSTRAINT statement_line_history_statement_line_id_fkey
    FOREIGN KEY (statement_line_id) REFERENCES statement_lines (id) ON DELETE CASCADE,
  ADD CONSTRAINT statement_line_history_actor_id_fkey
    FOREIGN KEY (actor_id) REFERENCES users (id);
