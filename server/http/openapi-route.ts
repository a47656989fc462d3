import { z } from 'zod';
import { buildOpenApiDocument } from './openapi';
import type { RouteRegistry } from './routes';

export function registerOpenApiRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/openapi.json',
    summary: 'This document',
    tags: ['system'],
    auth: 'public',
    responses: { 200: { description: 'OpenAPI 3.1', schema: z.record(z.string(), z.unknown()) } },
    // Built on request, so routes registered after this one are listed too.
    handler: (c) => c.json(buildOpenApiDocument(routes.definitions)),
  });
}
