-- Issue 31, decision 0171 (its dated section of 2026-11-28): a payout carries the status Stripe's Balance report
-- states (`provider_status`, migration 0057) in the view's `status`, so the match picker and a line's count of
-- candidates leave out a payout that failed or was canceled — no bank credit is due for it — as the import's
-- matcher already does (server/statements/matching.ts). Only the PAYOUT branch changes; a SEPA file's status
-- stays the file's.
CREATE OR REPLACE VIEW statement_counterparts AS
SELECT 'SEPA_FILE'::text AS kind, f.id, f.msg_id AS label, f.amount_cents - f.rejected_cents AS amount_cents,
       -1 AS direction, f.execution_date AS date, NULL::text AS counterparty_name,
       NULL::text AS counterparty_iban, f.payment_info_id AS reference, f.id AS sepa_file_id, f.status,
       NULL::uuid AS party_id, NULL::text AS counterparty_phone
  FROM sepa_files f
UNION ALL
SELECT 'SEPA_TRANSFER', t.id, t.end_to_end_id || ' · ' || t.creditor_name, t.amount_cents, -1,
       f.execution_date, t.creditor_name, t.creditor_iban, t.end_to_end_id, t.sepa_file_id, t.status,
       t.professional_id, NULL
  FROM sepa_transactions t JOIN sepa_files f ON f.id = t.sepa_file_id
UNION ALL
SELECT 'PAYOUT', p.id, p.provider_payout_id, p.amount_cents, 1,
       p.payout_date, NULL, NULL, p.provider_payout_id, NULL, p.provider_status, NULL, NULL
  FROM provider_payouts p
UNION ALL
SELECT 'INVOICE', i.id, coalesce(i.invoice_no, i.provider_invoice_id), abs(i.amount_cents),
       CASE WHEN i.document_type IS NULL OR i.amount_cents < 0 THEN -1 ELSE 1 END,
       i.invoice_date, customer.name, NULL, coalesce(i.invoice_no, i.provider_invoice_id), NULL, NULL,
       customer.id, customer.phone
  FROM provider_invoices i
  LEFT JOIN LATERAL (
    SELECT u.id, coalesce(nullif(btrim(u.full_name), ''), nullif(btrim(u.name), '')) AS name,
           CASE WHEN u.phone_number IS NOT NULL THEN concat_ws(' ', u.phone_country_code, u.phone_number) END AS phone
      FROM settlements s
      LEFT JOIN cases k ON k.id = s.case_id
      LEFT JOIN subscription_payments sp ON sp.id = s.subscription_payment_id
      JOIN users u ON u.id = coalesce(k.customer_id, sp.customer_id)
     WHERE s.id = coalesce(i.settlement_id,
                           (SELECT credited.settlement_id FROM provider_invoices credited
                             WHERE credited.id = i.credited_invoice_id))
       AND i.document_type IS NOT NULL
  ) customer ON true;
