import type { SettlementStatus } from '../../domain/settlement-status';
import { oneOf, type SqlParams } from '../db/list';

/**
 * PENDING_TRANSFER is not stored (docs/decisions/0119): a settlement is PENDING_TRANSFER while it is
 * stored SETTLED and has a live SEPA link. Every server read of a settlement's status goes through
 * this module, so the rule lives in one place (`tests/unit/server/settlement-status-sql.test.ts` keeps it so).
 */

/**
 * Each settlement `s` with its live SEPA link as `lv`, at most one: the unique
 * `(settlement_id, CASE WHEN live THEN true END)` key. The CASE is spelled as in the index so both of
 * its columns are index conditions (`AND lv.live` would be a heap filter: 566 → 817 ms on 100,000).
 */
export const LIVE_LINK_JOIN = `LEFT JOIN sepa_transaction_settlements lv
      ON lv.settlement_id = s.id AND (CASE WHEN lv.live THEN true END) = true`;

/** `s` has a live SEPA link (as a predicate, where no join is wanted). */
export const HAS_LIVE_LINK = `EXISTS (SELECT 1 FROM sepa_transaction_settlements lv
                  WHERE lv.settlement_id = s.id AND (CASE WHEN lv.live THEN true END) = true)`;

/**
 * A unique `(settlement_id, CASE WHEN live THEN true END)` key refused a second live link: another
 * transaction put the settlement in a file (or deducted the recovery) meanwhile — a claim and a
 * return's undo lock settlements only FOR KEY SHARE, which they share. The caller's refusal, not a 500.
 */
export const isSecondLiveLink = (error: unknown): boolean => {
  const failure = error as { code?: unknown; constraint?: unknown } | null;
  return (
    failure?.code === '23505' &&
    (failure.constraint === 'sepa_transaction_settlements_settlement_key' ||
      failure.constraint === 'sepa_transaction_recoveries_settlement_key')
  );
};

/** The status the API answers for `s` joined by LIVE_LINK_JOIN. */
export const SHOWN_STATUS = `CASE WHEN s.status = 'SETTLED' AND lv.settlement_id IS NOT NULL THEN 'PENDING_TRANSFER' ELSE s.status END`;

/** What a settlement's stored status column holds for a settlement shown in `status`. */
export const storedStatus = (status: SettlementStatus): Exclude<SettlementStatus, 'PENDING_TRANSFER'> =>
  status === 'PENDING_TRANSFER' ? 'SETTLED' : status;

/** The status shown of a row stored in `stored`, with or without a live SEPA link. */
export const shownStatus = (stored: SettlementStatus, liveLink: boolean): SettlementStatus =>
  stored === 'SETTLED' && liveLink ? 'PENDING_TRANSFER' : stored;

/**
 * `s` shown in one of `statuses`. The stored status stays a plain column test so the status indexes
 * still serve it; only SETTLED rows are told apart, by whether a live link exists — as `EXISTS`, so
 * the list's count and its planner estimate need no join (a LEFT JOIN here is not removed, and
 * inflates the estimate), and a filter on SETTLED or PENDING_TRANSFER alone becomes an anti or semi join.
 */
export function statusFilter(params: SqlParams, statuses: readonly SettlementStatus[]): string[] {
  const stored = [...new Set(statuses.map(storedStatus))];
  const where = oneOf(params, 's.status', stored);
  const pending = statuses.includes('PENDING_TRANSFER');
  if (pending === statuses.includes('SETTLED')) return where;
  const link = pending ? HAS_LIVE_LINK : `NOT ${HAS_LIVE_LINK}`;
  where.push(stored.length === 1 ? link : `(s.status <> 'SETTLED' OR ${link})`);
  return where;
}
