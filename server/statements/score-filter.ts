import {
  STATEMENT_BULK_ACCEPT_MAX,
  type StatementFilterAcceptResult,
  type SuggestionFilter,
  type SuggestionFilterTotals,
} from '../../contract/reconciliation';
import type { Database, Queryable } from '../db/client';
import { SqlParams } from '../db/list';
import type { IdempotentRequest } from '../platform/idempotency';
import { idempotentMutation } from '../platform/idempotency';
import type { Actor } from '../platform/mutation';
import { refuse } from '../platform/refusal';
import { changedSince, countIsStale } from './changed-since';
import { type LockedLine, lockLines } from './line-state';
import { lineFactFilters, scoreFilter } from './lines';
import { BULK_ACCEPT_AUDIT, planAccepts, runBulkAccept } from './reconcile';

/**
 * "Suggestions with score ≥ x" (issue 32, decision 0147): what the filter selects, counted for the
 * confirmation, and accepted over every page in one request. Between the count and the accept a line may
 * change (someone accepts it, matches its counterpart, its suggestion is replaced): such a line is left
 * as it is and counted, never accepted in a state the admin did not confirm.
 */

/** The locked line still is what the filter selects: SUGGESTED, its suggestion scoring enough. */
const stillSelected = (line: LockedLine, minScore: number) =>
  line.status === 'SUGGESTED' &&
  line.links.some((link) => link.state === 'SUGGESTED' && (link.score ?? 0) >= minScore);

/** The lines the filter selects now, as WHERE clauses over `statement_lines l`. */
function selected(params: SqlParams, filter: SuggestionFilter): string[] {
  return [...lineFactFilters(params, filter), scoreFilter(params, filter.minScore)];
}

/** How many lines the filter selects and their sum, counted now (the confirmation's figures). */
export async function suggestionTotals(
  db: Queryable,
  filter: SuggestionFilter,
  at: Date,
): Promise<SuggestionFilterTotals> {
  const params = new SqlParams();
  const { rows } = await db.query<{ count: number; sum_cents: string | number }>(
    `SELECT count(*)::int AS count, coalesce(sum(l.bank_amount_cents), 0) AS sum_cents
       FROM statement_lines l WHERE ${selected(params, filter).join(' AND ')}`,
    params.values,
  );
  return { count: rows[0]!.count, sumCents: Number(rows[0]!.sum_cents), asOf: at.toISOString() };
}

/** The line's state before a change (`c.before`) had a suggestion scoring at least `minScore`. */
const suggestedBefore = (minScore: number) => (params: SqlParams) =>
  `c.before->>'status' = 'SUGGESTED' AND EXISTS (SELECT 1 FROM jsonb_array_elements(c.before->'links') k
     WHERE k->>'state' = 'SUGGESTED' AND (k->>'score')::real >= ${params.add(minScore)}::real)`;

/**
 * `Shift+a` over the filter: the lines it selects now and that no action changed since `asOf`, at most
 * 10,000 in the list's order (bank date, id), accepted as a bulk accept accepts them (same audit, same
 * undo); the lines selected at `asOf` and changed since are counted in `changedMeanwhile`.
 */
export async function filterAccept(
  db: Database,
  actor: Actor,
  filter: SuggestionFilter,
  asOf: Date,
  idempotency: IdempotentRequest,
): Promise<StatementFilterAcceptResult> {
  if (countIsStale(actor.at, asOf)) throw refuse('STATEMENT_SUGGESTION_COUNT_STALE');
  const done = await idempotentMutation(db, actor, BULK_ACCEPT_AUDIT, idempotency, async (tx) => {
    const params = new SqlParams();
    const where = [...selected(params, filter), `l.updated_at < ${params.add(asOf)}::timestamptz`];
    const { rows } = await tx.query<{ id: string; total: number }>(
      `SELECT l.id, count(*) OVER ()::int AS total FROM statement_lines l
        WHERE ${where.join(' AND ')} ORDER BY l.bank_date, l.id LIMIT ${STATEMENT_BULK_ACCEPT_MAX}`,
      params.values,
    );
    const ids = rows.map((r) => r.id);
    let changedMeanwhile = 0;
    const result = await runBulkAccept(tx, actor, async () => {
      // The ids were read without a lock: one another admin changed before the lock is counted as changed,
      // and so are the lines selected at `asOf` but not among the ids (changed before they were read).
      const locked = [...(await lockLines(tx, ids)).values()];
      const still = locked.filter((line) => stillSelected(line, filter.minScore));
      changedMeanwhile =
        ids.length -
        still.length +
        (await changedSince(tx, asOf, ids, suggestedBefore(filter.minScore), (params) =>
          lineFactFilters(params, filter),
        ));
      return planAccepts(tx, still);
    });
    const accepted = result.lineIds.length;
    const skippedBecause = { ...result.skippedBecause, changedMeanwhile };
    const skipped = Object.values(skippedBecause).reduce((sum, n) => sum + n, 0);
    const remaining = Math.max(0, (rows[0]?.total ?? 0) - ids.length);
    return {
      result: { ...result, accepted, skipped, skippedBecause, remaining },
      entityId: result.lineIds[0] ?? result.actionId,
      after: {
        actionId: result.actionId,
        filter,
        asOf: asOf.toISOString(),
        accepted,
        skipped,
        skippedBecause,
        learnedRules: result.learned.length,
      },
    };
  });
  return {
    action: { id: done.actionId, kind: 'BULK_ACCEPT' },
    accepted: done.accepted,
    skipped: done.skipped,
    skippedBecause: done.skippedBecause,
    remaining: done.remaining,
  };
}
