import { z } from 'zod';
import type { RouteRegistry } from '../http/routes';

const COUNTED_STATUSES = ['EMAIL_VERIFIED', 'DISABLED'] as const;

export function registerAdminProfessionalRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/admin/professionals/status/count',
    summary: 'Professionals awaiting verification and disabled professionals (sidebar badges)',
    tags: ['professionals'],
    auth: 'admin',
    responses: {
      200: {
        description: 'Counts by status',
        schema: z.object({ EMAIL_VERIFIED: z.number().int(), DISABLED: z.number().int() }),
      },
    },
    async handler(c) {
      const { rows } = await c.var.deps.db.query<{
        status: (typeof COUNTED_STATUSES)[number];
        count: number;
      }>(
        `SELECT status, count(*)::int AS count FROM users
          WHERE role = 'PROFESSIONAL' AND status = ANY($1::text[])
          GROUP BY status`,
        [COUNTED_STATUSES],
      );
      const counts = { EMAIL_VERIFIED: 0, DISABLED: 0 };
      for (const row of rows) counts[row.status] = row.count;
      return c.json(counts);
    },
  });
}
