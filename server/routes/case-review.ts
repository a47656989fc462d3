import { z } from 'zod';
import { ApiError, errorBodySchema } from '../http/errors';
import type { RouteRegistry } from '../http/routes';
import { caseNotFound } from '../services/cases';
import { findCaseReview } from '../services/cases-review';

export function registerCaseReviewRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/case/review',
    summary: "The customer's review of a case (administrators: any case; others: their own cases)",
    tags: ['cases'],
    // Outside /v2/admin/ as the specification has it, so not admin-only; never anonymous (decision 0047).
    auth: 'session',
    query: z.object({ caseId: z.string().min(1) }),
    responses: {
      200: {
        description: 'The review',
        schema: z.object({
          caseId: z.uuid(),
          rating: z.number().int().min(1).max(5),
          comment: z.string().nullable(),
          createdAt: z.iso.datetime(),
        }),
      },
      404: {
        description:
          'No such case, or not one of yours (`CASE_NOT_FOUND`); no review yet (`REVIEW_NOT_FOUND`)',
        schema: errorBodySchema,
      },
    },
    async handler(c, { query }) {
      const found = await findCaseReview(c.var.deps.db, query.caseId, c.var.session);
      if (found.kind === 'no-case') throw caseNotFound();
      if (found.kind === 'no-review') throw new ApiError(404, 'REVIEW_NOT_FOUND');
      return c.json(found.review);
    },
  });
}
