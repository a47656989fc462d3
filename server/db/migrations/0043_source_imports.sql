-- The payment provider's payouts and the invoicing program's invoices, imported from their own files
-- (issue 31, docs/decisions/0152). A file is imported once (its bytes' hash), each of its rows once (the
-- source's own id), in one transaction with its links to the settlements it pays or bills.

CREATE TABLE source_files (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('STRIPE_PAYOUTS', 'COLLECTOR_PAYOUTS', 'SAFT_INVOICES')),
  file_id uuid NOT NULL REFERENCES stored_files (id),
  file_name text NOT NULL,
  -- the same bytes twice are refused (SOURCE_ALREADY_IMPORTED), whatever their name
  sha256 text NOT NULL UNIQUE CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  -- every row the file held, those inserted, those imported before by their source id
  row_count integer NOT NULL CHECK (row_count >= 0),
  new_rows integer NOT NULL CHECK (new_rows >= 0),
  duplicates_skipped integer NOT NULL CHECK (duplicates_skipped >= 0),
  total_cents bigint NOT NULL,
  -- the file's own control totals were checked against its rows (SAF-T; every Stripe payout's stated amount)
  control_totals_checked boolean NOT NULL,
  -- what the reader said of the file: period, issuer, cancelled documents, payouts and their kinds
  summary jsonb NOT NULL,
  imported_by uuid REFERENCES users (id) ON DELETE SET NULL,
  imported_at timestamptz NOT NULL
);
CREATE INDEX source_files_list_idx ON source_files (imported_at DESC, id DESC);
CREATE INDEX source_files_kind_list_idx ON source_files (kind, imported_at DESC, id DESC);
CREATE INDEX source_files_file_idx ON source_files (file_id);
CREATE INDEX source_files_imported_by_idx ON source_files (imported_by);

-- The statement imports' jobs serve the source imports too: one lease, one sweep, one runner per instance.
ALTER TABLE statement_import_jobs
  ADD COLUMN kind text NOT NULL DEFAULT 'STATEMENT'
    CHECK (kind IN ('STATEMENT', 'STRIPE_PAYOUTS', 'COLLECTOR_PAYOUTS', 'SAFT_INVOICES'));
ALTER TABLE statement_import_jobs DROP CONSTRAINT statement_import_jobs_phase_check;
ALTER TABLE statement_import_jobs ADD CONSTRAINT statement_import_jobs_phase_check
  CHECK (phase IN ('waiting', 'importing', 'matching', 'linking', 'done'));

-- A payout as its provider's file states it. `amount_cents` keeps its meaning (what the bank receives,
-- the matcher's and the reconciliation table's figure); a seeded or earlier payout gains its figures here.
ALTER TABLE provider_payouts
  ADD COLUMN source text CHECK (source IN ('STRIPE_PAYOUTS', 'COLLECTOR_PAYOUTS')),
  ADD COLUMN gross_cents bigint,
  ADD COLUMN fee_cents bigint,
  ADD COLUMN net_cents bigint,
  ADD COLUMN source_file_id uuid REFERENCES source_files (id),
  -- a stated amount (Stripe's `payout` row) was checked against the sum of the rows
  ADD COLUMN amount_checked boolean NOT NULL DEFAULT false,
  ADD CHECK (gross_cents IS NULL OR fee_cents IS NULL OR net_cents IS NULL OR net_cents = gross_cents - fee_cents);
CREATE INDEX provider_payouts_source_file_idx ON provider_payouts (source_file_id);

-- One balance transaction (Stripe) or one collector row: what a payout is the sum of.
CREATE TABLE provider_payout_rows (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- domain/sources/source-ids.ts: `po_…/txn_…`, or a collector's payout/content key
  source_id text NOT NULL UNIQUE,
  source_file_id uuid NOT NULL REFERENCES source_files (id),
  payout_id uuid NOT NULL REFERENCES provider_payouts (id),
  -- Stripe's reporting_category as printed (`charge`, `refund`, `dispute`, `fee`, …); `payment` for a collector
  category text NOT NULL,
  row_kind text NOT NULL CHECK (row_kind IN ('charge', 'refund', 'dispute', 'fee', 'other')),
  gross_cents bigint NOT NULL,
  fee_cents bigint NOT NULL,
  net_cents bigint NOT NULL,
  charge_id text,
  payment_intent_id text,
  reference text,
  description text,
  occurred_on date,
  -- the case or subscription payment the row names (a UUID in its description or reference)
  case_reference uuid,
  settlement_id uuid REFERENCES settlements (id) ON DELETE SET NULL,
  link_method text CHECK (link_method IN ('PAYMENT_INTENT', 'REFERENCE')),
  CHECK (net_cents = gross_cents - fee_cents),
  CHECK ((settlement_id IS NULL) = (link_method IS NULL))
);
CREATE INDEX provider_payout_rows_payout_idx ON provider_payout_rows (payout_id);
CREATE INDEX provider_payout_rows_file_idx ON provider_payout_rows (source_file_id);
CREATE INDEX provider_payout_rows_settlement_idx ON provider_payout_rows (settlement_id) WHERE settlement_id IS NOT NULL;

-- A SAF-T document. `provider_invoice_id` is its source id (`InvoiceNo|ATCUD`); `amount_cents` keeps its
-- meaning (the document's amount: an invoice's gross, a credit note's negative); `settlement_id` the case
-- or subscription payment it bills.
ALTER TABLE provider_invoices
  ADD COLUMN document_type text,
  ADD COLUMN document_status text CHECK (document_status IN ('N', 'S', 'R', 'F')),
  ADD COLUMN invoice_no text,
  ADD COLUMN atcud text,
  ADD COLUMN customer_tax_id text,
  ADD COLUMN gross_cents bigint,
  ADD COLUMN net_cents bigint,
  ADD COLUMN tax_cents bigint,
  -- the case or subscription payment the document names; for a credit note, the invoice it corrects
  ADD COLUMN case_reference uuid,
  ADD COLUMN credits_invoice_no text,
  ADD COLUMN credited_invoice_id uuid REFERENCES provider_invoices (id) ON DELETE SET NULL,
  ADD COLUMN source_file_id uuid REFERENCES source_files (id),
  ADD COLUMN link_method text CHECK (link_method IN ('REFERENCE', 'AMOUNT_DATE_CUSTOMER'));
-- ATCUD identifies a document with AT; `0` is what files from before the series were communicated carry
CREATE UNIQUE INDEX provider_invoices_atcud_key ON provider_invoices (atcud) WHERE atcud IS NOT NULL AND atcud <> '0';
-- a credit note finds the invoice it names by its number (not partial: a join on it must be able to use it)
CREATE INDEX provider_invoices_invoice_no_idx ON provider_invoices (invoice_no);
CREATE INDEX provider_invoices_source_file_idx ON provider_invoices (source_file_id);
CREATE INDEX provider_invoices_credited_idx ON provider_invoices (credited_invoice_id) WHERE credited_invoice_id IS NOT NULL;
