import { z } from 'zod';
import type { RouteRegistry } from '../http/routes';

export function registerHealthRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/health',
    summary: 'Liveness and database reachability',
    tags: ['system'],
    auth: 'public',
    responses: { 200: { description: 'Up', schema: z.object({ status: z.literal('ok') }) } },
    async handler(c) {
      // A load balancer should stop routing here when the database is unreachable.
      await c.var.deps.db.query('SELECT 1');
      return c.json({ status: 'ok' as const });
    },
  });
}
