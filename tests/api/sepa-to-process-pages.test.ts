import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import {
  expectStatus,
  insertDoctor,
  insertSettlements,
  payableOf,
  type SepaWorld,
  startSepaWorld,
} from './sepa-support';

/**
 * "SEPA to process" a page at a time (issue 28 point 7, docs/decisions/0145): 10,000 doctors answered
 * whole on every call cost more than a core under 50 admins. Walked over HTTP through the real route.
 */
interface ToProcessPage {
  items: { professionalId: string; settlementCount: number; owedCents: number; selectable: boolean }[];
  nextCursor: string | null;
  total: number;
  totals: { doctorCount: number; settlementCount: number; owedCents: number; currency: string };
  months: { referenceMonth: string; doctorCount: number; settlementCount: number }[];
}

const MONTH = '2025-07';
const OTHER_MONTH = '2025-06';
const DOCTORS = 23;
/** Names with ties (the id decides), accents and case: the keyset must agree with the database's order. */
const NAMES = ['ana', 'Ana', 'ana', 'Álvaro', 'bruno', 'zé', 'Zé', 'maria', 'maria', 'o’neil'];

describe.each(testDatabaseKinds())('SEPA to process, page by page, on $name', (kind) => {
  let world: SepaWorld;
  /** The month's doctors in the order the list promises: by name, then id — as the database sorts. */
  let expectedOrder: string[];
  const owed = new Map<string, { settlementCount: number; owedCents: number }>();

  beforeAll(async () => {
    world = await startSepaWorld(kind);
    for (let i = 0; i < DOCTORS; i++) {
      const doctor = await insertDoctor(world.db, { complete: i % 7 !== 3 });
      await world.db.query('UPDATE users SET name = $2 WHERE id = $1', [doctor.id, NAMES[i % NAMES.length]]);
      const grosses = Array.from({ length: 1 + (i % 3) }, (_, n) => 2000 + 100 * i + n);
      await insertSettlements(
        world.db,
        world.customerId,
        doctor.id,
        grosses.map((grossCents) => ({ grossCents, month: MONTH })),
      );
      owed.set(doctor.id, {
        settlementCount: grosses.length,
        owedCents: grosses.reduce((sum, gross) => sum + payableOf(gross), 0),
      });
      // Another month's settlement: never in this month's pages or totals.
      if (i % 5 === 0)
        await insertSettlements(world.db, world.customerId, doctor.id, [
          { grossCents: 9000, month: OTHER_MONTH },
        ]);
    }
    expectedOrder = (
      await world.db.query<{ id: string }>(
        `SELECT DISTINCT u.id, u.name FROM users u JOIN settlements s ON s.professional_id = u.id
          WHERE s.reference_month = $1 ORDER BY u.name, u.id`,
        [MONTH],
      )
    ).rows.map((row) => row.id);
  }, 120_000);
  afterAll(async () => world?.stop());

  const pageOf = async (limit: number, cursor: string | null, month = MONTH) =>
    expectStatus<ToProcessPage>(
      await world.call(
        'GET',
        `/v2/admin/settlement/sepa/to-process?referenceMonth=${month}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      ),
      200,
    );

  it('answers `limit` doctors with a cursor; the next pages continue without repeats or gaps, every page with the whole month’s totals', async () => {
    expect(expectedOrder).toHaveLength(DOCTORS);
    const monthTotals = {
      doctorCount: DOCTORS,
      settlementCount: [...owed.values()].reduce((sum, o) => sum + o.settlementCount, 0),
      owedCents: [...owed.values()].reduce((sum, o) => sum + o.owedCents, 0),
      currency: 'EUR',
    };
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: DOCTORS + 2 }), async (limit) => {
        const seen: string[] = [];
        let cursor: string | null = null;
        for (let pages = 0; ; pages++) {
          expect(pages).toBeLessThanOrEqual(DOCTORS);
          const page: ToProcessPage = await pageOf(limit, cursor);
          expect(page.total).toBe(DOCTORS);
          expect(page.totals).toEqual(monthTotals);
          expect(page.months).toEqual([
            { referenceMonth: MONTH, doctorCount: DOCTORS, settlementCount: monthTotals.settlementCount },
            { referenceMonth: OTHER_MONTH, doctorCount: 5, settlementCount: 5 },
          ]);
          for (const item of page.items)
            expect({ id: item.professionalId, ...owed.get(item.professionalId) }).toEqual({
              id: item.professionalId,
              settlementCount: item.settlementCount,
              owedCents: item.owedCents,
            });
          seen.push(...page.items.map((item) => item.professionalId));
          cursor = page.nextCursor;
          if (cursor === null) break;
          // Only a full page says there is more.
          expect(page.items).toHaveLength(limit);
        }
        expect(seen).toEqual(expectedOrder);
      }),
      { numRuns: 8 },
    );
  });

  it('doctors who arrive between two pages land before or after the position, never shifting the rest', async () => {
    const first = await pageOf(5, null);
    const position = first.items.at(-1)!.professionalId;
    const latecomers: string[] = [];
    // One first and one last whatever the collation: each side of the position is proven.
    for (const name of ['0 first of all', `${NAMES.join('')}~`]) {
      const latecomer = await insertDoctor(world.db);
      await world.db.query('UPDATE users SET name = $2 WHERE id = $1', [latecomer.id, name]);
      await insertSettlements(world.db, world.customerId, latecomer.id, [{ grossCents: 3000, month: MONTH }]);
      latecomers.push(latecomer.id);
    }
    try {
      const order = (
        await world.db.query<{ id: string }>(
          `SELECT DISTINCT u.id, u.name FROM users u JOIN settlements s ON s.professional_id = u.id
            WHERE s.reference_month = $1 ORDER BY u.name, u.id`,
          [MONTH],
        )
      ).rows.map((row) => row.id);
      const rest: string[] = [];
      for (let cursor = first.nextCursor; cursor !== null; ) {
        const page: ToProcessPage = await pageOf(5, cursor);
        expect(page.total).toBe(DOCTORS + 2);
        rest.push(...page.items.map((item) => item.professionalId));
        cursor = page.nextCursor;
      }
      expect(rest).toEqual(order.slice(order.indexOf(position) + 1));
      expect(latecomers.filter((id) => rest.includes(id)).length).toBeGreaterThan(0);
    } finally {
      await world.db.query('DELETE FROM settlements WHERE professional_id = ANY($1::uuid[])', [latecomers]);
    }
  });

  it('refuses a cursor of another month, a made-up cursor and a limit out of range before any SQL', async () => {
    const other = await pageOf(1, null, OTHER_MONTH);
    expect(other.nextCursor).not.toBeNull();
    const path = '/v2/admin/settlement/sepa/to-process?referenceMonth=';
    expect(
      await expectStatus(
        await world.call('GET', `${path}${MONTH}&cursor=${encodeURIComponent(other.nextCursor!)}`),
        400,
      ),
    ).toMatchObject({ code: 'INVALID_CURSOR' });
    expect(
      await expectStatus(await world.call('GET', `${path}${MONTH}&cursor=bm90LWEtY3Vyc29y`), 400),
    ).toMatchObject({
      code: 'INVALID_CURSOR',
    });
    for (const limit of ['0', '201', '1.5', 'x'])
      expect(
        await expectStatus(await world.call('GET', `${path}${MONTH}&limit=${limit}`), 400),
      ).toMatchObject({
        code: 'VALIDATION_ERROR',
      });
  });

  it('a month with nothing waiting is an empty page with zero totals', async () => {
    expect(await pageOf(50, null, '2024-01')).toMatchObject({
      items: [],
      nextCursor: null,
      total: 0,
      totals: { doctorCount: 0, settlementCount: 0, owedCents: 0, currency: 'EUR' },
    });
  });
});
