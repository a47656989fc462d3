-- The settlements list filtered by a reference month (the month close's "paid, never invoiced" list, the
-- finance screens' month filter) had no index giving a month's rows in the list's orders: sorted by
-- creation it walked settlements_created_idx backwards and threw away every other month's row (at
-- 1,000,000 settlements, ten months: 900,000 rows skipped, 1,041 ms cold, 213 ms p50 warm); sorted by the
-- amount payable it read the month's 100,000 rows and sorted them (150 ms). Each index below serves the
-- keyset of one sort under a month filter (0.2 ms for the first page). The SEPA claim no longer updates
-- settlements (PENDING_TRANSFER is derived from the live links, migration 0033), so the indexes cost only
-- a settlement's insert and an adjustment. Measured in bench/results/month-close.md (decision 0155).
CREATE INDEX settlements_month_created_idx ON settlements (reference_month, created_at, id);
CREATE INDEX settlements_month_payable_idx ON settlements (reference_month, (coalesce(adjusted_cents, net_cents)), id);
