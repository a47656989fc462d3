import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';
import { bearer, count, insertUser, issueToken, postJson, type RunningApi, startApi } from './harness';

interface Area {
  id: string;
  name: string;
  professionals: number;
}

describe.each(testDatabaseKinds())('areas of interest on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  let token: string;

  const list = async (query = '') => {
    const response = await fetch(`${api.url}/v2/admin/interest-areas${query}`, { headers: bearer(token) });
    expect(response.status).toBe(200);
    return (await response.json()) as { items: Area[]; nextCursor: null; total: number };
  };
  const create = async (name: unknown) => {
    const response = await postJson(`${api.url}/v2/admin/interest-areas`, { name }, bearer(token));
    return {
      status: response.status,
      body: (await response.json()) as Area & { code?: string; errors?: unknown },
    };
  };
  const remove = (id: string) =>
    fetch(`${api.url}/v2/admin/interest-areas/${id}`, { method: 'DELETE', headers: bearer(token) });

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
    token = await issueToken(db, await insertUser(db, { email: 'admin@areas.test', admin: true }));
  });
  afterAll(async () => {
    await api.stop();
    await db.close();
  });

  it('creates a trimmed area and lists it by name with its number of professionals', async () => {
    const created = await create('  Medicina   Geral  ');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Medicina Geral', professionals: 0 });
    const doctor = await insertUser(db, { email: 'dr@areas.test', role: 'PROFESSIONAL' });
    const customer = await insertUser(db, { email: 'c@areas.test' });
    for (const user of [doctor, customer])
      await db.query('INSERT INTO professional_interest_areas VALUES ($1, $2)', [user, created.body.id]);
    await create('Anestesiologia');
    const { items, total, nextCursor } = await list();
    expect(items.map((a) => a.name)).toEqual(['Anestesiologia', 'Medicina Geral']);
    expect(items[1]).toMatchObject({ id: created.body.id, professionals: 1 });
    expect(total).toBe(2);
    expect(nextCursor).toBeNull();
    expect((await list('?q=geral')).items.map((a) => a.name)).toEqual(['Medicina Geral']);
    expect(
      await count(db, "audit_log WHERE action = 'interest-area.create' AND entity_id = $1", [
        created.body.id,
      ]),
    ).toBe(1);
  });

  it.each(['medicina geral', ' MEDICINA  GERAL ', 'Medicina\tGeral'])(
    'refuses the duplicate %j with 409 AREA_OF_INTEREST_ALREADY_EXISTS',
    async (name) => {
      expect(await create(name)).toEqual({ status: 409, body: { code: 'AREA_OF_INTEREST_ALREADY_EXISTS' } });
    },
  );

  it('gives one 201 and one 409 for two identical POSTs at the same time', async () => {
    const results = await Promise.all([create('Pediatria'), create('pediatria ')]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await count(db, "interest_areas WHERE lower(name) = 'pediatria'")).toBe(1);
  });

  it.each([
    [undefined, 'required'],
    ['   ', 'required'],
    ['x'.repeat(81), 'too_big'],
    [42, 'invalid'],
  ])('rejects the name %j with 400', async (name, code) => {
    const { status, body } = await create(name);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'name', code }] });
  });

  it('accepts exactly 80 characters', async () => {
    expect((await create('y'.repeat(80))).status).toBe(201);
  });

  it('deletes an area (professionals lose it), audits it, and 404s an unknown one', async () => {
    const area = (await create('Dermatologia')).body;
    const doctor = await insertUser(db, { email: 'dr.derma@areas.test', role: 'PROFESSIONAL' });
    await db.query('INSERT INTO professional_interest_areas VALUES ($1, $2)', [doctor, area.id]);
    const response = await remove(area.id);
    expect(response.status).toBe(204);
    expect((await list()).items.map((a) => a.id)).not.toContain(area.id);
    expect(await count(db, 'professional_interest_areas WHERE area_id = $1', [area.id])).toBe(0);
    const { rows } = await db.query<{ before: unknown }>(
      "SELECT before FROM audit_log WHERE action = 'interest-area.delete' AND entity_id = $1",
      [area.id],
    );
    expect(rows.map((r) => r.before)).toEqual([{ name: 'Dermatologia', professionals: 1 }]);
    const again = await remove(area.id);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ code: 'AREA_OF_INTEREST_NOT_FOUND' });
  });
});
