import {
  caseIdParamsSchema,
  caseItemSchema,
  caseListQuerySchema,
  casePageSchema,
} from '../../contract/cases';
import { errorBodySchema } from '../../contract/common';
import { actorOf } from '../http/actor';
import type { RouteRegistry } from '../http/routes';
import { closeCaseByAdmin } from './close';
import { listCases } from './list';
import { registerCaseMessageRoutes } from './message-routes';
import { registerCaseReviewRoutes } from './review-routes';

/** The cases area: the list, closing, messages and their files, the review. */
export function registerCasesArea(routes: RouteRegistry): void {
  registerCaseRoutes(routes);
  registerCaseMessageRoutes(routes);
  registerCaseReviewRoutes(routes);
}

function registerCaseRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/admin/cases',
    summary: 'Find cases (filters, search by case id or customer/professional name, keyset pages)',
    tags: ['cases'],
    auth: 'admin',
    query: caseListQuerySchema,
    responses: {
      200: {
        description: 'One page of cases; pass `nextCursor` back as `cursor` with the same sort and filters',
        schema: casePageSchema,
      },
    },
    async handler(c, { query }) {
      return c.json(await listCases(c.var.deps.db, query));
    },
  });

  routes.add({
    method: 'post',
    path: '/v2/admin/cases/:id/close',
    summary: 'Close an open case as an administrator (→ CLOSED_BY_ADMIN)',
    tags: ['cases'],
    auth: 'admin',
    params: caseIdParamsSchema,
    responses: {
      200: { description: 'The case, now closed', schema: caseItemSchema },
      404: { description: 'No such case (`CASE_NOT_FOUND`)', schema: errorBodySchema },
      409: {
        description: 'The case is already closed (`CASE_ALREADY_CLOSED`) or cannot be closed from its status',
        schema: errorBodySchema,
      },
    },
    async handler(c, { params }) {
      return c.json(await closeCaseByAdmin(c.var.deps.db, actorOf(c), params.id));
    },
  });
}
