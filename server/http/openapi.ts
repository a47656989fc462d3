import { z } from 'zod';
import { errorBodySchema } from '../../contract/common';
import { SESSION_COOKIE } from './auth';
import type { RouteDefinition } from './routes';

type JsonSchema = Record<string, unknown>;

const ERROR_REF = { $ref: '#/components/schemas/Error' };

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** `/v2/users/:id{[0-9]+}` → `/v2/users/{id}` */
export const toOpenApiPath = (path: string): string => path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');

function parameters(schema: z.ZodType | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (object.required ?? []).includes(name),
    schema: property,
  }));
}

function operation(route: RouteDefinition) {
  const responses: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    const content = spec.schema
      ? {
          'application/json': {
            schema: spec.schema === errorBodySchema ? ERROR_REF : jsonSchema(spec.schema, 'output'),
          },
        }
      : spec.contentType
        ? { [spec.contentType]: {} }
        : undefined;
    responses[status] = content
      ? { description: spec.description, content }
      : { description: spec.description };
  }
  const standardErrors: [string, string, boolean][] = [
    [
      '400',
      'Invalid input (`VALIDATION_ERROR` with `errors`, `INVALID_JSON`, `BODY_TOO_DEEP`, `INVALID_CURSOR`)',
      Boolean(route.body ?? route.query ?? route.params),
    ],
    ['401', 'No live session: bearer token or session cookie (`UNAUTHORIZED`)', route.auth !== 'public'],
    [
      '403',
      route.auth === 'admin'
        ? "The user is not an administrator (`FORBIDDEN`), or the session cookie came with another site's Origin (`ORIGIN_NOT_ALLOWED`)"
        : "The session cookie came with another site's Origin (`ORIGIN_NOT_ALLOWED`)",
      route.auth === 'admin' || (route.auth === 'session' && route.method !== 'get'),
    ],
    ['413', 'Body over the limit (`PAYLOAD_TOO_LARGE`)', route.method !== 'get'],
    ['415', 'The body is not JSON (`UNSUPPORTED_MEDIA_TYPE`)', Boolean(route.body)],
    ['500', 'Unexpected failure (`GENERIC_ERROR`)', true],
  ];
  for (const [status, description, applies] of standardErrors)
    if (applies && !responses[status])
      responses[status] = { description, content: { 'application/json': { schema: ERROR_REF } } };

  return {
    operationId: `${route.method}${toOpenApiPath(route.path).replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string = '') => next.toUpperCase())}`,
    summary: route.summary,
    tags: route.tags,
    ...(route.auth === 'public' ? { security: [] } : {}),
    parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
          },
        }
      : {}),
    ...(route.rawBody
      ? {
          requestBody: {
            required: true,
            description: route.rawBody.description,
            content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
          },
        }
      : {}),
    responses,
  };
}

/** Generated from the same zod schemas that validate the requests, so it cannot drift from them. */
export function buildOpenApiDocument(routes: readonly RouteDefinition[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Admin Panel v2 API', version: '2.0.0' },
    // Either: API clients send the bearer token; the console's browser sends the session cookie.
    security: [{ bearer: [] }, { session: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
      },
      schemas: { Error: jsonSchema(errorBodySchema, 'output') },
    },
  };
}
