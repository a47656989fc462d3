-- Issue 31, decision 0171: Stripe's Balance report of payouts (`payouts.itemized.*`) is imported as a source
-- kind of its own, STRIPE_BALANCE_PAYOUTS. It states each payout's amount, expected arrival date and status,
-- which the itemized reconciliation report does not: a payout is created by whichever file comes first and
-- checked by the second (its rows' net against the stated amount; `amount_checked` once they agree).
ALTER TABLE source_files DROP CONSTRAINT source_files_kind_check;
ALTER TABLE source_files ADD CONSTRAINT source_files_kind_check
  CHECK (kind IN ('STRIPE_PAYOUTS', 'STRIPE_BALANCE_PAYOUTS', 'COLLECTOR_PAYOUTS', 'SAFT_INVOICES'));
ALTER TABLE statement_import_jobs DROP CONSTRAINT statement_import_jobs_kind_check;
ALTER TABLE statement_import_jobs ADD CONSTRAINT statement_import_jobs_kind_check
  CHECK (kind IN ('STATEMENT', 'STRIPE_PAYOUTS', 'STRIPE_BALANCE_PAYOUTS', 'COLLECTOR_PAYOUTS', 'SAFT_INVOICES'));
ALTER TABLE provider_payouts DROP CONSTRAINT provider_payouts_source_check;
ALTER TABLE provider_payouts ADD CONSTRAINT provider_payouts_source_check
  CHECK (source IN ('STRIPE_PAYOUTS', 'STRIPE_BALANCE_PAYOUTS', 'COLLECTOR_PAYOUTS'));

-- What the Balance report states of a payout. `amount_cents` keeps its meaning (what the bank is paid): a
-- payout this report creates gets the stated amount; one created before keeps its own, which the import
-- has checked equal to the stated one when the payout has rows.
ALTER TABLE provider_payouts
  ADD COLUMN stated_amount_cents bigint,
  ADD COLUMN expected_arrival_date date,
  -- Stripe's payout status; `failed` and `canceled` payouts owe no bank credit
  ADD COLUMN provider_status text CHECK (provider_status IN ('paid', 'pending', 'in_transit', 'canceled', 'failed')),
  ADD COLUMN stated_file_id uuid REFERENCES source_files (id),
  ADD CONSTRAINT provider_payouts_stated_check
    CHECK ((stated_file_id IS NULL) = (stated_amount_cents IS NULL)
       AND (stated_file_id IS NULL) = (provider_status IS NULL)
       AND (stated_file_id IS NULL) = (expected_arrival_date IS NULL));
CREATE INDEX provider_payouts_stated_file_idx ON provider_payouts (stated_file_id);
