import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../server/db/client';
import { toOpenApiPath } from '../../server/http/openapi';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../server/http/validation';
import { testDatabaseKinds } from '../support/databases';
import { bearer, count, insertUser, issueToken, type RunningApi, startApi } from './harness';
import { samplePath } from './route-samples';

/** Issue 28's body: ~200 KB, a login's fields and then arrays 100,000 deep. */
const DEPTH = 100_000;
const deepBody = `{"email":"a@demo.pt","password":"x","z":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`;

const depthOf = (value: unknown): number =>
  value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;

describe('nestsDeeperThan (the scan before JSON.parse)', () => {
  it('agrees with the parsed depth of any JSON text, brackets inside strings included', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (value, limit) => {
        const text = JSON.stringify(value);
        expect(nestsDeeperThan(text, limit)).toBe(depthOf(JSON.parse(text)) > limit);
      }),
    );
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ a: '[[[{{{\\"[[[' }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify([['"]]'], [[['x']]]]), 4)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify([['"]]'], [[['x']]]]), 3)).toBe(true);
  });

  it('refuses the 100,000-deep body after reading only as far as the limit', () => {
    const started = performance.now();
    for (let i = 0; i < 100; i++) expect(nestsDeeperThan(deepBody, MAX_JSON_DEPTH)).toBe(true);
    expect((performance.now() - started) / 100).toBeLessThan(5);
  });
});

interface JsonSchema {
  $ref?: string;
  type?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> }; security?: [] }>
  >;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** How deep a body matching the schema can nest arrays and objects. */
function schemaDepth(schema: JsonSchema | boolean | undefined, document: OpenApiDocument): number {
  if (!schema || schema === true) return 0;
  if (schema.$ref)
    return schemaDepth(document.components?.schemas?.[schema.$ref.split('/').pop()!], document);
  const inner = (schemas: (JsonSchema | boolean | undefined)[]) =>
    Math.max(0, ...schemas.map((item) => schemaDepth(item, document)));
  if (schema.type === 'object' || schema.properties)
    return 1 + inner([...Object.values(schema.properties ?? {}), schema.additionalProperties]);
  if (schema.type === 'array' || schema.items) return 1 + inner([schema.items]);
  return inner([...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]);
}

describe.each(testDatabaseKinds())('a 100,000-deep JSON body on every JSON route, on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  let adminToken: string;
  let logged: ReturnType<typeof vi.spyOn>[];

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
    adminToken = await issueToken(db, await insertUser(db, { email: 'admin@demo.pt', admin: true }));
  });
  afterAll(async () => {
    await api.stop();
    await db.close();
  });
  afterEach(() => {
    for (const spy of logged) spy.mockRestore();
  });

  const openApi = async () => (await (await fetch(`${api.url}/v2/openapi.json`)).json()) as OpenApiDocument;

  /** The routes whose OpenAPI operation takes a JSON body, each with a Hono path to call. */
  async function jsonRoutes() {
    const document = await openApi();
    const honoPaths = new Map(api.app.routes.map((route) => [toOpenApiPath(route.path), route.path]));
    return Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.requestBody?.content['application/json'])
        .map(([method, operation]) => ({
          method: method.toUpperCase(),
          path,
          url: `${api.url}${samplePath(honoPaths.get(path)!)}`,
          isPublic: Array.isArray(operation.security) && operation.security.length === 0,
        })),
    );
  }

  const send = (route: { method: string; url: string }, headers: Record<string, string>) =>
    fetch(route.url, {
      method: route.method,
      headers: { 'content-type': 'application/json', ...headers },
      body: deepBody,
    });

  it('answers 400 BODY_TOO_DEEP before any login or validation, logging nothing', async () => {
    logged = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn'), vi.spyOn(console, 'log')];
    const routes = await jsonRoutes();
    expect(routes.map((route) => `${route.method} ${route.path}`)).toEqual(
      expect.arrayContaining(['POST /v2/user/login', 'POST /v2/admin/settlement/sepa/dry-run']),
    );
    for (const route of routes) {
      const response = await send(route, route.isPublic ? {} : bearer(adminToken));
      const body = await response.json();
      expect({ route: route.path, status: response.status, body }).toEqual({
        route: route.path,
        status: 400,
        body: { code: 'BODY_TOO_DEEP' },
      });
    }
    for (const spy of logged) expect(spy).not.toHaveBeenCalled();
    // No login work happened: the throttle recorded no attempt.
    expect(await count(db, 'login_attempts')).toBe(0);
  });

  it('leaves room for every JSON body the API declares: none nests deeper than the limit', async () => {
    logged = [];
    const document = await openApi();
    const depths = Object.values(document.paths).flatMap((operations) =>
      Object.values(operations).flatMap((operation) => {
        const json = operation.requestBody?.content['application/json'];
        return json ? [schemaDepth(json.schema, document)] : [];
      }),
    );
    expect(Math.max(...depths)).toBeGreaterThanOrEqual(3); // the settlement confirmation's adjustments
    expect(Math.max(...depths)).toBeLessThanOrEqual(MAX_JSON_DEPTH);
  });

  it('answers 401 without a token on the routes that need one: the body is not read for anyone anonymous', async () => {
    logged = [];
    for (const route of (await jsonRoutes()).filter((r) => !r.isPublic)) {
      const response = await send(route, {});
      expect({ route: route.path, status: response.status }).toEqual({ route: route.path, status: 401 });
    }
  });
});
