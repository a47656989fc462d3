import { format } from 'node:util';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../server/app';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/client';
import type { AppEnv } from '../../server/http/context';
import { RouteRegistry } from '../../server/http/routes';
import { testDatabaseKinds } from '../support/databases';

describe('createApp in process', () => {
  let db: Database;

  beforeAll(async () => {
    db = await testDatabaseKinds()[0]!.open();
  });
  afterAll(() => db.close());

  it('answers an unexpected failure with 500 GENERIC_ERROR, logging it but not leaking it', async () => {
    const failing: Database = {
      ...db,
      query: () => Promise.reject(new Error('connection to 10.0.0.7:5432 refused: password for "ops"')),
    };
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await createApp({ db: failing, config: readConfig({}) }).request('/v2/health');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ code: 'GENERIC_ERROR' });
    expect(text).not.toContain('10.0.0.7');
    expect(format(...logged.mock.calls[0]!)).toContain('10.0.0.7');
  });

  it('logs a failed statement by method, path and SQLSTATE, never its SQL, parameters or message', async () => {
    // What both drivers attach to a database error: the statement and the values bound to it.
    const failure = Object.assign(new Error('invalid input syntax for type timestamp with time zone'), {
      code: '22007',
      query: 'SELECT id FROM users WHERE email = $1 AND created_at >= $2',
      params: ['joana.private@example.pt', 'garbage'],
      parameters: ['joana.private@example.pt', 'garbage'],
    });
    const failing: Database = { ...db, query: () => Promise.reject(failure) };
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await createApp({ db: failing, config: readConfig({}) }).request('/v2/health');
    expect(response.status).toBe(500);
    const log = logged.mock.calls.map((call) => format(...call)).join('\n');
    expect(log).toContain('GET /v2/health');
    expect(log).toContain('22007');
    // PostgreSQL's messages quote the values they refuse (`invalid input syntax for type …: "…"`): not
    // logged either (decision 0122).
    expect(log).not.toContain('invalid input syntax');
    expect(log).not.toContain('joana.private');
    expect(log).not.toContain('SELECT');
  });

  it('serves only the API when no console build is given', async () => {
    const response = await createApp({ db, config: readConfig({}) }).request('/customers', {
      headers: { accept: 'text/html' },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: 'NOT_FOUND' });
  });

  it('refuses to register a route whose auth does not match its place under /v2/admin/', () => {
    const routes = new RouteRegistry(new Hono<AppEnv>());
    const route = {
      method: 'get' as const,
      summary: 'x',
      tags: [],
      responses: { 200: { description: 'ok', schema: z.object({}) } },
      handler: () => new Response(null),
    };
    expect(() => routes.add({ ...route, path: '/v2/admin/things', auth: 'public' })).toThrow(/admin/);
    expect(() => routes.add({ ...route, path: '/v2/things', auth: 'admin' })).toThrow(/admin/);
    expect(routes.definitions).toHaveLength(0);
  });
});
