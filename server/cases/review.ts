import type { z } from 'zod';
import type { caseReviewSchema } from '../../contract/cases';
import type { Queryable } from '../db/client';
import type { SessionUser } from '../platform/sessions';
import { isUuid } from './ids';

export type CaseReview = z.infer<typeof caseReviewSchema>;

export type ReviewLookup =
  | { kind: 'no-case' }
  | { kind: 'no-review' }
  | { kind: 'found'; review: CaseReview };

/**
 * Administrators read any case's review; anyone else only a review of a case they are part of, and
 * a case they are not part of looks exactly like one that does not exist.
 */
export async function findCaseReview(
  db: Queryable,
  caseId: string,
  viewer: SessionUser,
): Promise<ReviewLookup> {
  if (!isUuid(caseId)) return { kind: 'no-case' };
  const { rows } = await db.query<{
    customer_id: string;
    professional_id: string;
    rating: number | null;
    comment: string | null;
    created_at: Date | null;
  }>(
    `SELECT c.customer_id, c.professional_id, r.rating, r.comment, r.created_at
       FROM cases c LEFT JOIN case_reviews r ON r.case_id = c.id
      WHERE c.id = $1`,
    [caseId],
  );
  const row = rows[0];
  if (!row) return { kind: 'no-case' };
  if (!viewer.isAdmin && viewer.userId !== row.customer_id && viewer.userId !== row.professional_id)
    return { kind: 'no-case' };
  if (row.rating === null || row.created_at === null) return { kind: 'no-review' };
  return {
    kind: 'found',
    review: { caseId, rating: row.rating, comment: row.comment, createdAt: row.created_at.toISOString() },
  };
}
