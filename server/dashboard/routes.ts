import { dashboardSchema } from '../../contract/dashboard';
import { now } from '../http/context';
import type { RouteRegistry } from '../http/routes';
import { readDashboard } from './dashboard';

/** The home dashboard: what needs attention, and the trends. */
export function registerDashboardArea(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/admin/dashboard',
    summary: 'Counters that need attention and the trends of the home dashboard',
    tags: ['dashboard'],
    auth: 'admin',
    responses: { 200: { description: 'The dashboard as of now', schema: dashboardSchema } },
    async handler(c) {
      return c.json(await readDashboard(c.var.deps.db, now(c), c.var.session.userId));
    },
  });
}
