-- What writing statement lines costs (issue 12's budgets, docs/decisions/0101): a 100,000-line import and a
-- bulk accept of 10,000 suggestions spent most of their time in index maintenance on statement_lines and in
-- the over-match trigger of statement_line_matches, which ran once per link row.

-- statement_lines had thirteen indexes; every inserted line and every non-HOT update (a status change)
-- wrote each one. What the reconciliation table's filters (server/statements/lines.ts, keyset by bank date
-- then id), the files' progress and the dashboard read is kept: (bank_date, id), (file, bank_date, id),
-- (file, status, bank_date, id), (status, bank_date, id), the amount, the counterparty's name and IBAN
-- prefixes, and the primary and dedup keys. Dropped:
--   * (statement_file_id, line_number): nothing reads lines by number; one file's lines are read by date;
--   * end_to_end_id, batch_id: the matcher looks counterparts up by these, never lines;
--   * (kind, bank_date, id): a kind other than returns is common enough that the date index finds a page
--     at once; returns are rare, so they keep a partial index that costs other lines nothing.
DROP INDEX statement_lines_file_idx;
DROP INDEX statement_lines_end_to_end_idx;
DROP INDEX statement_lines_batch_idx;
DROP INDEX statement_lines_kind_date_idx;
CREATE INDEX statement_lines_returns_date_idx ON statement_lines (bank_date, id) WHERE kind = 'return';

-- (statement_line_id) is the first column of statement_line_matches_line_counterpart_key already.
DROP INDEX statement_line_matches_line_idx;

-- The matched parts of a payout or an invoice never exceed its amount, nor a link a SEPA transfer's or
-- file's amount: checked once per statement over the rows it wrote (a transition table) instead of once
-- per row. The counterparts named are locked first, payouts then invoices, each in id order, so two
-- transactions matching the same payouts take turns (the second sees the first's parts once it has the
-- lock: each statement of a plpgsql function reads a fresh snapshot under READ COMMITTED) and two that
-- lock several of them always lock them in the same order.
DROP TRIGGER statement_line_matches_within_amount ON statement_line_matches;
DROP FUNCTION statement_match_within_amount();

CREATE FUNCTION statement_matches_within_amount() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  over record;
BEGIN
  PERFORM 1 FROM provider_payouts
   WHERE id IN (SELECT payout_id FROM written WHERE state = 'MATCHED' AND payout_id IS NOT NULL)
   ORDER BY id FOR UPDATE;
  PERFORM 1 FROM provider_invoices
   WHERE id IN (SELECT invoice_id FROM written WHERE state = 'MATCHED' AND invoice_id IS NOT NULL)
   ORDER BY id FOR UPDATE;
  SELECT o.matched, o.total INTO over FROM (
    SELECT (SELECT coalesce(sum(m.allocated_cents), 0) FROM statement_line_matches m
             WHERE m.payout_id = p.id AND m.state = 'MATCHED') AS matched, abs(p.amount_cents) AS total
      FROM provider_payouts p
     WHERE p.id IN (SELECT payout_id FROM written WHERE state = 'MATCHED' AND payout_id IS NOT NULL)
    UNION ALL
    SELECT (SELECT coalesce(sum(m.allocated_cents), 0) FROM statement_line_matches m
             WHERE m.invoice_id = i.id AND m.state = 'MATCHED'), abs(i.amount_cents)
      FROM provider_invoices i
     WHERE i.id IN (SELECT invoice_id FROM written WHERE state = 'MATCHED' AND invoice_id IS NOT NULL)
    UNION ALL
    SELECT w.allocated_cents, t.amount_cents
      FROM written w JOIN sepa_transactions t ON t.id = w.sepa_transaction_id
     WHERE w.state = 'MATCHED'
    UNION ALL
    SELECT w.allocated_cents, f.amount_cents
      FROM written w JOIN sepa_files f ON f.id = w.sepa_file_id
     WHERE w.state = 'MATCHED'
  ) o
  WHERE o.matched > o.total
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'statement match over the counterpart''s amount (% > %)', over.matched, over.total
      USING ERRCODE = 'check_violation', CONSTRAINT = 'statement_line_matches_within_amount';
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER statement_line_matches_within_amount_inserted
  AFTER INSERT ON statement_line_matches REFERENCING NEW TABLE AS written
  FOR EACH STATEMENT EXECUTE FUNCTION statement_matches_within_amount();
-- Nothing updates links today (a change deletes and inserts them); should anything, it is checked too.
CREATE TRIGGER statement_line_matches_within_amount_updated
  AFTER UPDATE ON statement_line_matches REFERENCING NEW TABLE AS written
  FOR EACH STATEMENT EXECUTE FUNCTION statement_matches_within_amount();
