import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';
import { bearer, insertUser, issueToken, type RunningApi, startApi } from './harness';

interface Page {
  items: { id: string; professional: { id: string } }[];
  nextCursor: string | null;
  total: number;
  totalEstimated?: true;
}

// Above 10,000 matching cases the list answers the planner's estimate instead of counting them on every
// page (docs/decisions/0130); below, the exact count, as before.
describe.each(testDatabaseKinds())('GET /v2/admin/cases totals at scale on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  let token: string;
  let busyDoctor: string;
  let quietDoctor: string;

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
    token = await issueToken(db, await insertUser(db, { email: 'admin@case-total.test', admin: true }));
    const customer = await insertUser(db, { email: 'cliente@case-total.test' });
    busyDoctor = await insertUser(db, { email: 'ocupada@case-total.test', role: 'PROFESSIONAL' });
    quietDoctor = await insertUser(db, { email: 'sossegado@case-total.test', role: 'PROFESSIONAL' });
    await db.query(
      `INSERT INTO cases (customer_id, professional_id, status, type, price_cents, created_at)
       SELECT $1, CASE WHEN n <= 3 THEN $3::uuid ELSE $2::uuid END, 'CLOSED_BY_PROFESSIONAL', 'SINGLE_CASE', 2500,
              '2024-01-01T00:00:00Z'::timestamptz + n * interval '1 minute'
         FROM generate_series(1, 10503) n`,
      [customer, busyDoctor, quietDoctor],
    );
    await db.query('ANALYZE cases');
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await db?.close();
  });

  const get = async (query: string): Promise<Page> => {
    const response = await fetch(`${api.url}/v2/admin/cases?${query}`, { headers: bearer(token) });
    expect(response.status).toBe(200);
    return (await response.json()) as Page;
  };

  it('answers an estimate above 10,000 matching cases and says so, on every page', async () => {
    const first = await get('limit=5');
    expect(first.totalEstimated).toBe(true);
    expect(first.total).toBeGreaterThan(10_000);
    expect(first.total).toBeLessThan(20_000);
    expect(first.items).toHaveLength(5);
    const second = await get(`limit=5&cursor=${first.nextCursor}`);
    expect(second.totalEstimated).toBe(true);
    expect(second.items.map((item) => item.id)).not.toContain(first.items[0]!.id);
    const busy = await get(`professionalId=${busyDoctor}&limit=5`);
    expect(busy.totalEstimated).toBe(true);
    expect(busy.total).toBeGreaterThan(10_000);
  });

  it('counts exactly at or below 10,000 matches, with or without a text search', async () => {
    for (const query of [
      `professionalId=${quietDoctor}&limit=1`,
      'q=sossegado&limit=2',
      'q=sossegado&limit=50',
    ]) {
      const page = await get(query);
      expect(page.total).toBe(3);
      expect(page).not.toHaveProperty('totalEstimated');
      expect(page.items.every((item) => item.professional.id === quietDoctor)).toBe(true);
    }
  });

  it('estimates a text search that matches more than 10,000 cases', async () => {
    const page = await get('q=ocupada&limit=5');
    expect(page.totalEstimated).toBe(true);
    expect(page.total).toBeGreaterThan(10_000);
  });
});
