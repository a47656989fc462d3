import { auditListQuerySchema, auditLogPageSchema } from '../../contract/audit';
import type { RouteRegistry } from '../http/routes';
import { listAuditLog } from './audit-log';

/** The audit log as a list: every admin action, who, when, before → after. */
export function registerAuditRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/admin/audit',
    summary: 'The audit log, newest first (filters: actor, action, entity, date range; keyset pages)',
    tags: ['audit'],
    auth: 'admin',
    query: auditListQuerySchema,
    responses: {
      200: {
        description: 'One page of audit rows; pass `nextCursor` back as `cursor` with the same filters',
        schema: auditLogPageSchema,
      },
    },
    async handler(c, { query }) {
      return c.json(await listAuditLog(c.var.deps.db, query));
    },
  });
}
