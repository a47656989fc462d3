import {
  professionalSettlementQuerySchema,
  professionalSettlementsSchema,
  settlementListQuerySchema,
  settlementPageSchema,
} from '../../contract/finance';
import { now } from '../http/context';
import type { RouteRegistry } from '../http/routes';
import { releaseDueSettlements } from './ledger';
import { registerMonthCloseRoutes } from './month-close-routes';
import { professionalSettlements } from './professionals';
import { registerReportRoutes } from './report-routes';
import { registerFinanceSearchRoutes } from './search-routes';
import { registerSepaRoutes } from './sepa-routes';
import { registerSettlementRoutes } from './settlement-routes';
import { listSettlements } from './settlements';

/** The finance area: settlements (reads, settling, management, reports) and SEPA payouts. */
export function registerFinanceArea(routes: RouteRegistry): void {
  registerSepaRoutes(routes);
  registerSettlementRoutes(routes);
  registerReportRoutes(routes);
  registerFinanceSearchRoutes(routes);
  registerMonthCloseRoutes(routes);
  routes.add({
    method: 'get',
    path: '/v2/admin/settlement/',
    summary:
      'Find settlements (filters, keyset pages); releases due funds first (READY_TO_SETTLE → AVAILABLE)',
    tags: ['finance'],
    auth: 'admin',
    query: settlementListQuerySchema,
    responses: {
      200: {
        description:
          'One page of settlements; pass `nextCursor` back as `cursor` with the same sort and filters',
        schema: settlementPageSchema,
      },
    },
    async handler(c, { query }) {
      const db = c.var.deps.db;
      await releaseDueSettlements(db, now(c));
      return c.json(await listSettlements(db, query));
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/admin/settlement/professional',
    summary:
      'Cases to process: per doctor and reference month, settlements READY_TO_SETTLE or AVAILABLE, their totals and the missing data',
    tags: ['finance'],
    auth: 'admin',
    query: professionalSettlementQuerySchema,
    responses: {
      200: {
        description:
          'One page of doctor-months (newest month, then name) and the totals of all of them; pass `nextCursor` back as `cursor` with the same filters',
        schema: professionalSettlementsSchema,
      },
    },
    async handler(c, { query }) {
      const db = c.var.deps.db;
      await releaseDueSettlements(db, now(c));
      return c.json(await professionalSettlements(db, query));
    },
  });
}
