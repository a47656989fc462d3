-- Matching and reconciliation of bank statement lines (issue 12, decisions 0093 and 0094).
--
-- A line is linked to its counterparts through statement_line_matches instead of one matched_*
-- column per kind: one line may pay several counterparts, and several lines one counterpart (a payout
-- split across two credits). What the database keeps true:
--   * a SEPA file or transfer is paid by at most one bank debit and returned by at most one line;
--   * the parts of a payout or an invoice matched by lines never add up to more than its amount;
--   * a line SUGGESTED or MATCHED has at least one link.

ALTER TABLE statement_files
  ADD COLUMN file_name text NOT NULL DEFAULT '' CHECK (char_length(file_name) <= 255),
  ADD COLUMN reconciled_at timestamptz,
  ADD COLUMN reconciled_by uuid REFERENCES users (id),
  ADD CONSTRAINT statement_files_reconciled_check CHECK (reconciled_by IS NULL OR reconciled_at IS NOT NULL);
UPDATE statement_files s SET file_name = f.original_name FROM stored_files f WHERE f.id = s.file_id;
CREATE INDEX statement_files_imported_desc_idx ON statement_files (imported_at DESC, id DESC);

-- Who did what to which lines, so an action can be undone while its lines are as it left them.
CREATE TABLE statement_actions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('ACCEPT', 'MATCH', 'IGNORE', 'UNMATCH', 'NOTE', 'BULK_ACCEPT', 'UNDO', 'IMPORT')),
  actor_id uuid REFERENCES users (id),
  -- per line: its state before and the updated_at the action left it with
  lines jsonb NOT NULL,
  undoes uuid REFERENCES statement_actions (id),
  undone_by uuid REFERENCES statement_actions (id),
  created_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE statement_lines
  ADD COLUMN difference_cents bigint,
  ADD COLUMN last_action_id uuid REFERENCES statement_actions (id) ON DELETE SET NULL;

CREATE TABLE statement_line_matches (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  statement_line_id uuid NOT NULL REFERENCES statement_lines (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('SEPA_FILE', 'SEPA_TRANSFER', 'PAYOUT', 'INVOICE')),
  sepa_file_id uuid REFERENCES sepa_files (id) ON DELETE CASCADE,
  sepa_transaction_id uuid REFERENCES sepa_transactions (id) ON DELETE CASCADE,
  payout_id uuid REFERENCES provider_payouts (id) ON DELETE CASCADE,
  invoice_id uuid REFERENCES provider_invoices (id) ON DELETE CASCADE,
  -- PAYMENT: the line pays or collects the counterpart; RETURN: the bank gives a transfer's money back
  role text NOT NULL DEFAULT 'PAYMENT' CHECK (role IN ('PAYMENT', 'RETURN')),
  -- SUGGESTED links are the matcher's proposal: they take nothing until accepted
  state text NOT NULL CHECK (state IN ('SUGGESTED', 'MATCHED')),
  -- the part of the counterpart's amount this line covers, positive
  allocated_cents bigint NOT NULL CHECK (allocated_cents > 0),
  score real CHECK (score IS NULL OR score BETWEEN 0 AND 1),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (num_nonnulls(sepa_file_id, sepa_transaction_id, payout_id, invoice_id) = 1),
  CHECK ((kind = 'SEPA_FILE') = (sepa_file_id IS NOT NULL)),
  CHECK ((kind = 'SEPA_TRANSFER') = (sepa_transaction_id IS NOT NULL)),
  CHECK ((kind = 'PAYOUT') = (payout_id IS NOT NULL)),
  CHECK ((kind = 'INVOICE') = (invoice_id IS NOT NULL)),
  CHECK (role = 'PAYMENT' OR kind = 'SEPA_TRANSFER')
);
CREATE INDEX statement_line_matches_line_idx ON statement_line_matches (statement_line_id);
CREATE UNIQUE INDEX statement_line_matches_line_counterpart_key
  ON statement_line_matches (statement_line_id, kind, coalesce(sepa_file_id, sepa_transaction_id, payout_id, invoice_id), role);
CREATE UNIQUE INDEX statement_line_matches_sepa_file_key ON statement_line_matches (sepa_file_id)
  WHERE state = 'MATCHED' AND sepa_file_id IS NOT NULL;
CREATE UNIQUE INDEX statement_line_matches_sepa_tx_key ON statement_line_matches (sepa_transaction_id, role)
  WHERE state = 'MATCHED' AND sepa_transaction_id IS NOT NULL;
CREATE INDEX statement_line_matches_payout_idx ON statement_line_matches (payout_id) WHERE payout_id IS NOT NULL;
CREATE INDEX statement_line_matches_invoice_idx ON statement_line_matches (invoice_id) WHERE invoice_id IS NOT NULL;

-- The matched parts of a payout or invoice never exceed its amount. The counterpart's row is locked
-- first, so two transactions matching the same payout take turns and the second sees the first's parts.
CREATE FUNCTION statement_match_within_amount() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
  matched bigint;
BEGIN
  IF NEW.state <> 'MATCHED' THEN
    RETURN NEW;
  END IF;
  IF NEW.payout_id IS NOT NULL THEN
    SELECT abs(amount_cents) INTO total FROM provider_payouts WHERE id = NEW.payout_id FOR UPDATE;
    SELECT coalesce(sum(allocated_cents), 0) INTO matched FROM statement_line_matches
     WHERE payout_id = NEW.payout_id AND state = 'MATCHED';
  ELSIF NEW.invoice_id IS NOT NULL THEN
    SELECT abs(amount_cents) INTO total FROM provider_invoices WHERE id = NEW.invoice_id FOR UPDATE;
    SELECT coalesce(sum(allocated_cents), 0) INTO matched FROM statement_line_matches
     WHERE invoice_id = NEW.invoice_id AND state = 'MATCHED';
  ELSIF NEW.sepa_transaction_id IS NOT NULL THEN
    SELECT amount_cents INTO total FROM sepa_transactions WHERE id = NEW.sepa_transaction_id;
    matched := NEW.allocated_cents;
  ELSE
    SELECT amount_cents INTO total FROM sepa_files WHERE id = NEW.sepa_file_id;
    matched := NEW.allocated_cents;
  END IF;
  IF matched > total THEN
    RAISE EXCEPTION 'statement match over the counterpart''s amount (% > %)', matched, total
      USING ERRCODE = 'check_violation', CONSTRAINT = 'statement_line_matches_within_amount';
  END IF;
  RETURN NEW;
END;
$$;
CREATE CONSTRAINT TRIGGER statement_line_matches_within_amount
  AFTER INSERT OR UPDATE ON statement_line_matches
  FOR EACH ROW EXECUTE FUNCTION statement_match_within_amount();

-- The links of the lines matched before this migration (seed, issue 11's data): one each.
INSERT INTO statement_line_matches (statement_line_id, kind, sepa_file_id, sepa_transaction_id, payout_id,
                                    invoice_id, role, state, allocated_cents)
SELECT l.id,
       CASE WHEN l.matched_sepa_file_id IS NOT NULL THEN 'SEPA_FILE'
            WHEN l.matched_sepa_transaction_id IS NOT NULL THEN 'SEPA_TRANSFER'
            WHEN l.matched_payout_id IS NOT NULL THEN 'PAYOUT' ELSE 'INVOICE' END,
       l.matched_sepa_file_id,
       CASE WHEN l.matched_sepa_file_id IS NULL THEN l.matched_sepa_transaction_id END,
       CASE WHEN l.matched_sepa_file_id IS NULL AND l.matched_sepa_transaction_id IS NULL THEN l.matched_payout_id END,
       CASE WHEN num_nonnulls(l.matched_sepa_file_id, l.matched_sepa_transaction_id, l.matched_payout_id) = 0
            THEN l.matched_invoice_id END,
       CASE WHEN l.kind = 'return' AND l.matched_sepa_transaction_id IS NOT NULL THEN 'RETURN' ELSE 'PAYMENT' END,
       CASE WHEN l.status = 'SUGGESTED' THEN 'SUGGESTED' ELSE 'MATCHED' END,
       greatest(abs(l.bank_amount_cents), 1)
  FROM statement_lines l
 WHERE num_nonnulls(l.matched_sepa_file_id, l.matched_sepa_transaction_id, l.matched_payout_id, l.matched_invoice_id) > 0;

ALTER TABLE statement_lines
  DROP CONSTRAINT IF EXISTS statement_lines_check,
  DROP COLUMN matched_sepa_file_id,
  DROP COLUMN matched_sepa_transaction_id,
  DROP COLUMN matched_payout_id,
  DROP COLUMN matched_invoice_id;

-- A SUGGESTED or MATCHED line has a link: checked at commit, when the line and its links are written.
CREATE FUNCTION statement_line_has_link() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN ('SUGGESTED', 'MATCHED')
     AND NOT EXISTS (SELECT 1 FROM statement_line_matches m WHERE m.statement_line_id = NEW.id) THEN
    RAISE EXCEPTION 'statement line % is % without a counterpart', NEW.id, NEW.status
      USING ERRCODE = 'check_violation', CONSTRAINT = 'statement_lines_linked';
  END IF;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER statement_lines_linked
  AFTER INSERT OR UPDATE OF status ON statement_lines DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.status IN ('SUGGESTED', 'MATCHED'))
  EXECUTE FUNCTION statement_line_has_link();

-- The reconciliation table filters by file, status, kind, date and amount, newest or oldest first.
CREATE INDEX statement_lines_file_date_idx ON statement_lines (statement_file_id, bank_date, id);
CREATE INDEX statement_lines_file_status_date_idx ON statement_lines (statement_file_id, status, bank_date, id);
CREATE INDEX statement_lines_kind_date_idx ON statement_lines (kind, bank_date, id);
CREATE INDEX statement_lines_amount_idx ON statement_lines (bank_amount_cents, bank_date, id);
-- counterparty: a prefix of the name (case ignored) or of the IBAN; btree, PGlite has no pg_trgm
CREATE INDEX statement_lines_counterparty_name_idx ON statement_lines (lower(counterparty_name) text_pattern_ops);
CREATE INDEX statement_lines_counterparty_iban_idx ON statement_lines (counterparty_iban text_pattern_ops);

-- A transfer the bank returned (a statement line of kind 'return'): REJECTED like one a pain.002
-- rejected, with the line that says so; the doctor's block names the line.
ALTER TABLE sepa_transactions
  ADD COLUMN returned_by_statement_line_id uuid REFERENCES statement_lines (id) ON DELETE SET NULL;
ALTER TABLE payout_blocks
  ADD COLUMN statement_line_id uuid REFERENCES statement_lines (id) ON DELETE CASCADE;

-- What a match changed beyond the line (a SEPA file PAID, a transfer returned), so unmatching puts
-- back exactly that. `undone_at` set: reversed.
CREATE TABLE statement_effects (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('SEPA_FILE_PAID', 'TRANSFER_RETURNED')),
  statement_line_id uuid REFERENCES statement_lines (id) ON DELETE SET NULL,
  sepa_file_id uuid NOT NULL REFERENCES sepa_files (id) ON DELETE CASCADE,
  sepa_transaction_id uuid REFERENCES sepa_transactions (id) ON DELETE CASCADE,
  before jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  undone_at timestamptz
);
CREATE UNIQUE INDEX statement_effects_file_paid_key ON statement_effects (sepa_file_id)
  WHERE kind = 'SEPA_FILE_PAID' AND undone_at IS NULL;
CREATE UNIQUE INDEX statement_effects_returned_key ON statement_effects (sepa_transaction_id)
  WHERE kind = 'TRANSFER_RETURNED' AND undone_at IS NULL;
CREATE INDEX statement_effects_line_idx ON statement_effects (statement_line_id);

-- Everything a statement line can be matched to, in one shape: the amount positive with the
-- direction the bank books it (-1 money leaving: SEPA payouts, invoices paid; +1 arriving: payouts of
-- the payment provider; their amounts are positive). Predicates on kind, amount and date reach each branch's own indexes.
CREATE VIEW statement_counterparts AS
SELECT 'SEPA_FILE'::text AS kind, f.id, f.msg_id AS label, f.amount_cents, -1 AS direction,
       f.execution_date AS date, NULL::text AS counterparty_name, NULL::text AS counterparty_iban,
       f.payment_info_id AS reference, f.id AS sepa_file_id, f.status
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
CREATE INDEX sepa_files_amount_idx ON sepa_files (amount_cents, execution_date);
CREATE INDEX sepa_transactions_amount_idx ON sepa_transactions (amount_cents);
