import {
  type IgnoreFilter,
  STATEMENT_BULK_ACCEPT_MAX,
  type StatementBulkIgnoreResult,
  type SuggestionFilterTotals,
} from '../../contract/reconciliation';
import { STATEMENT_IGNORABLE_STATUSES } from '../../contract/statuses';
import type { Database, Queryable } from '../db/client';
import { oneOf, SqlParams } from '../db/list';
import { type IdempotentRequest, idempotentMutation } from '../platform/idempotency';
import type { Actor } from '../platform/mutation';
import { refuse } from '../platform/refusal';
import { changedSince, countIsStale } from './changed-since';
import { type LineChange, type LockedLine, lockLines } from './line-state';
import { lineFactFilters, noCandidateFilter } from './lines';
import { AUDIT, runAction } from './reconcile';

/**
 * `Shift+i` (issue 32, decision 0161): the lines that have no counterpart — the month's bank fees,
 * chargebacks, a line printed twice — ignored together with one note, over a selection or every line a
 * filter lists, in one transaction: each line's history and the action's audit row written, undone as one
 * (`z`). Only lines still UNMATCHED or SUGGESTED change; the others are left as they are and counted.
 */

const BULK_IGNORE_AUDIT = { action: AUDIT.BULK_IGNORE, entityType: 'statement_line' } as const;

const isIgnorable = (line: LockedLine) =>
  !line.reconciled && (STATEMENT_IGNORABLE_STATUSES as readonly string[]).includes(line.status);

/** Each line IGNORED with the note, its suggestion (if any) dropped as a single ignore drops it. */
const ignoring = (lines: readonly LockedLine[], note: string): LineChange[] =>
  lines.map((line) => ({
    line,
    next: { status: 'IGNORED', matchMethod: null, notes: note, differenceCents: null, links: [] },
  }));

/** The statuses the filter takes lines from: those it names, else both a line can be ignored from. */
const statusesOf = (filter: IgnoreFilter) =>
  filter.status?.length ? filter.status : STATEMENT_IGNORABLE_STATUSES;

/** What the filter says of a line other than its status, as WHERE clauses over `statement_lines l`. */
const factsOf = (params: SqlParams, filter: IgnoreFilter) => [
  ...lineFactFilters(params, filter),
  ...(filter.noCandidate ? [noCandidateFilter()] : []),
];

/** The open lines the filter lists now, as WHERE clauses over `statement_lines l`. */
const listed = (params: SqlParams, filter: IgnoreFilter) => [
  ...factsOf(params, filter),
  ...oneOf(params, 'l.status', statusesOf(filter)),
];

/** How many open lines the filter lists and their sum, counted now (the confirmation's figures). */
export async function ignorableTotals(
  db: Queryable,
  filter: IgnoreFilter,
  at: Date,
): Promise<SuggestionFilterTotals> {
  const params = new SqlParams();
  const { rows } = await db.query<{ count: number; sum_cents: string | number }>(
    `SELECT count(*)::int AS count, coalesce(sum(l.bank_amount_cents), 0) AS sum_cents
       FROM statement_lines l WHERE ${listed(params, filter).join(' AND ')}`,
    params.values,
  );
  return { count: rows[0]!.count, sumCents: Number(rows[0]!.sum_cents), asOf: at.toISOString() };
}

/** The lines locked and those still open ignored with the note, as one action (the selection's and the filter's). */
function ignoreAction(tx: Queryable, actor: Actor, ids: readonly string[], note: string) {
  return runAction(
    tx,
    actor,
    'BULK_IGNORE',
    async () => ignoring([...(await lockLines(tx, ids)).values()].filter(isIgnorable), note),
    // No link is made: nothing to settle from the amounts.
    { settle: false },
  );
}

/** `Shift+i` over a selection: its lines still open ignored; the others (or ids not found) counted. */
export async function bulkIgnore(
  db: Database,
  actor: Actor,
  lineIds: readonly string[],
  note: string,
  idempotency: IdempotentRequest,
): Promise<StatementBulkIgnoreResult> {
  const done = await idempotentMutation(db, actor, BULK_IGNORE_AUDIT, idempotency, async (tx) => {
    const result = await ignoreAction(tx, actor, lineIds, note);
    const ignored = result.lineIds.length;
    const skippedBecause = { notOpen: lineIds.length - ignored, changedMeanwhile: 0 };
    const counts = { ignored, skipped: skippedBecause.notOpen, skippedBecause, remaining: 0 };
    return {
      result: { ...result, ...counts },
      entityId: result.lineIds[0] ?? lineIds[0]!,
      after: { actionId: result.actionId, note, ...counts },
    };
  });
  return answer(done);
}

/**
 * `Shift+i` over a filter: the open lines it lists now and that no action changed since `asOf`, at most
 * 10,000 in the list's order (bank date, id); the lines listed at `asOf` and changed since are counted in
 * `changedMeanwhile`, as a filtered accept counts them (decision 0147).
 */
export async function filterIgnore(
  db: Database,
  actor: Actor,
  filter: IgnoreFilter,
  asOf: Date,
  note: string,
  idempotency: IdempotentRequest,
): Promise<StatementBulkIgnoreResult> {
  if (countIsStale(actor.at, asOf)) throw refuse('STATEMENT_IGNORE_COUNT_STALE');
  const done = await idempotentMutation(db, actor, BULK_IGNORE_AUDIT, idempotency, async (tx) => {
    const params = new SqlParams();
    const where = [...listed(params, filter), `l.updated_at < ${params.add(asOf)}::timestamptz`];
    const { rows } = await tx.query<{ id: string; total: number }>(
      `SELECT l.id, count(*) OVER ()::int AS total FROM statement_lines l
        WHERE ${where.join(' AND ')} ORDER BY l.bank_date, l.id LIMIT ${STATEMENT_BULK_ACCEPT_MAX}`,
      params.values,
    );
    const ids = rows.map((r) => r.id);
    const result = await ignoreAction(tx, actor, ids, note);
    // The ids were read without a lock: one another admin changed before the lock is counted as changed,
    // and so are the lines listed at `asOf` but not among the ids (changed before they were read).
    const changedMeanwhile =
      ids.length -
      result.lineIds.length +
      (await changedSince(
        tx,
        asOf,
        ids,
        (p) => `c.before->>'status' = ANY(${p.add(statusesOf(filter))}::text[])`,
        (p) => factsOf(p, filter),
      ));
    const ignored = result.lineIds.length;
    const skippedBecause = { notOpen: 0, changedMeanwhile };
    const counts = {
      ignored,
      skipped: changedMeanwhile,
      skippedBecause,
      remaining: Math.max(0, (rows[0]?.total ?? 0) - ids.length),
    };
    return {
      result: { ...result, ...counts },
      entityId: result.lineIds[0] ?? result.actionId,
      after: { actionId: result.actionId, filter, asOf: asOf.toISOString(), note, ...counts },
    };
  });
  return answer(done);
}

const answer = (done: Omit<StatementBulkIgnoreResult, 'action'> & { actionId: string }) => ({
  action: { id: done.actionId, kind: 'BULK_IGNORE' as const },
  ignored: done.ignored,
  skipped: done.skipped,
  skippedBecause: done.skippedBecause,
  remaining: done.remaining,
});
