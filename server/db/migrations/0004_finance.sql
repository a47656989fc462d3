-- Financial manager: settlements, SEPA files and transactions, provider payouts and invoices,
-- bank statement files, lines and line history.

CREATE TABLE settlements (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  professional_id uuid NOT NULL REFERENCES users (id),
  -- exactly one source: a paid case or a subscription payment, each settled once
  case_id uuid UNIQUE REFERENCES cases (id),
  subscription_payment_id uuid UNIQUE REFERENCES subscription_payments (id),
  reference_month text NOT NULL CHECK (reference_month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  currency text NOT NULL DEFAULT 'EUR' CHECK (currency = 'EUR'),
  gross_cents integer NOT NULL CHECK (gross_cents > 0),
  fee_cents integer NOT NULL CHECK (fee_cents >= 0),
  net_cents integer NOT NULL,
  -- admin override of what is paid out; the payable amount is coalesce(adjusted_cents, net_cents)
  adjusted_cents integer CHECK (adjusted_cents IS NULL OR adjusted_cents >= 0),
  adjustment_note text,
  payment_date date,
  available_on date,
  invoice_file_id uuid REFERENCES stored_files (id),
  notes text,
  status text NOT NULL DEFAULT 'READY_TO_SETTLE' CHECK (status IN (
    'READY_TO_SETTLE', 'AVAILABLE', 'SETTLED', 'PENDING_TRANSFER', 'PAID', 'REFUNDED', 'REFUNDED_PAID'
  )),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (num_nonnulls(case_id, subscription_payment_id) = 1),
  CHECK (net_cents = gross_cents - fee_cents),
  CHECK (adjusted_cents IS NULL OR adjustment_note IS NOT NULL)
);
CREATE INDEX settlements_status_month_idx ON settlements (status, reference_month, id);
CREATE INDEX settlements_month_idx ON settlements (reference_month, id);
CREATE INDEX settlements_professional_idx ON settlements (professional_id, status, reference_month);

CREATE TABLE sepa_files (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  msg_id text NOT NULL UNIQUE CHECK (char_length(msg_id) BETWEEN 1 AND 35),
  payment_info_id text NOT NULL UNIQUE CHECK (char_length(payment_info_id) BETWEEN 1 AND 35),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  transaction_count integer NOT NULL CHECK (transaction_count > 0),
  currency text NOT NULL DEFAULT 'EUR' CHECK (currency = 'EUR'),
  status text NOT NULL DEFAULT 'GENERATED' CHECK (status IN ('GENERATED', 'AVAILABLE', 'PAID', 'UNAVAILABLE')),
  notes text,
  reference_month text NOT NULL CHECK (reference_month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  execution_date date NOT NULL,
  debtor_name text NOT NULL,
  debtor_iban text NOT NULL,
  debtor_bic text,
  xml_file_id uuid REFERENCES stored_files (id),
  created_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sepa_files_created_idx ON sepa_files (created_at, id);
CREATE INDEX sepa_files_status_idx ON sepa_files (status, created_at);

CREATE TABLE sepa_transactions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  sepa_file_id uuid NOT NULL REFERENCES sepa_files (id) ON DELETE CASCADE,
  end_to_end_id text NOT NULL UNIQUE CHECK (char_length(end_to_end_id) BETWEEN 1 AND 35),
  professional_id uuid NOT NULL REFERENCES users (id),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  -- snapshot of the bank data written into the file; the professional may change theirs later
  creditor_name text NOT NULL,
  creditor_iban text NOT NULL,
  creditor_bic text,
  remittance_information text NOT NULL,
  UNIQUE (sepa_file_id, professional_id),
  UNIQUE (id, sepa_file_id)
);
CREATE INDEX sepa_transactions_professional_idx ON sepa_transactions (professional_id);

-- Which settlements a transaction pays. `live` goes false when the file becomes UNAVAILABLE (trigger
-- below) and rows disappear with a deleted file, so the partial unique index means: a settlement is
-- never in two live SEPA files.
CREATE TABLE sepa_transaction_settlements (
  sepa_transaction_id uuid NOT NULL,
  sepa_file_id uuid NOT NULL,
  settlement_id uuid NOT NULL REFERENCES settlements (id),
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  live boolean NOT NULL DEFAULT true,
  PRIMARY KEY (sepa_transaction_id, settlement_id),
  FOREIGN KEY (sepa_transaction_id, sepa_file_id) REFERENCES sepa_transactions (id, sepa_file_id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX sepa_transaction_settlements_live_key ON sepa_transaction_settlements (settlement_id) WHERE live;
CREATE INDEX sepa_transaction_settlements_file_idx ON sepa_transaction_settlements (sepa_file_id);

CREATE FUNCTION sepa_file_release_settlements() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sepa_transaction_settlements SET live = false WHERE sepa_file_id = NEW.id AND live;
  RETURN NEW;
END;
$$;
CREATE TRIGGER sepa_file_unavailable AFTER UPDATE OF status ON sepa_files
  FOR EACH ROW WHEN (NEW.status = 'UNAVAILABLE' AND OLD.status <> 'UNAVAILABLE')
  EXECUTE FUNCTION sepa_file_release_settlements();

-- Payouts of the payment provider (funds released to our account) and invoicing-provider invoices:
-- the counterparts a statement line can be matched to.
CREATE TABLE provider_payouts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  provider_payout_id text NOT NULL UNIQUE,
  amount_cents bigint NOT NULL,
  currency text NOT NULL DEFAULT 'EUR' CHECK (currency = 'EUR'),
  payout_date date NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX provider_payouts_date_idx ON provider_payouts (payout_date, amount_cents);

CREATE TABLE provider_invoices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  provider_invoice_id text NOT NULL UNIQUE,
  amount_cents bigint NOT NULL,
  currency text NOT NULL DEFAULT 'EUR' CHECK (currency = 'EUR'),
  invoice_date date NOT NULL,
  settlement_id uuid REFERENCES settlements (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX provider_invoices_date_idx ON provider_invoices (invoice_date, amount_cents);

CREATE TABLE statement_files (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  file_id uuid NOT NULL REFERENCES stored_files (id),
  format text NOT NULL CHECK (format IN ('CSV', 'CAMT053', 'MT940')),
  -- the same upload twice is recognised by content and not imported again
  sha256 text NOT NULL UNIQUE CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  account_iban text,
  currency text NOT NULL DEFAULT 'EUR' CHECK (currency = 'EUR'),
  opening_balance_cents bigint,
  closing_balance_cents bigint,
  line_count integer NOT NULL DEFAULT 0 CHECK (line_count >= 0),
  uploaded_by uuid REFERENCES users (id),
  imported_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX statement_files_imported_idx ON statement_files (imported_at, id);

CREATE TABLE statement_lines (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  statement_file_id uuid NOT NULL REFERENCES statement_files (id) ON DELETE CASCADE,
  line_number integer NOT NULL CHECK (line_number > 0),
  -- natural key of a bank entry across overlapping statements; see docs/decisions/0012
  dedup_key text NOT NULL UNIQUE,
  bank_amount_cents bigint NOT NULL,
  bank_date date NOT NULL,
  value_date date,
  transaction_date date,
  currency text NOT NULL DEFAULT 'EUR' CHECK (currency = 'EUR'),
  description text NOT NULL DEFAULT '',
  counterparty_name text,
  counterparty_iban text,
  end_to_end_id text,
  batch_id text,
  bank_reference text,
  kind text NOT NULL DEFAULT 'other' CHECK (kind IN ('transfer', 'return', 'fee', 'other')),
  return_reason text,
  status text NOT NULL DEFAULT 'UNMATCHED' CHECK (status IN ('UNMATCHED', 'SUGGESTED', 'MATCHED', 'DISCREPANCY', 'IGNORED')),
  match_method text CHECK (match_method IN ('REFERENCE', 'AMOUNT_COUNTERPARTY_DATE', 'MANUAL')),
  matched_sepa_file_id uuid REFERENCES sepa_files (id) ON DELETE SET NULL,
  matched_sepa_transaction_id uuid REFERENCES sepa_transactions (id) ON DELETE SET NULL,
  matched_payout_id uuid REFERENCES provider_payouts (id) ON DELETE SET NULL,
  matched_invoice_id uuid REFERENCES provider_invoices (id) ON DELETE SET NULL,
  notes text,
  imported_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (status NOT IN ('SUGGESTED', 'MATCHED') OR num_nonnulls(matched_sepa_file_id, matched_sepa_transaction_id, matched_payout_id, matched_invoice_id) >= 1)
);
CREATE INDEX statement_lines_file_idx ON statement_lines (statement_file_id, line_number);
CREATE INDEX statement_lines_status_idx ON statement_lines (status, bank_date, id);
CREATE INDEX statement_lines_date_idx ON statement_lines (bank_date, id);
CREATE INDEX statement_lines_end_to_end_idx ON statement_lines (end_to_end_id) WHERE end_to_end_id IS NOT NULL;
CREATE INDEX statement_lines_batch_idx ON statement_lines (batch_id) WHERE batch_id IS NOT NULL;
-- each counterpart is matched by at most one bank line (a return is a second, separate link)
CREATE UNIQUE INDEX statement_lines_matched_sepa_file_key ON statement_lines (matched_sepa_file_id) WHERE status = 'MATCHED' AND kind <> 'return';
CREATE UNIQUE INDEX statement_lines_matched_sepa_tx_key ON statement_lines (matched_sepa_transaction_id) WHERE status = 'MATCHED' AND kind <> 'return';
CREATE UNIQUE INDEX statement_lines_matched_payout_key ON statement_lines (matched_payout_id) WHERE status = 'MATCHED';
CREATE UNIQUE INDEX statement_lines_matched_invoice_key ON statement_lines (matched_invoice_id) WHERE status = 'MATCHED';

CREATE TABLE statement_line_history (
  id bigserial PRIMARY KEY,
  statement_line_id uuid NOT NULL REFERENCES statement_lines (id) ON DELETE CASCADE,
  -- null: done by the importer or the matcher, not by a person
  actor_id uuid REFERENCES users (id),
  action text NOT NULL CHECK (action IN ('IMPORTED', 'MATCHED', 'SUGGESTED', 'UNMATCHED', 'DISCREPANCY', 'IGNORED', 'NOTE')),
  before jsonb,
  after jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX statement_line_history_line_idx ON statement_line_history (statement_line_id, created_at, id);
