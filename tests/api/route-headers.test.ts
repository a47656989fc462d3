import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';
import { bearer, insertUser, issueToken, type RunningApi, startApi } from './harness';

interface Operation {
  security?: unknown[];
  requestBody?: { content?: Record<string, unknown> };
}
interface Route {
  method: string;
  path: string;
  operation: Operation;
}

const SAMPLE_ID = '00000000-0000-4000-8000-000000000001';

describe.each(testDatabaseKinds())('headers and content types over the route table on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  let adminId: string;
  let routes: Route[];

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
    await insertUser(db, { email: 'admin@demo.pt', admin: true, password: 'admin-password-1' });
    adminId = await insertUser(db, { email: 'a@demo.pt', admin: true });
    // Generated from the route registry: `security: []` marks the public routes.
    const document = (await (await fetch(`${api.url}/v2/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({ method, path, operation })),
    );
  });
  afterAll(async () => {
    await api.stop();
    await db.close();
  });

  const urlOf = (route: Route) => `${api.url}${route.path.replace(/\{\w+\}/g, SAMPLE_ID)}`;
  const call = (route: Route, init: { headers?: Record<string, string>; body?: string } = {}) =>
    fetch(urlOf(route), {
      method: route.method.toUpperCase(),
      headers: init.headers,
      body: route.method === 'get' ? undefined : init.body,
    });
  const needsSession = (route: Route) => route.operation.security === undefined;

  it('sends Cache-Control: no-store on every answer of a route that needs a session, errors included', async () => {
    const guarded = routes.filter(needsSession);
    expect(guarded.map((route) => route.path)).toEqual(
      expect.arrayContaining(['/v2/admin/users', '/v2/admin/users/{id}', '/v2/user/me']),
    );
    // A fresh token each time: the walk signs out (POST /v2/user/logout) on the way.
    for (const route of guarded)
      for (const headers of [{}, bearer('dead-token'), bearer(await issueToken(db, adminId))]) {
        const response = await call(route, {
          headers: { ...headers, 'content-type': 'application/json' },
          body: '{}',
        });
        await response.body?.cancel();
        expect({
          route: `${route.method} ${route.path}`,
          status: response.status,
          cache: response.headers.get('cache-control'),
        }).toEqual({ route: `${route.method} ${route.path}`, status: response.status, cache: 'no-store' });
      }
    const unknown = await fetch(`${api.url}/v2/admin/does-not-exist`, {
      headers: bearer(await issueToken(db, adminId)),
    });
    expect(unknown.headers.get('cache-control')).toBe('no-store');
  });

  it('sends Cache-Control: no-store on the login answer, signed in or refused', async () => {
    for (const password of ['admin-password-1', 'wrong-password']) {
      const response = await fetch(`${api.url}/v2/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@demo.pt', password }),
      });
      expect(response.status).toBe(password === 'wrong-password' ? 401 : 200);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('leaves public reads cacheable as before', async () => {
    expect((await fetch(`${api.url}/v2/health`)).headers.get('cache-control')).toBeNull();
  });

  it('refuses a body that is not JSON on every JSON route with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    // Upload routes take raw bytes (`application/octet-stream`) and sniff them; only JSON bodies are held to JSON.
    const jsonRoutes = routes.filter((route) => route.operation.requestBody?.content?.['application/json']);
    expect(jsonRoutes.map((route) => route.path)).toContain('/v2/user/login');
    for (const route of jsonRoutes)
      for (const [type, body] of [
        ['text/plain', '{"email":"admin@demo.pt","password":"x"}'],
        ['application/x-www-form-urlencoded', 'email=admin%40demo.pt&password=x'],
        ['multipart/form-data; boundary=x', '--x--'],
        [undefined, '{"name":"no type given"}'],
      ] as const) {
        const headers: Record<string, string> = bearer(await issueToken(db, adminId));
        if (type) headers['content-type'] = type;
        const response = await call(route, { headers, body });
        expect({ route: route.path, type, status: response.status, body: await response.json() }).toEqual({
          route: route.path,
          type,
          status: 415,
          body: { code: 'UNSUPPORTED_MEDIA_TYPE' },
        });
      }
  });

  it('still reads JSON (any charset or +json type), and a bare POST as an empty object', async () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'application/merge-patch+json',
    ]) {
      const response = await fetch(`${api.url}/v2/user/login`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: JSON.stringify({ email: 'admin@demo.pt', password: 'admin-password-1' }),
      });
      expect({ type, status: response.status }).toEqual({ type, status: 200 });
    }
    const bare = await fetch(`${api.url}/v2/user/login`, { method: 'POST' });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
