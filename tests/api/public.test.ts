import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { toOpenApiPath } from '../../server/http/openapi';
import { testDatabaseKinds } from '../support/databases';
import { bearer, insertUser, issueToken, type RunningApi, startApi } from './harness';

describe.each(testDatabaseKinds())('public and admin reads over HTTP on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${api.url}${path}`, { headers });

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
  });
  afterAll(async () => {
    await api.stop();
    await db.close();
  });

  it('reports health', async () => {
    const response = await get('/v2/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('lists countries with names in both locales and phone codes', async () => {
    const countries = (await (await get('/v2/static-data/country')).json()) as unknown[];
    expect(countries).toContainEqual({
      code: 'PT',
      name: { 'pt-PT': 'Portugal', 'en-GB': 'Portugal' },
      phoneCode: '+351',
    });
    expect(countries).toContainEqual({
      code: 'DE',
      name: { 'pt-PT': 'Alemanha', 'en-GB': 'Germany' },
      phoneCode: '+49',
    });
  });

  it('lists locales, genders and enabled locales', async () => {
    expect(await (await get('/v2/static-data/locale')).json()).toEqual([
      { id: 'pt-PT', name: 'Português' },
      { id: 'en-GB', name: 'English' },
    ]);
    expect(await (await get('/v2/static-data/gender')).json()).toEqual([{ id: 'male' }, { id: 'female' }]);
    await db.query("UPDATE locales SET enabled = false WHERE id = 'en-GB'");
    expect(await (await get('/v2/locales')).json()).toEqual([
      { id: 'pt-PT', enabled: true },
      { id: 'en-GB', enabled: false },
    ]);
    await db.query("UPDATE locales SET enabled = true WHERE id = 'en-GB'");
  });

  it('counts professionals awaiting verification and disabled ones, ignoring customers', async () => {
    const professionals = [
      { emailVerified: true },
      { emailVerified: true },
      { emailVerified: true },
      { emailVerified: true, professionalVerified: true },
      { disabled: true },
      { disabled: true, emailVerified: true },
      {},
    ];
    for (const [index, flags] of professionals.entries())
      await insertUser(db, { email: `pro${index}@demo.pt`, role: 'PROFESSIONAL', ...flags });
    await insertUser(db, { email: 'verified-customer@demo.pt', role: 'CUSTOMER', emailVerified: true });
    await insertUser(db, { email: 'disabled-customer@demo.pt', role: 'CUSTOMER', disabled: true });
    const token = await issueToken(db, await insertUser(db, { email: 'admin@demo.pt', admin: true }));

    const response = await get('/v2/admin/professionals/status/count', bearer(token));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ EMAIL_VERIFIED: 3, DISABLED: 2 });
  });

  it.each(['/v2/nothing-here', '/v2/user/me/extra', '/v2/'])(
    'answers unknown %s with 404 NOT_FOUND JSON',
    async (path) => {
      const response = await get(path, { accept: 'text/html' });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ code: 'NOT_FOUND' });
    },
  );

  it('answers a known path with the wrong method as 404 JSON', async () => {
    const response = await fetch(`${api.url}/v2/health`, { method: 'DELETE' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: 'NOT_FOUND' });
  });

  it('documents every registered route in the OpenAPI document, admin ones behind bearer auth', async () => {
    const document = (await (await get('/v2/openapi.json')).json()) as {
      openapi: string;
      components: { securitySchemes: Record<string, { scheme: string }> };
      paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
    };
    expect(document.openapi).toBe('3.1.0');
    expect(document.components.securitySchemes.bearer?.scheme).toBe('bearer');
    // The console's browser authenticates with the server's session cookie instead (decision 0126).
    expect(document.components.securitySchemes.session).toEqual({
      type: 'apiKey',
      in: 'cookie',
      name: 'authorization',
    });
    const registered = api.app.routes.filter(
      (route) => route.method !== 'ALL' && route.path.startsWith('/v2/'),
    );
    expect(registered.length).toBeGreaterThan(5);
    for (const route of registered) {
      const operation = document.paths[toOpenApiPath(route.path)]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      if (route.path.startsWith('/v2/admin/')) {
        expect(operation!.security, route.path).toBeUndefined();
        expect(Object.keys(operation!.responses)).toEqual(expect.arrayContaining(['401', '403']));
      }
    }
  });

  it('describes the login body from the schema that validates it', async () => {
    const document = (await (await get('/v2/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>
      >;
    };
    const schema = document.paths['/v2/user/login']?.post?.requestBody?.content['application/json']?.schema;
    expect(schema).toMatchObject({
      type: 'object',
      required: ['email', 'password'],
      properties: { email: { type: 'string', format: 'email' }, password: { type: 'string', minLength: 1 } },
    });
  });
});
