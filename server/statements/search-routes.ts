import { moneySearchQuerySchema, statementsSearchSchema } from '../../contract/money-search';
import type { RouteRegistry } from '../http/routes';
import { searchStatements } from './money-search';

/** The palette's search of statement files and lines (decision 0131). */
export function registerStatementSearchRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/admin/search/statements',
    summary: 'Statement files by name, statement lines by amount or counterparty (the palette)',
    tags: ['statements'],
    auth: 'admin',
    query: moneySearchQuerySchema,
    responses: {
      200: { description: 'A few records per kind, newest first', schema: statementsSearchSchema },
    },
    async handler(c, { query }) {
      return c.json(await searchStatements(c.var.deps.db, query));
    },
  });
}
