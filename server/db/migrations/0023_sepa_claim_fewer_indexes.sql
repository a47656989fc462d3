-- A SEPA file's claim at 100,000 settlements (docs/decisions/0089): one index entry fewer per
-- settlement status move.
--
-- A status move is never a HOT update (`status` is in the indexes every read filters on), so each
-- moved settlement writes an entry in every index on the table. The payable-amount index was the
-- dearest of them — its new entries land beside the old ones, spread over the whole index — at
-- 45 % of the claim's UPDATE (measured at a million settlements, rolled back: 8.5 s → 4.7 s). It
-- served only the settlement list sorted by amount with no other filter; that sort now reads the
-- table (~0.1–0.4 s at a million rows), and the amount-range filter reads the list's other indexes.
DROP INDEX settlements_payable_idx;
