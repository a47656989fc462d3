import type { Queryable } from '../db/client';
import { SqlParams } from '../db/list';

/**
 * What a filtered bulk action (decisions 0147, 0161) confirms is the filter as counted at `asOf`; a line
 * the filter listed then and an action changed since is left as it is and counted, never acted on in a
 * state the admin did not confirm. Which lines those are is read from `statement_actions.lines` (each
 * action keeps every line's state before it, for its undo).
 */

/** The count's figures are this old at most; older, the admin counts again. */
export const FILTER_COUNT_FRESH_MS = 15 * 60 * 1000;
/** Instances' clocks may differ this much (a count by one instance, the action by another). */
const CLOCK_SKEW_MS = 60 * 1000;

/** A count older than the fresh window, or from a clock too far ahead, is not what the admin confirms. */
export const countIsStale = (at: Date, asOf: Date) => {
  const age = at.getTime() - asOf.getTime();
  return age > FILTER_COUNT_FRESH_MS || age < -CLOCK_SKEW_MS;
};

/**
 * Lines the filter listed at `asOf`, other than `taken` (those being acted on), that an action changed
 * since: each line's state before its first action at or after `asOf` satisfied `wasListed` (SQL over
 * `c.before`, the state as `jsonb`), and it satisfies `listedNow` (SQL over `statement_lines l`: the filter's
 * facts). An action in the count's very millisecond counts as since: a change the count may not have seen
 * is never acted on unconfirmed. Actions are scanned from `asOf` (no index on `created_at`: a count is
 * minutes old at most).
 */
export async function changedSince(
  tx: Queryable,
  asOf: Date,
  taken: readonly string[],
  wasListed: (params: SqlParams) => string,
  listedNow: (params: SqlParams) => readonly string[],
): Promise<number> {
  const params = new SqlParams();
  const after = params.add(asOf);
  const where = [wasListed(params), ...listedNow(params), `NOT (l.id = ANY(${params.add(taken)}::uuid[]))`];
  const { rows } = await tx.query<{ count: number }>(
    `WITH first_change AS (
       SELECT DISTINCT ON (e."lineId") e."lineId" AS line_id, e.before
         FROM statement_actions a
         CROSS JOIN LATERAL jsonb_to_recordset(a.lines) AS e("lineId" uuid, before jsonb)
        WHERE a.created_at >= ${after}::timestamptz
        ORDER BY e."lineId", a.created_at, a.id)
     SELECT count(*)::int AS count
       FROM first_change c JOIN statement_lines l ON l.id = c.line_id
      WHERE ${where.join(' AND ')}`,
    params.values,
  );
  return rows[0]!.count;
}
