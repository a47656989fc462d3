import { z } from 'zod';
import type { RouteRegistry } from '../http/routes';

export function registerLocaleRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/locales',
    summary: 'Locales and whether each is enabled',
    tags: ['static-data'],
    auth: 'public',
    responses: {
      200: { description: 'Locales', schema: z.array(z.object({ id: z.string(), enabled: z.boolean() })) },
    },
    async handler(c) {
      // pt-PT first: it is the default and the console lists it first.
      const { rows } = await c.var.deps.db.query<{ id: string; enabled: boolean }>(
        'SELECT id, enabled FROM locales ORDER BY id DESC',
      );
      return c.json(rows);
    },
  });
}
