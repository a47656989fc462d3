import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettlementStatus } from '../../domain/settlement-status';
import { testDatabaseKinds } from '../support/databases';
import { count } from './harness';
import { type SettlementWorld, startSettlementWorld, VALID_IBAN } from './settlement-support';

/**
 * PENDING_TRANSFER is derived (decision 0119): a settlement stored SETTLED with a live SEPA link. What
 * the API answers — the list and its status filter over keyset pages, the management guards, the
 * doctor's page and the month report — must say so, and say SETTLED again once the file is deleted.
 */

interface ErrorBody {
  code: string;
}
interface Item {
  id: string;
  status: SettlementStatus;
  notes: string | null;
  adjustedCents: number | null;
}
interface Page {
  items: Item[];
  nextCursor: string | null;
  total: number;
  totalEstimated?: boolean;
}
interface Generated {
  file: { id: string; settlementCount: number };
}
interface Payouts {
  settlements: { status: SettlementStatus; count: number; payableCents: number }[];
}
interface Report {
  items: { professionalId: string; statusCounts: Record<SettlementStatus, number> }[];
  totals: { statusCounts: Record<SettlementStatus, number> };
}

const FILTERS: SettlementStatus[][] = [
  ['PENDING_TRANSFER'],
  ['SETTLED'],
  ['SETTLED', 'PENDING_TRANSFER'],
  // With another stored status beside: only the SETTLED rows are told apart by their link.
  ['PENDING_TRANSFER', 'PAID'],
  ['SETTLED', 'REFUNDED'],
];
const SORTS = ['', '&sort=referenceMonth', '&sort=referenceMonth&order=asc', '&order=asc'];
const CLAIMED_MONTH = '2025-01';
const OTHER_MONTH = '2025-02';

describe.each(testDatabaseKinds())('PENDING_TRANSFER derived from a live SEPA link on $name', (kind) => {
  let world: SettlementWorld;
  beforeAll(async () => {
    world = await startSettlementWorld(kind);
  }, 120_000);
  afterAll(async () => world?.stop());

  const call = <T = ErrorBody>(method: string, path: string, body?: unknown, status?: number) =>
    world.call<T>(method, path, body, status);

  let keyNumber = 0;
  const generate = (referenceMonth: string, professionalIds: string[]) =>
    world
      .request(
        'POST',
        '/v2/admin/settlement/sepa/',
        { referenceMonth, professionalIds },
        {
          'idempotency-key': `derived-${++keyNumber}`,
        },
      )
      .then(async (response) => {
        const text = await response.text();
        expect({ status: response.status, body: response.status === 200 ? null : text }).toEqual({
          status: 200,
          body: null,
        });
        return JSON.parse(text) as Generated;
      });

  /** The ids the view `settlement_statuses` shows in one of `statuses`, sorted. */
  const viewIds = async (statuses: readonly SettlementStatus[]) =>
    (
      await world.db.query<{ id: string }>(
        'SELECT id FROM settlement_statuses WHERE status = ANY($1::text[]) ORDER BY id',
        [statuses],
      )
    ).rows.map((row) => row.id);

  /** Every page of the list under `query`, two at a time: each id once, the same exact total on each page. */
  async function listAll(query: string) {
    const ids: string[] = [];
    const items: Item[] = [];
    const totals = new Set<number>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Page = await call<Page>(
        'GET',
        `/v2/admin/settlement/?limit=2${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.items.length).toBeLessThanOrEqual(2);
      expect(page.totalEstimated ?? false).toBe(false);
      totals.add(page.total);
      ids.push(...page.items.map((item) => item.id));
      items.push(...page.items);
      cursor = page.nextCursor;
      pages += 1;
      expect(pages).toBeLessThan(100);
    } while (cursor);
    return { ids, items, totals: [...totals] };
  }

  /** The list under every status filter and sort equals the view: no row repeated, skipped or mislabelled. */
  async function expectListMatchesView() {
    for (const statuses of FILTERS) {
      const expected = await viewIds(statuses);
      for (const sort of SORTS) {
        const query = `${statuses.map((status) => `&status=${status}`).join('')}${sort}`;
        const { ids, items, totals } = await listAll(query);
        expect({ query, repeated: ids.length - new Set(ids).size }).toEqual({ query, repeated: 0 });
        expect({ query, ids: [...ids].sort() }).toEqual({ query, ids: expected });
        expect({ query, totals }).toEqual({ query, totals: [expected.length] });
        const wrong = items.filter((item) => !statuses.includes(item.status));
        expect({ query, wrong }).toEqual({ query, wrong: [] });
        if (statuses.length === 1)
          expect(new Set(items.map((item) => item.status))).toEqual(new Set(expected.length ? statuses : []));
      }
    }
  }

  const countsOf = (payouts: Payouts) =>
    Object.fromEntries(payouts.settlements.map((row) => [row.status, row.count]));

  const viewCountsOfMonth = async (month: string, professionalId?: string) => {
    const { rows } = await world.db.query<{ status: string; n: number }>(
      `SELECT v.status, count(*)::int AS n FROM settlement_statuses v JOIN settlements s ON s.id = v.id
        WHERE s.reference_month = $1 AND ($2::uuid IS NULL OR s.professional_id = $2::uuid)
        GROUP BY v.status`,
      [month, professionalId ?? null],
    );
    return Object.fromEntries(rows.map((row) => [row.status, row.n]));
  };
  const nonZero = (counts: Record<string, number>) =>
    Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));

  describe('a file claiming some SETTLED rows among unclaimed ones (in order: generated, then deleted)', () => {
    let fileId: string;
    let doctorA: string;
    let doctorB: string;
    const claimed: string[] = [];
    const unclaimed: string[] = [];
    let ownFile: string;
    let deadLink: string;

    beforeAll(async () => {
      doctorA = await world.professional('Dra. Alice');
      doctorB = await world.professional('Dr. Bruno');
      const doctorC = await world.professional('Dra. Carla');
      // Interleaved, so pages of two by creation alternate between claimed and unclaimed rows.
      const plan: [string, string, SettlementStatus, boolean][] = [
        [doctorA, CLAIMED_MONTH, 'SETTLED', true],
        [doctorC, CLAIMED_MONTH, 'SETTLED', false],
        [doctorA, OTHER_MONTH, 'SETTLED', false],
        [doctorB, CLAIMED_MONTH, 'SETTLED', true],
        [doctorA, CLAIMED_MONTH, 'READY_TO_SETTLE', false],
        [doctorA, CLAIMED_MONTH, 'SETTLED', true],
        [doctorC, CLAIMED_MONTH, 'SETTLED', false],
        [doctorB, CLAIMED_MONTH, 'PAID', false],
        [doctorB, CLAIMED_MONTH, 'SETTLED', true],
        [doctorA, OTHER_MONTH, 'SETTLED', false],
        [doctorA, CLAIMED_MONTH, 'SETTLED', true],
        [doctorB, CLAIMED_MONTH, 'REFUNDED', false],
        [doctorB, CLAIMED_MONTH, 'SETTLED', true],
      ];
      for (const [index, [professionalId, referenceMonth, status, inFile]] of plan.entries()) {
        const id = await world.settlement({
          professionalId,
          referenceMonth,
          priceCents: 2000 + index,
          status,
        });
        if (status === 'SETTLED') (inFile ? claimed : unclaimed).push(id);
      }
      // PENDING_TRANSFER in a file of its own, in a month of its own.
      ownFile = await world.settlement({
        professionalId: doctorC,
        referenceMonth: '2024-12',
        priceCents: 3000,
        status: 'PENDING_TRANSFER',
      });
      // SETTLED again after a file the bank refused: its link is kept, but dead.
      deadLink = await world.settlement({
        professionalId: doctorC,
        referenceMonth: '2024-11',
        priceCents: 3100,
        status: 'SETTLED',
      });
      const { rows: files } = await world.db.query<{ id: string }>(
        `INSERT INTO sepa_files (msg_id, payment_info_id, amount_cents, transaction_count, status, reference_month,
                                 execution_date, debtor_name, debtor_iban)
         VALUES ('MSG-DEAD-1', 'PMT-DEAD-1', 2604, 1, 'UNAVAILABLE', '2024-11', '2025-01-02', 'Demo', $1)
         RETURNING id`,
        [VALID_IBAN],
      );
      const { rows: transfers } = await world.db.query<{ id: string }>(
        `INSERT INTO sepa_transactions (sepa_file_id, end_to_end_id, professional_id, amount_cents, creditor_name,
                                        creditor_iban, remittance_information)
         VALUES ($1, 'E2E-DEAD-1', $2, 2604, 'Dra. Carla', $3, 'Liquidação') RETURNING id`,
        [files[0]!.id, doctorC, VALID_IBAN],
      );
      await world.db.query(
        `INSERT INTO sepa_transaction_settlements (sepa_transaction_id, sepa_file_id, settlement_id, amount_cents, live)
         VALUES ($1, $2, $3, 2604, false)`,
        [transfers[0]!.id, files[0]!.id, deadLink],
      );
      unclaimed.push(deadLink);

      const generated = await generate(CLAIMED_MONTH, [doctorA, doctorB]);
      fileId = generated.file.id;
      expect(generated.file.settlementCount).toBe(claimed.length);
    }, 120_000);

    it('lists PENDING_TRANSFER and SETTLED apart across keyset pages, each row once, exact totals', async () => {
      // The view agrees with what the file claimed (the list is then compared with the view).
      expect(await viewIds(['PENDING_TRANSFER'])).toEqual([...claimed, ownFile].sort());
      expect(await viewIds(['SETTLED'])).toEqual([...unclaimed].sort());
      expect(
        await count(world.db, `settlements WHERE status = 'SETTLED' AND id = ANY($1::uuid[])`, [
          [...claimed, ownFile, ...unclaimed],
        ]),
      ).toBe(claimed.length + 1 + unclaimed.length);
      await expectListMatchesView();
    });

    it("counts PENDING_TRANSFER on the doctor's page and in the month report", async () => {
      const payoutsA = await call<Payouts>('GET', `/v2/admin/professionals/${doctorA}/payouts`);
      expect(countsOf(payoutsA)).toEqual({ PENDING_TRANSFER: 3, SETTLED: 2, READY_TO_SETTLE: 1 });
      const payoutsB = await call<Payouts>('GET', `/v2/admin/professionals/${doctorB}/payouts`);
      expect(countsOf(payoutsB)).toEqual({ PENDING_TRANSFER: 3, PAID: 1, REFUNDED: 1 });

      const report = await call<Report>('GET', `/v2/admin/settlement/reports/?month=${CLAIMED_MONTH}`);
      expect(nonZero(report.totals.statusCounts)).toEqual({
        PENDING_TRANSFER: 6,
        SETTLED: 2,
        READY_TO_SETTLE: 1,
        PAID: 1,
        REFUNDED: 1,
      });
      expect(nonZero(report.totals.statusCounts)).toEqual(await viewCountsOfMonth(CLAIMED_MONTH));
      const rowA = report.items.find((item) => item.professionalId === doctorA)!;
      expect(nonZero(rowA.statusCounts)).toEqual({ PENDING_TRANSFER: 3, READY_TO_SETTLE: 1 });
    });

    it('lists, counts and reports them SETTLED again once the GENERATED file is deleted', async () => {
      const response = await world.request('DELETE', `/v2/admin/settlement/sepa/${fileId}`);
      expect(response.status).toBe(204);
      expect(await count(world.db, 'sepa_transaction_settlements WHERE sepa_file_id = $1', [fileId])).toBe(0);
      expect(await viewIds(['PENDING_TRANSFER'])).toEqual([ownFile]);
      expect(await viewIds(['SETTLED'])).toEqual([...claimed, ...unclaimed].sort());
      await expectListMatchesView();
      // The rows that were in the file list as SETTLED under the SETTLED filter.
      const { ids } = await listAll('&status=SETTLED');
      expect(claimed.every((id) => ids.includes(id))).toBe(true);

      const payoutsA = await call<Payouts>('GET', `/v2/admin/professionals/${doctorA}/payouts`);
      expect(countsOf(payoutsA)).toEqual({ SETTLED: 5, READY_TO_SETTLE: 1 });
      const report = await call<Report>('GET', `/v2/admin/settlement/reports/?month=${CLAIMED_MONTH}`);
      expect(nonZero(report.totals.statusCounts)).toEqual({
        SETTLED: 8,
        READY_TO_SETTLE: 1,
        PAID: 1,
        REFUNDED: 1,
      });
      expect(report.totals.statusCounts.PENDING_TRANSFER).toBe(0);
    });
  });

  it('lets a note change a PENDING_TRANSFER settlement, which stays PENDING_TRANSFER; refuses adjust, refund and delete', async () => {
    const month = '2025-03';
    const professionalId = await world.professional('Dr. Duarte');
    const ids = [
      await world.settlement({ professionalId, referenceMonth: month, priceCents: 2500, status: 'SETTLED' }),
      await world.settlement({ professionalId, referenceMonth: month, priceCents: 4000, status: 'SETTLED' }),
    ];
    const generated = await generate(month, [professionalId]);
    const id = ids[0]!;
    expect(await world.statuses(ids)).toEqual({
      [ids[0]!]: 'PENDING_TRANSFER',
      [ids[1]!]: 'PENDING_TRANSFER',
    });

    const noted = await call<Item>('PATCH', `/v2/admin/settlement/${id}`, { notes: 'Fatura pedida' });
    expect(noted).toMatchObject({ id, status: 'PENDING_TRANSFER', notes: 'Fatura pedida' });
    const stored = async () =>
      (
        await world.db.query(
          `SELECT s.status, s.adjusted_cents, s.adjustment_note, s.notes,
                  (SELECT count(*)::int FROM sepa_transaction_settlements l WHERE l.settlement_id = s.id AND l.live) AS live
             FROM settlements s WHERE s.id = $1`,
          [id],
        )
      ).rows[0];
    expect(await stored()).toEqual({
      status: 'SETTLED',
      adjusted_cents: null,
      adjustment_note: null,
      notes: 'Fatura pedida',
      live: 1,
    });
    expect(await world.statuses([id])).toEqual({ [id]: 'PENDING_TRANSFER' });

    const snapshot = async () => ({
      settlements: (
        await world.db.query(
          'SELECT id, status, adjusted_cents, adjustment_note, notes, updated_at FROM settlements ORDER BY id',
        )
      ).rows,
      links: (
        await world.db.query(
          'SELECT settlement_id, sepa_file_id, amount_cents, live FROM sepa_transaction_settlements ORDER BY settlement_id, sepa_file_id',
        )
      ).rows,
      audit: await count(world.db, 'audit_log'),
    });
    const before = await snapshot();
    const adjust = await call(
      'PATCH',
      `/v2/admin/settlement/${id}`,
      { adjustedCents: 100, adjustmentNote: 'Desconto' },
      409,
    );
    expect(adjust.code).toBe('SETTLEMENT_NOT_ADJUSTABLE');
    const refund = await call('POST', `/v2/admin/settlement/${id}/refund`, { note: 'Reembolso' }, 409);
    expect(refund.code).toBe('SETTLEMENT_TRANSITION_NOT_ALLOWED');
    const deletion = await call('DELETE', `/v2/admin/settlement/${id}`, undefined, 409);
    expect(deletion.code).toBe('SETTLEMENT_NOT_DELETABLE');
    const bulk = await call<{ deleted: string[]; refused: { settlementId: string; code: string }[] }>(
      'POST',
      '/v2/admin/settlement/bulk-delete',
      { settlementIds: ids },
    );
    expect(bulk.deleted).toEqual([]);
    expect([...bulk.refused].sort((a, b) => a.settlementId.localeCompare(b.settlementId))).toEqual(
      [...ids].sort().map((settlementId) => ({ settlementId, code: 'SETTLEMENT_NOT_DELETABLE' })),
    );
    const after = await snapshot();
    // The bulk delete audits the selection (nothing deleted); everything else is as it was.
    expect({ ...after, audit: undefined }).toEqual({ ...before, audit: undefined });
    expect(after.audit - before.audit).toBe(1);
    expect(await world.statuses(ids)).toEqual({
      [ids[0]!]: 'PENDING_TRANSFER',
      [ids[1]!]: 'PENDING_TRANSFER',
    });
    expect(
      await count(world.db, 'sepa_transaction_settlements WHERE sepa_file_id = $1 AND live', [
        generated.file.id,
      ]),
    ).toBe(2);
  });
});
