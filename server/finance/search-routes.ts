import { financeSearchSchema, moneySearchQuerySchema } from '../../contract/money-search';
import type { RouteRegistry } from '../http/routes';
import { searchFinance } from './money-search';

/** The palette's search of SEPA files, transfers and doctors' settlements (decision 0131). */
export function registerFinanceSearchRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/admin/search/finance',
    summary: 'SEPA files by MsgId, transfers by EndToEndId, doctors with settlements by name (the palette)',
    tags: ['finance'],
    auth: 'admin',
    query: moneySearchQuerySchema,
    responses: {
      200: { description: 'A few records per kind, exact identifiers first', schema: financeSearchSchema },
    },
    async handler(c, { query }) {
      return c.json(await searchFinance(c.var.deps.db, query));
    },
  });
}
