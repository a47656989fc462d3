-- Learned rules (issue 32, docs/decisions/0146): the operator's own matches teach the matcher. When an
-- admin matches a line by hand or accepts a suggestion, the line's counterparty text, normalised as the
-- matcher reads names (domain/reconcile/learned.ts), is kept with the party of the counterpart it was
-- matched to — today a SEPA transfer's doctor; the customers of the coming invoices import the same way.
-- Written in the same transaction as the match and named in its audit row. One party per text;
-- `times_matched` counts the matches that named it; a text later matched to another party says nothing
-- of either (`contradicted`: the matcher no longer reads it — two customers print "J SILVA" alike).
CREATE TABLE statement_learned_parties (
  counterparty_text text PRIMARY KEY CHECK (char_length(counterparty_text) BETWEEN 1 AND 140),
  party_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  times_matched integer NOT NULL DEFAULT 1 CHECK (times_matched > 0),
  contradicted boolean NOT NULL DEFAULT false,
  last_action_id uuid NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX statement_learned_parties_party_idx ON statement_learned_parties (party_id);

-- Each counterpart's party, for the matcher and the explanations: a transfer's doctor, nothing else yet.
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
SELECT 'INVOICE', i.id, i.provider_invoice_id, i.amount_cents, -1,
       i.invoice_date, NULL, NULL, i.provider_invoice_id, NULL, NULL, NULL
  FROM provider_invoices i;
