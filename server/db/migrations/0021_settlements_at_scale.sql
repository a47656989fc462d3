-- Settlements at a million rows (docs/decisions/0080): "cases to process" from one index, one index
-- entry fewer per settlement status move, and one audit row per batch move instead of one per settlement.

-- "Cases to process" for a month: the waiting settlements by doctor with the amounts it sums, so the
-- aggregate reads this index alone (an index-only scan) instead of 100,000 scattered table rows.
CREATE INDEX settlements_to_process_idx ON settlements (reference_month, professional_id)
  INCLUDE (case_id, gross_cents, fee_cents, net_cents, adjusted_cents)
  WHERE status IN ('READY_TO_SETTLE', 'AVAILABLE');

-- A subscription payment is still settled once, but only subscription settlements are indexed for it
-- (NULLs never collide): a case settlement's status move — never HOT, `status` is indexed — writes
-- one index entry fewer.
ALTER TABLE settlements DROP CONSTRAINT settlements_subscription_payment_id_key;
CREATE UNIQUE INDEX settlements_subscription_payment_key ON settlements (subscription_payment_id)
  WHERE subscription_payment_id IS NOT NULL;

-- The other entities one audit row is about. A SEPA file moves up to 100,000 settlements at once: one
-- audit row (on the file) records the move, and each settlement it moved is named here, in the same
-- statement, so the settlement's own history (the audit list by entity) still shows it. Append-only
-- like the log; no foreign key to audit_log, whose rows are never deleted (a key would cost a check per
-- row, the price this table exists to avoid).
CREATE TABLE audit_log_entities (
  entity_type text NOT NULL,
  entity_id text NOT NULL,
  audit_id bigint NOT NULL,
  PRIMARY KEY (entity_type, entity_id, audit_id)
);
