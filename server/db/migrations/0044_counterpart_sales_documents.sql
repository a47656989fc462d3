-- Issue 31: the invoicing program's sales documents imported from SAF-T (migration 0043) are counterparts
-- too, but they move money the other way from the bills the platform pays (the seeded invoicing program's
-- fee, `document_type` NULL): an invoice (FT, FR, FS, …) is money arriving from its customer, and a credit
-- note (NC, stored with a negative `amount_cents`) money going back to them. The view's amounts stay
-- positive with the direction saying how the bank books them, as every reader expects.
CREATE OR REPLACE VIEW statement_counterparts AS
SELECT 'SEPA_FILE'::text AS kind, f.id, f.msg_id AS label, f.amount_cents - f.rejected_cents AS amount_cents,
       -1 AS direction, f.execution_date AS date, NULL::text AS counterparty_name,
       NULL::text AS counterparty_iban, f.payment_info_id AS reference, f.id AS sepa_file_id, f.status,
       NULL::uuid AS party_id
  FROM sepa_files f
UNION ALL
SELECT 'SEPA_TRANSFER', t.id, t.end_to_end_id || ' · ' || t.creditor_name, t.amount_cents, -1,
       f.execution_date, t.creditor_name, t.creditor_iban, t.end_to_end_id, t.sepa_file_id, t.status,
       t.professional_id
  FROM sepa_transactions t JOIN sepa_files f ON f.id = t.sepa_file_id
UNION ALL
SELECT 'PAYOUT', p.id, p.provider_payout_id, p.amount_cents, 1,
       p.payout_date, NULL, NULL, p.provider_payout_id, NULL, NULL, NULL
  FROM provider_payouts p
UNION ALL
SELECT 'INVOICE', i.id, coalesce(i.invoice_no, i.provider_invoice_id), abs(i.amount_cents),
       CASE WHEN i.document_type IS NULL OR i.amount_cents < 0 THEN -1 ELSE 1 END,
       i.invoice_date, NULL, NULL, coalesce(i.invoice_no, i.provider_invoice_id), NULL, NULL, NULL
  FROM provider_invoices i;
