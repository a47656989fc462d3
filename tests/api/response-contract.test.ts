import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readConfig } from '../../server/config';
import type { AppEnv } from '../../server/http/context';
import { handleError } from '../../server/http/errors';
import { RouteRegistry } from '../../server/http/routes';
import { testDatabaseKinds } from '../support/databases';
import { type CaseWorld, startCaseWorld } from './cases-support';

describe('the response check (docs/decisions/0061)', () => {
  function appWith(body: unknown, status = 200) {
    const app = new Hono<AppEnv>();
    const routes = new RouteRegistry(app, { checkResponses: true });
    routes.add({
      method: 'get',
      path: '/v2/probe',
      summary: 'probe',
      tags: ['test'],
      auth: 'public',
      responses: { 200: { description: 'ok', schema: z.object({ n: z.number().int() }) } },
      handler: (c) => c.json(body, status as 200),
    });
    app.onError(handleError);
    return app;
  }

  it('is on in test mode and off otherwise', () => {
    expect(readConfig({ NODE_ENV: 'test' }).checkResponses).toBe(true);
    expect(readConfig({ NODE_ENV: 'production' }).checkResponses).toBe(false);
  });

  it('lets an answer that matches its schema through unchanged', async () => {
    const response = await appWith({ n: 1 }).request('/v2/probe');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ n: 1 });
  });

  it.each([
    ['a wrong field type', { n: 'one' }, 200, 'n: invalid_type'],
    ['a missing field', {}, 200, 'n: invalid_type'],
    ['an undeclared status', { n: 1 }, 201, 'status not declared'],
  ])('fails %s with 500 RESPONSE_CONTRACT_VIOLATION', async (_name, body, status, detail) => {
    const response = await appWith(body, status).request('/v2/probe');
    expect(response.status).toBe(500);
    const answer = (await response.json()) as { code: string; message: string };
    expect(answer.code).toBe('RESPONSE_CONTRACT_VIOLATION');
    expect(answer.message).toContain(detail);
  });
});

interface Operation {
  parameters: { name: string; in: string; required: boolean }[];
}

describe.each(testDatabaseKinds())(
  'every GET route answers its declared schema on seeded data on $name',
  (kind) => {
    let world: CaseWorld;
    beforeAll(async () => {
      world = await startCaseWorld(kind);
    });
    afterAll(() => world.stop());

    it('answers each parameterless GET, and a user, a case and its messages, within the contract', async () => {
      const document = (await (await world.get('/v2/openapi.json')).json()) as {
        paths: Record<string, Record<string, Operation>>;
      };
      const { rows: users } = await world.db.query<{ id: string }>(
        `SELECT DISTINCT ON (role) id FROM users ORDER BY role, created_at`,
      );
      const { rows: cases } = await world.db.query<{ id: string }>(
        'SELECT case_id AS id FROM case_messages GROUP BY case_id ORDER BY count(*) DESC LIMIT 1',
      );
      const paths = Object.entries(document.paths)
        .filter(([, operations]) => operations.get && !operations.get.parameters.some((p) => p.required))
        .map(([path]) => path);
      paths.push(...users.map((user) => `/v2/admin/users/${user.id}`));
      paths.push(`/v2/admin/case/${cases[0]!.id}/messages?limit=3`, `/v2/case/review?caseId=${cases[0]!.id}`);
      paths.push('/v2/admin/users?limit=3&sort=name', '/v2/admin/cases?limit=3&sort=priceCents&order=asc');
      expect(paths.length).toBeGreaterThan(10);
      for (const path of paths) {
        const response = await world.get(path);
        // A violation is a 500 naming the route and the field; anything declared passes.
        expect({
          path,
          status: response.status,
          body: response.status >= 500 ? await response.text() : '',
        }).toEqual({
          path,
          status: expect.any(Number),
          body: '',
        });
      }
    });
  },
);
