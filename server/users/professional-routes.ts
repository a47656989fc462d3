import { COUNTED_PROFESSIONAL_STATUSES } from '../../contract/statuses';
import { statusCountsSchema } from '../../contract/users';
import type { RouteRegistry } from '../http/routes';
import { countProfessionalsByStatus } from './professionals';

export function registerProfessionalRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/admin/professionals/status/count',
    summary: 'Professionals awaiting verification and disabled professionals (sidebar badges)',
    tags: ['professionals'],
    auth: 'admin',
    responses: { 200: { description: 'Counts by status', schema: statusCountsSchema } },
    async handler(c) {
      return c.json(await countProfessionalsByStatus(c.var.deps.db, COUNTED_PROFESSIONAL_STATUSES));
    },
  });
}
