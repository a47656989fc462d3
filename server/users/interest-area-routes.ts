import { errorBodySchema } from '../../contract/common';
import {
  areaListQuerySchema,
  areaListSchema,
  createAreaBodySchema,
  interestAreaSchema,
} from '../../contract/interest-areas';
import { actorOf, ID, idParams } from '../http/actor';
import type { RouteRegistry } from '../http/routes';
import { createArea, deleteArea, listAreas } from './interest-areas';

export function registerInterestAreaRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/admin/interest-areas',
    summary: 'Areas of interest with their number of professionals',
    tags: ['interest-areas'],
    auth: 'admin',
    query: areaListQuerySchema,
    responses: {
      200: {
        description: 'Every area, by name (`nextCursor` is always null: the list is short)',
        schema: areaListSchema,
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
    body: createAreaBodySchema,
    responses: {
      201: { description: 'Created', schema: interestAreaSchema },
      400: { description: 'Missing, blank or too long name', schema: errorBodySchema },
      409: { description: 'AREA_OF_INTEREST_ALREADY_EXISTS', schema: errorBodySchema },
    },
    async handler(c, { body }) {
      return c.json(await createArea(c.var.deps.db, actorOf(c), body.name), 201);
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
      await deleteArea(c.var.deps.db, actorOf(c), params.id);
      return c.body(null, 204);
    },
  });
}
