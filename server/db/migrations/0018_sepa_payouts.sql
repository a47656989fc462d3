-- SEPA payouts (issue 11, decisions 0069–0071): idempotent generation, recoveries deducted from a
-- transfer, transfers the bank rejected, payout blocks, and the bank's status reports.

-- MsgIds are numbered by a sequence: unique across every server process, never reused (a rolled-back
-- generation leaves a gap, which the bank does not mind; a repeated MsgId it refuses).
CREATE SEQUENCE sepa_file_number;

-- Money-moving POSTs with an `Idempotency-Key` (DESIGN §5): the first answer is kept with the hash of
-- its request, so a retry answers it again and a different request with the same key is refused.
CREATE TABLE idempotent_requests (
  scope text NOT NULL CHECK (char_length(scope) BETWEEN 1 AND 100),
  idempotency_key text NOT NULL CHECK (char_length(idempotency_key) BETWEEN 1 AND 200),
  request_sha256 text NOT NULL CHECK (request_sha256 ~ '^[0-9a-f]{64}$'),
  response_status integer NOT NULL,
  response_body jsonb NOT NULL,
  actor_id uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, idempotency_key)
);

-- A transfer the bank rejected (pain.002): its settlements went back to SETTLED (their links are no
-- longer live) and the doctor's payouts are blocked.
ALTER TABLE sepa_transactions
  ADD COLUMN status text NOT NULL DEFAULT 'INCLUDED' CHECK (status IN ('INCLUDED', 'REJECTED')),
  ADD COLUMN rejection_reason_code text,
  ADD COLUMN rejection_reason_text text,
  ADD COLUMN rejected_at timestamptz;
ALTER TABLE sepa_files ADD COLUMN batch_booking boolean NOT NULL DEFAULT true;

-- Refunds after payout (REFUNDED_PAID settlements) a transfer deducted. Like the settlement links:
-- a row is live while its file is, so a recovery is deducted once (partial unique index) and comes
-- back when its file is deleted (rows cascade), becomes UNAVAILABLE (trigger) or its transfer is
-- rejected (the service clears `live`).
CREATE TABLE sepa_transaction_recoveries (
  sepa_transaction_id uuid NOT NULL,
  sepa_file_id uuid NOT NULL,
  settlement_id uuid NOT NULL REFERENCES settlements (id),
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  live boolean NOT NULL DEFAULT true,
  PRIMARY KEY (sepa_transaction_id, settlement_id),
  FOREIGN KEY (sepa_transaction_id, sepa_file_id) REFERENCES sepa_transactions (id, sepa_file_id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX sepa_transaction_recoveries_live_key ON sepa_transaction_recoveries (settlement_id) WHERE live;
CREATE INDEX sepa_transaction_recoveries_file_idx ON sepa_transaction_recoveries (sepa_file_id);

CREATE FUNCTION sepa_file_release_recoveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sepa_transaction_recoveries SET live = false WHERE sepa_file_id = NEW.id AND live;
  RETURN NEW;
END;
$$;
CREATE TRIGGER sepa_file_unavailable_recoveries AFTER UPDATE OF status ON sepa_files
  FOR EACH ROW WHEN (NEW.status = 'UNAVAILABLE' AND OLD.status <> 'UNAVAILABLE')
  EXECUTE FUNCTION sepa_file_release_recoveries();

-- The recoveries still owed are read per doctor: REFUNDED_PAID settlements by professional.
CREATE INDEX settlements_refunded_paid_idx ON settlements (professional_id) WHERE status = 'REFUNDED_PAID';
-- "Settlements to process": SETTLED ones of a month, by doctor.
CREATE INDEX settlements_settled_month_idx ON settlements (reference_month, professional_id) WHERE status = 'SETTLED';

-- The bank's answers, each applied once: the same bytes, or the same report MsgId for one file, again
-- changes nothing.
CREATE TABLE sepa_status_reports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  sepa_file_id uuid NOT NULL REFERENCES sepa_files (id) ON DELETE CASCADE,
  sha256 text NOT NULL UNIQUE CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  message_id text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('ACCEPTED', 'REJECTED', 'PARTIAL', 'PENDING')),
  file_status_before text NOT NULL,
  file_status_after text NOT NULL,
  result jsonb NOT NULL,
  uploaded_by uuid REFERENCES users (id),
  received_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (sepa_file_id, message_id)
);

-- A doctor's payouts are blocked after the bank rejected a transfer to their IBAN. The block holds
-- while the doctor's IBAN (normalised) is still `blocked_iban`: a new IBAN lifts it without anyone
-- having to remember to (decision 0070).
CREATE TABLE payout_blocks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  professional_id uuid NOT NULL REFERENCES users (id),
  blocked_iban text NOT NULL,
  reason_code text,
  reason_text text,
  sepa_transaction_id uuid REFERENCES sepa_transactions (id) ON DELETE SET NULL,
  sepa_status_report_id uuid REFERENCES sepa_status_reports (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payout_blocks_professional_idx ON payout_blocks (professional_id, created_at DESC);
