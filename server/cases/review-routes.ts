import { caseReviewQuerySchema, caseReviewSchema } from '../../contract/cases';
import { errorBodySchema } from '../../contract/common';
import type { RouteRegistry } from '../http/routes';
import { refuse } from '../platform/refusal';
import { caseNotFound } from './list';
import { findCaseReview } from './review';

export function registerCaseReviewRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/case/review',
    summary: "The customer's review of a case (administrators: any case; others: their own cases)",
    tags: ['cases'],
    // Outside /v2/admin/ as the specification has it, so not admin-only; never anonymous (decision 0047).
    auth: 'session',
    query: caseReviewQuerySchema,
    responses: {
      200: { description: 'The review', schema: caseReviewSchema },
      404: {
        description:
          'No such case, or not one of yours (`CASE_NOT_FOUND`); no review yet (`REVIEW_NOT_FOUND`)',
        schema: errorBodySchema,
      },
    },
    async handler(c, { query }) {
      const found = await findCaseReview(c.var.deps.db, query.caseId, c.var.session);
      if (found.kind === 'no-case') throw caseNotFound();
      if (found.kind === 'no-review') throw refuse('REVIEW_NOT_FOUND');
      return c.json(found.review);
    },
  });
}
