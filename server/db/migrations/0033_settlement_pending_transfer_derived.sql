-- PENDING_TRANSFER is no longer written on settlements: a settlement is PENDING_TRANSFER while it is
-- stored SETTLED and has a live SEPA link (docs/decisions/0119). Claiming 100,000 settlements for one
-- file then writes only their links, not 100,000 settlement rows and their index entries (3.7–4.1 s
-- of the generation, decision 0111). `settlements.status` is the *stored* status; what the API
-- answers comes from server/finance/settlement-status-sql.ts, and `settlement_statuses` below says the
-- same for tests and ad-hoc SQL.

-- Refuse to convert a database whose stored statuses and live links disagree, rather than decide for
-- the operator what such a row was: (a) PENDING_TRANSFER in no live file would come out SETTLED, payable
-- again; (b) SETTLED or PENDING_TRANSFER with a live link in a PAID or UNAVAILABLE file (an earlier
-- return's undo could leave one) would come out PENDING_TRANSFER in a file that is over. The fix-up for
-- each is in docs/decisions/0119; the migration then runs again.
DO $$
DECLARE unlinked bigint; over bigint;
BEGIN
  SELECT count(*) INTO unlinked FROM settlements s
   WHERE s.status = 'PENDING_TRANSFER'
     AND NOT EXISTS (SELECT 1 FROM sepa_transaction_settlements l WHERE l.settlement_id = s.id AND l.live);
  SELECT count(*) INTO over FROM settlements s
    JOIN sepa_transaction_settlements l ON l.settlement_id = s.id AND l.live
    JOIN sepa_files f ON f.id = l.sepa_file_id
   WHERE s.status IN ('SETTLED', 'PENDING_TRANSFER') AND f.status NOT IN ('GENERATED', 'AVAILABLE');
  IF unlinked > 0 OR over > 0 THEN
    RAISE EXCEPTION 'migration 0033: % PENDING_TRANSFER settlement(s) in no live SEPA file, % SETTLED/PENDING_TRANSFER settlement(s) live in a PAID or UNAVAILABLE file (see docs/decisions/0119)', unlinked, over;
  END IF;
END $$;

UPDATE settlements SET status = 'SETTLED' WHERE status = 'PENDING_TRANSFER';

ALTER TABLE settlements DROP CONSTRAINT settlements_status_check;
ALTER TABLE settlements ADD CONSTRAINT settlements_status_check CHECK (status IN (
  'READY_TO_SETTLE', 'AVAILABLE', 'SETTLED', 'PAID', 'REFUNDED', 'REFUNDED_PAID'
));
COMMENT ON COLUMN settlements.status IS
  'Stored status. PENDING_TRANSFER is derived: SETTLED with a live SEPA link (view settlement_statuses, decision 0119).';

-- The dashboard's per-month counts are kept by stored status (migration 0020's triggers); its readers
-- sum SETTLED and PENDING_TRANSFER alike, so nothing reads the split. The rows the UPDATE emptied go.
DELETE FROM dashboard_settlement_months WHERE status = 'PENDING_TRANSFER';

CREATE VIEW settlement_statuses AS
SELECT s.id,
       CASE WHEN s.status = 'SETTLED' AND lv.settlement_id IS NOT NULL THEN 'PENDING_TRANSFER' ELSE s.status END AS status
  FROM settlements s
  LEFT JOIN sepa_transaction_settlements lv
         ON lv.settlement_id = s.id AND (CASE WHEN lv.live THEN true END) = true;
