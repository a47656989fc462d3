import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';
import { bearer, insertUser, issueToken, type RunningApi, startApi } from './harness';
import { samplePath } from './route-samples';

describe.each(testDatabaseKinds())('every admin route is guarded on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  let customerToken: string;
  let professionalToken: string;
  let adminToken: string;

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
    customerToken = await issueToken(db, await insertUser(db, { email: 'c@demo.pt', role: 'CUSTOMER' }));
    professionalToken = await issueToken(
      db,
      await insertUser(db, {
        email: 'p@demo.pt',
        role: 'PROFESSIONAL',
        emailVerified: true,
        professionalVerified: true,
      }),
    );
    adminToken = await issueToken(db, await insertUser(db, { email: 'a@demo.pt', admin: true }));
  });
  afterAll(async () => {
    await api.stop();
    await db.close();
  });

  /** Read from the app's own route table, so routes added by later modules are walked too. */
  const adminRoutes = () => {
    const seen = new Map<string, { method: string; path: string }>();
    for (const { method, path } of api.app.routes)
      if (method !== 'ALL' && path.startsWith('/v2/admin/')) seen.set(`${method} ${path}`, { method, path });
    return [...seen.values()];
  };

  const call = (route: { method: string; path: string }, headers: Record<string, string>) =>
    fetch(`${api.url}${samplePath(route.path)}`, {
      method: route.method,
      headers: { 'content-type': 'application/json', ...headers },
      body: route.method === 'GET' || route.method === 'HEAD' ? undefined : '{}',
    });

  it('finds the admin routes in the route table', () => {
    expect(adminRoutes()).toContainEqual({ method: 'GET', path: '/v2/admin/professionals/status/count' });
  });

  it('answers 401 UNAUTHORIZED without a token, or with a dead one, on every admin route', async () => {
    for (const route of adminRoutes()) {
      for (const headers of [{}, bearer('invalid-token')]) {
        const response = await call(route, headers);
        expect({ route, status: response.status }).toEqual({ route, status: 401 });
        expect(await response.json()).toEqual({ code: 'UNAUTHORIZED' });
      }
    }
  });

  it('answers 403 FORBIDDEN to customers and professionals on every admin route', async () => {
    for (const route of adminRoutes()) {
      for (const token of [customerToken, professionalToken]) {
        const response = await call(route, bearer(token));
        expect({ route, status: response.status }).toEqual({ route, status: 403 });
        expect(await response.json()).toEqual({ code: 'FORBIDDEN' });
      }
    }
  });

  it('lets an administrator through the guard on every admin route', async () => {
    for (const route of adminRoutes()) {
      const response = await call(route, bearer(adminToken));
      const body = response.headers.get('content-type')?.includes('json') ? await response.json() : {};
      const code = (body as { code?: string }).code;
      expect(['UNAUTHORIZED', 'FORBIDDEN'], `${route.method} ${route.path}`).not.toContain(code);
    }
  });

  it('guards unknown paths under /v2/admin/ too, revealing nothing about what exists', async () => {
    const response = await fetch(`${api.url}/v2/admin/does-not-exist`);
    expect(response.status).toBe(401);
  });

  it('stops accepting an administrator token once the user is disabled', async () => {
    const id = await insertUser(db, { email: 'later-disabled@demo.pt', admin: true });
    const token = await issueToken(db, id);
    const route = { method: 'GET', path: '/v2/admin/professionals/status/count' };
    expect((await call(route, bearer(token))).status).toBe(200);
    await db.query('UPDATE users SET disabled = true WHERE id = $1', [id]);
    expect((await call(route, bearer(token))).status).toBe(401);
  });
});
