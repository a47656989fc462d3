import { type CaseStatus, caseTransitionRefusal, nextCaseStatus } from '../../domain/case-status';
import type { Database } from '../db/client';
import { type Actor, mutation } from '../platform/mutation';
import { refuse } from '../platform/refusal';
import { isUuid } from './ids';
import { type CaseItem, caseNotFound, findCase } from './list';

interface LockedCase {
  status: CaseStatus;
  closed: boolean;
  end_date: Date | null;
  closed_at: Date | null;
}

const snapshot = (row: LockedCase) => ({
  status: row.status,
  closed: row.closed,
  endDate: row.end_date?.toISOString() ?? null,
  closedAt: row.closed_at?.toISOString() ?? null,
});

/**
 * An admin closes an open case. The row is locked before the table is consulted, so of two
 * concurrent closes the second sees the first's CLOSED_BY_ADMIN and is refused.
 */
export async function closeCaseByAdmin(db: Database, actor: Actor, caseId: string): Promise<CaseItem> {
  if (!isUuid(caseId)) throw caseNotFound();
  await mutation(db, actor, { action: 'case.close', entityType: 'case' }, async (tx) => {
    const { rows } = await tx.query<LockedCase>(
      'SELECT status, closed, end_date, closed_at FROM cases WHERE id = $1 FOR UPDATE',
      [caseId],
    );
    const before = rows[0];
    if (!before) throw caseNotFound();
    const refusal = caseTransitionRefusal(before.status, 'ADMIN_CLOSE');
    if (refusal) throw refuse(refusal);
    const after = await tx.query<LockedCase>(
      // end_date never precedes start_date (a schema check), even for a case that starts later
      `UPDATE cases
          SET status = $2, closed_at = $3, end_date = greatest($3::timestamptz, start_date), updated_at = $3
        WHERE id = $1 AND status = $4
        RETURNING status, closed, end_date, closed_at`,
      [caseId, nextCaseStatus(before.status, 'ADMIN_CLOSE'), actor.at, before.status],
    );
    return { result: undefined, entityId: caseId, before: snapshot(before), after: snapshot(after.rows[0]!) };
  });
  const closed = await findCase(db, caseId);
  if (!closed) throw caseNotFound();
  return closed;
}
