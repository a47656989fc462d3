import { z } from 'zod';
import { now } from '../http/context';
import { errorBodySchema } from '../http/errors';
import type { RouteRegistry } from '../http/routes';
import {
  areaNameSchema,
  createArea,
  deleteArea,
  interestAreaSchema,
  listAreas,
} from '../services/interest-areas';
import { ID, idParams } from './admin-users';

export function registerAdminInterestAreaRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/admin/interest-areas',
    summary: 'Areas of interest with their number of professionals',
    tags: ['interest-areas'],
    auth: 'admin',
    query: z.object({ q: z.string().trim().max(80).optional() }),
    responses: {
      200: {
        description: 'Every area, by name (`nextCursor` is always null: the list is short)',
        schema: z.object({
          items: z.array(interestAreaSchema),
          nextCursor: z.null(),
          total: z.number().int(),
        }),
      },
    },
    async handler(c, { query }) {
      const items = await listAreas(c.var.deps.db, query.q || undefined);
      return c.json({ items, nextCursor: null, total: items.length });
    },
  });

  routes.add({
    method: 'post',
    path: '/v2/admin/interest-areas',
    summary: 'Create an area of interest (name trimmed, 1–80 characters, unique ignoring case)',
    tags: ['interest-areas'],
    auth: 'admin',
    body: z.object({ name: areaNameSchema }),
    responses: {
      201: { description: 'Created', schema: interestAreaSchema },
      400: { description: 'Missing, blank or too long name', schema: errorBodySchema },
      409: { description: 'AREA_OF_INTEREST_ALREADY_EXISTS', schema: errorBodySchema },
    },
    async handler(c, { body }) {
      const actor = { userId: c.var.session.userId, at: now(c) };
      return c.json(await createArea(c.var.deps.db, actor, body.name), 201);
    },
  });

  routes.add({
    method: 'delete',
    path: `/v2/admin/interest-areas/${ID}`,
    summary: 'Delete an area of interest (professionals lose it)',
    tags: ['interest-areas'],
    auth: 'admin',
    params: idParams,
    responses: {
      204: { description: 'Deleted' },
      404: { description: 'AREA_OF_INTEREST_NOT_FOUND', schema: errorBodySchema },
    },
    async handler(c, { params }) {
      await deleteArea(c.var.deps.db, { userId: c.var.session.userId, at: now(c) }, params.id);
      return c.body(null, 204);
    },
  });
}
