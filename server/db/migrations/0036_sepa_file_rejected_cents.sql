-- What the bank will debit for a SEPA file is what it accepted: a pain.002 that rejects some transfers
-- (PART) leaves a batch debit of the accepted total, one line for the PmtInfId (issue 27, point 8;
-- docs/decisions/0123). `rejected_cents` is the sum of the transfers the bank's status reports
-- rejected before payment, kept by server/finance/transfer-rejection.ts in the same transaction as the
-- rejection; a return on a statement does not count — it comes after the debit, as its own credit.
-- The reconciliation's view answers the file's amount as amount_cents − rejected_cents, so the batch
-- debit of the accepted total is an exact match, not a DISCREPANCY of the rejected amount.
ALTER TABLE sepa_files ADD COLUMN rejected_cents bigint NOT NULL DEFAULT 0;
ALTER TABLE sepa_files ADD CONSTRAINT sepa_files_rejected_within_amount
  CHECK (rejected_cents >= 0 AND rejected_cents <= amount_cents);

UPDATE sepa_files f SET rejected_cents = r.cents
  FROM (SELECT sepa_file_id, sum(amount_cents) AS cents FROM sepa_transactions
         WHERE status = 'REJECTED' AND returned_by_statement_line_id IS NULL
         GROUP BY sepa_file_id) r
 WHERE r.sepa_file_id = f.id;

CREATE OR REPLACE VIEW statement_counterparts AS
SELECT 'SEPA_FILE'::text AS kind, f.id, f.msg_id AS label, f.amount_cents - f.rejected_cents AS amount_cents,
       -1 AS direction, f.execution_date AS date, NULL::text AS counterparty_name,
       NULL::text AS counterparty_iban, f.payment_info_id AS reference, f.id AS sepa_file_id, f.status
  FROM sepa_files f
UNION ALL
SELECT 'SEPA_TRANSFER', t.id, t.end_to_end_id || ' · ' || t.creditor_name, t.amount_cents, -1,
       f.execution_date, t.creditor_name, t.creditor_iban, t.end_to_end_id, t.sepa_file_id, t.status
  FROM sepa_transactions t JOIN sepa_files f ON f.id = t.sepa_file_id
UNION ALL
SELECT 'PAYOUT', p.id, p.provider_payout_id, p.amount_cents, 1,
       p.payout_date, NULL, NULL, p.provider_payout_id, NULL, NULL
  FROM provider_payouts p
UNION ALL
SELECT 'INVOICE', i.id, i.provider_invoice_id, i.amount_cents, -1,
       i.invoice_date, NULL, NULL, i.provider_invoice_id, NULL, NULL
  FROM provider_invoices i;

-- The amount predicates on the view reach the file branch through the amount it now answers.
DROP INDEX sepa_files_amount_idx;
CREATE INDEX sepa_files_amount_idx ON sepa_files ((amount_cents - rejected_cents), execution_date);
