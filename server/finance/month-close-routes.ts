import {
  monthCloseQuerySchema,
  monthCloseSchema,
  providerDocumentListQuerySchema,
  providerDocumentPageSchema,
} from '../../contract/month-close';
import type { RouteRegistry } from '../http/routes';
import { readMonthClose } from './month-close';
import { listProviderDocuments } from './provider-documents';

/** The month closed in one view and the provider's documents it summarises (decision 0155). */
export function registerMonthCloseRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/admin/finance/month-close',
    summary:
      'The month closed in one view: bank lines, payouts, invoices, settlements and SEPA files, each counted and summed matched and unmatched',
    tags: ['finance'],
    auth: 'admin',
    query: monthCloseQuerySchema,
    responses: { 200: { description: 'One row per source', schema: monthCloseSchema } },
    async handler(c, { query }) {
      return c.json(await readMonthClose(c.var.deps.db, query.month));
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/admin/finance/provider-documents',
    summary:
      "The payment provider's payouts or the invoicing program's invoices, newest first, by month and matched or not",
    tags: ['finance'],
    auth: 'admin',
    query: providerDocumentListQuerySchema,
    responses: {
      200: {
        description: 'One page; pass `nextCursor` back as `cursor` with the same filters',
        schema: providerDocumentPageSchema,
      },
    },
    async handler(c, { query }) {
      return c.json(await listProviderDocuments(c.var.deps.db, query));
    },
  });
}
