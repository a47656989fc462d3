import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlementListQuerySchema } from '../../contract/finance';
import { CASES_TO_PROCESS_SEARCH_MAX } from '../../contract/limits';
import { SETTLEMENT_STATUSES } from '../../domain/settlement-status';
import { releaseDueSettlements } from '../../server/finance/ledger';
import { listSettlements } from '../../server/finance/settlements';
import { testDatabaseKinds } from '../support/databases';
import { type CaseWorld, SEED_NOW, startCaseWorld } from './cases-support';

interface Truth {
  id: string;
  professional_id: string;
  reference_month: string;
  status: string;
  payable: number;
  has_invoice: boolean;
  created_at: Date;
  available_on: string | null;
}

interface Item {
  id: string;
  professionalId: string;
  professionalName: string;
  referenceMonth: string;
  grossCents: number;
  feeCents: number;
  netCents: number;
  adjustedCents: number | null;
  payableCents: number;
  hasInvoice: boolean;
  status: string;
  createdAt: string;
}

interface ListPage {
  items: Item[];
  nextCursor: string | null;
  total: number;
}

interface Group {
  professionalId: string;
  referenceMonth: string;
  settlementCount: number;
  caseCount: number;
  grossCents: number;
  feeCents: number;
  netCents: number;
  payableCents: number;
  missingFields: string[];
}
interface Totals {
  settlementCount: number;
  caseCount: number;
  grossCents: number;
  feeCents: number;
  netCents: number;
  payableCents: number;
}
interface Groups {
  items: Group[];
  nextCursor: string | null;
  total: number;
  totals: Totals & { currency: string };
}

describe.each(testDatabaseKinds())('settlements API on $name', (kind) => {
  let world: CaseWorld;
  beforeAll(async () => {
    world = await startCaseWorld(kind);
    // The seed's today: no READY_TO_SETTLE settlement is due yet, so reads move nothing.
    world.clock.current = SEED_NOW;
  }, 180_000);
  afterAll(async () => world?.stop());

  const truth = async () =>
    (
      await world.db.query<Truth>(
        `SELECT id, professional_id, reference_month, v.status, coalesce(adjusted_cents, net_cents) AS payable,
                invoice_file_id IS NOT NULL AS has_invoice, created_at, available_on::text AS available_on
           FROM settlements JOIN settlement_statuses v USING (id)`,
      )
    ).rows;

  const getJson = async <T>(path: string, status = 200): Promise<T> => {
    const response = await world.get(path);
    const body = await response.json();
    expect({ path, status: response.status, body: response.status === status ? null : body }).toEqual({
      path,
      status,
      body: null,
    });
    return body as T;
  };

  const fetchAll = async (query: string, limit = 23) => {
    const items: Item[] = [];
    let cursor: string | null = null;
    let total = -1;
    do {
      const separator = query ? '&' : '';
      const page: ListPage = await getJson<ListPage>(
        `/v2/admin/settlement/?${query}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      if (total >= 0) expect(page.total).toBe(total);
      total = page.total;
      expect(page.items.length).toBeLessThanOrEqual(limit);
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(items).toHaveLength(total);
    return items;
  };

  /** The expected order, computed here rather than by the server's SQL: key, then id. */
  const ordered = (rows: Truth[], key: (row: Truth) => number | string, order: 'asc' | 'desc') =>
    [...rows]
      .sort((a, b) => {
        const [ka, kb] = [key(a), key(b)];
        const byKey = ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
        return order === 'asc' ? byKey : -byKey;
      })
      .map((row) => row.id);

  describe('GET /v2/admin/settlement/', () => {
    it('has settlements of every status to work on (the demo seed)', async () => {
      const statuses = new Set((await truth()).map((row) => row.status));
      expect([...statuses].sort()).toEqual([...SETTLEMENT_STATUSES].sort());
    });

    it.each([
      ['created', 'desc', (row: Truth) => row.created_at.getTime()],
      ['created', 'asc', (row: Truth) => row.created_at.getTime()],
      ['referenceMonth', 'asc', (row: Truth) => row.reference_month],
      ['referenceMonth', 'desc', (row: Truth) => row.reference_month],
      ['payable', 'asc', (row: Truth) => row.payable],
      ['payable', 'desc', (row: Truth) => row.payable],
    ] as const)('pages through every row once, sorted by %s %s', async (sort, order, key) => {
      const all = await truth();
      const query = sort === 'created' && order === 'desc' ? '' : `sort=${sort}&order=${order}`;
      const items = await fetchAll(query);
      expect(items.map((item) => item.id)).toEqual(ordered(all, key, order));
    });

    it('applies every filter exactly, alone and together', async () => {
      const all = await truth();
      const professional = all[0]!.professional_id;
      const month = all[Math.floor(all.length / 2)]!.reference_month;
      const payables = all.map((row) => row.payable).sort((a, b) => a - b);
      const [low, high] = [
        payables[Math.floor(payables.length / 4)]!,
        payables[Math.floor((3 * payables.length) / 4)]!,
      ];
      const cases: [string, (row: Truth) => boolean][] = [
        ['status=AVAILABLE', (row) => row.status === 'AVAILABLE'],
        ['status=AVAILABLE&status=SETTLED', (row) => row.status === 'AVAILABLE' || row.status === 'SETTLED'],
        [`referenceMonth=${month}`, (row) => row.reference_month === month],
        [`professionalId=${professional}`, (row) => row.professional_id === professional],
        [`payableMinCents=${low}`, (row) => row.payable >= low],
        [`payableMaxCents=${high}`, (row) => row.payable <= high],
        [
          `payableMinCents=${low}&payableMaxCents=${high}`,
          (row) => row.payable >= low && row.payable <= high,
        ],
        ['hasInvoice=true', (row) => row.has_invoice],
        ['hasInvoice=false', (row) => !row.has_invoice],
        [
          `status=SETTLED&status=PAID&hasInvoice=true&referenceMonth=${month}`,
          (row) =>
            (row.status === 'SETTLED' || row.status === 'PAID') &&
            row.has_invoice &&
            row.reference_month === month,
        ],
      ];
      for (const [query, keep] of cases) {
        const expected = all.filter(keep);
        const items = await fetchAll(query, 9);
        expect({ query, ids: items.map((item) => item.id) }).toEqual({
          query,
          ids: ordered(expected, (row) => row.created_at.getTime(), 'desc'),
        });
      }
      // Filters that hold something: the seed must not make this test vacuous.
      expect(all.filter((row) => row.has_invoice).length).toBeGreaterThan(0);
      expect(all.filter((row) => !row.has_invoice).length).toBeGreaterThan(0);
    });

    it('answers every settlement field, payable = adjusted or net', async () => {
      const { rows } = await world.db.query<{ id: string }>(
        'SELECT id FROM settlements WHERE adjusted_cents IS NOT NULL LIMIT 1',
      );
      const items = await fetchAll('', 200);
      const adjusted = items.find((item) => item.id === rows[0]!.id)!;
      expect(adjusted.payableCents).toBe(adjusted.adjustedCents);
      for (const item of items) {
        expect(item.payableCents).toBe(item.adjustedCents ?? item.netCents);
        expect(item.grossCents).toBe(item.feeCents + item.netCents);
      }
    });

    it("finds the settlement of one case by caseId (the palette's jump), none for a case without one", async () => {
      const { rows } = await world.db.query<{ id: string; case_id: string }>(
        'SELECT id, case_id FROM settlements WHERE case_id IS NOT NULL ORDER BY created_at DESC, id LIMIT 2',
      );
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        const page = await getJson<ListPage>(`/v2/admin/settlement/?caseId=${row.case_id}`);
        expect({ ids: page.items.map((item) => item.id), total: page.total }).toEqual({
          ids: [row.id],
          total: 1,
        });
      }
      // With another filter the conditions add up: the case's settlement in another month is not found.
      const { rows: other } = await world.db.query<{ reference_month: string }>(
        'SELECT reference_month FROM settlements WHERE reference_month <> (SELECT reference_month FROM settlements WHERE id = $1) LIMIT 1',
        [rows[0]!.id],
      );
      expect(
        (
          await getJson<ListPage>(
            `/v2/admin/settlement/?caseId=${rows[0]!.case_id}&referenceMonth=${other[0]!.reference_month}`,
          )
        ).total,
      ).toBe(0);
      const { rows: unsettled } = await world.db.query<{ id: string }>(
        'SELECT id FROM cases c WHERE NOT EXISTS (SELECT 1 FROM settlements s WHERE s.case_id = c.id) LIMIT 1',
      );
      expect(await getJson<ListPage>(`/v2/admin/settlement/?caseId=${unsettled[0]!.id}`)).toMatchObject({
        items: [],
        total: 0,
      });
    });

    it('refuses bad filters with 400 and forged or foreign cursors with INVALID_CURSOR', async () => {
      for (const query of [
        'referenceMonth=2026-13',
        'referenceMonth=2026-3',
        'status=NOPE',
        'hasInvoice=yes',
        'payableMinCents=-1',
        'payableMinCents=5&payableMaxCents=4',
        'sort=name',
        'caseId=not-a-uuid',
        "caseId=1' OR '1'='1",
      ])
        expect((await getJson<{ code: string }>(`/v2/admin/settlement/?${query}`, 400)).code).toBe(
          'VALIDATION_ERROR',
        );
      const createdCursor = (await getJson<ListPage>('/v2/admin/settlement/?limit=1')).nextCursor!;
      const forged = Buffer.from(
        JSON.stringify({
          v: 1,
          sort: 'payable',
          order: 'desc',
          key: 'abc',
          id: '00000000-0000-0000-0000-000000000000',
        }),
      ).toString('base64url');
      for (const query of [
        'cursor=not-a-cursor',
        `sort=payable&cursor=${encodeURIComponent(createdCursor)}`,
        `sort=payable&cursor=${forged}`,
      ])
        expect(await getJson(`/v2/admin/settlement/?${query}`, 400)).toEqual({
          code: 'INVALID_CURSOR',
          errors: [{ field: 'cursor', code: 'invalid' }],
        });
    });
    it('answers the planner estimate above the exact limit (totalEstimated), an exact total below', async () => {
      // The route's limit is 10,000 matches; the same code with a limit of 10 crosses it without
      // inserting 10,000 rows.
      await world.db.query('ANALYZE settlements');
      const all = await truth();
      expect(all.length).toBeGreaterThan(10);
      const list = (query: Record<string, string>) =>
        listSettlements(world.db, settlementListQuerySchema.parse(query), 10);
      const everything = await list({ limit: '5' });
      expect(everything).toMatchObject({ totalEstimated: true });
      expect(everything.total).toBeGreaterThan(10);
      expect(everything.items).toHaveLength(5);
      // Few enough matches: counted exactly (a page short of them) or the page itself.
      const doctor = all[0]!.professional_id;
      const mine = all.filter((row) => row.professional_id === doctor).length;
      expect(mine).toBeLessThanOrEqual(10);
      for (const limit of ['1', '50']) {
        const page = await list({ professionalId: doctor, limit });
        expect(page.total).toBe(mine);
        expect(page).not.toHaveProperty('totalEstimated');
      }
    });
  });

  describe('GET /v2/admin/settlement/professional', () => {
    const sumOf = async (where: string, params: unknown[]) =>
      (
        await world.db.query<Record<keyof Totals, string>>(
          `SELECT count(*)::text AS "settlementCount", count(case_id)::text AS "caseCount",
                  sum(gross_cents)::text AS "grossCents", sum(fee_cents)::text AS "feeCents",
                  sum(net_cents)::text AS "netCents", sum(coalesce(adjusted_cents, net_cents))::text AS "payableCents"
             FROM settlements WHERE status IN ('READY_TO_SETTLE', 'AVAILABLE') ${where}`,
          params,
        )
      ).rows[0]!;
    const asNumbers = (row: Record<string, string | null>) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v ?? 0)]));

    /** Every page of "cases to process" for `query`, `limit` at a time; each page's totals are the same. */
    const allGroups = async (query = '', limit = 200) => {
      const pages: Groups[] = [];
      let cursor: string | null = null;
      do {
        const params = new URLSearchParams(query);
        params.set('limit', String(limit));
        if (cursor) params.set('cursor', cursor);
        const page: Groups = await getJson<Groups>(`/v2/admin/settlement/professional?${params}`);
        expect(page.items.length).toBeLessThanOrEqual(limit);
        if (page.nextCursor) expect(page.items).toHaveLength(limit);
        pages.push(page);
        expect(pages.length).toBeLessThan(1000); // a cursor that does not move on would loop forever
        cursor = page.nextCursor;
      } while (cursor);
      for (const page of pages)
        expect({ total: page.total, totals: page.totals }).toEqual({
          total: pages[0]!.total,
          totals: pages[0]!.totals,
        });
      const items = pages.flatMap((page) => page.items);
      expect(items).toHaveLength(pages[0]!.total);
      return { ...pages[0]!, items, pages: pages.length };
    };

    it('totals every doctor and month to the cent against an independent SQL sum', async () => {
      const body = await allGroups();
      expect(body.pages).toBe(1);
      expect(body.items.length).toBeGreaterThan(1);
      const { currency, ...totals } = body.totals;
      expect(currency).toBe('EUR');
      expect(totals).toEqual(asNumbers(await sumOf('', [])));
      for (const group of body.items) {
        const { professionalId, referenceMonth, missingFields: _, ...amounts } = group;
        const own = asNumbers(
          await sumOf('AND professional_id = $1 AND reference_month = $2', [professionalId, referenceMonth]),
        );
        expect({ professionalId, referenceMonth, ...amounts }).toEqual(
          expect.objectContaining({ professionalId, referenceMonth, ...own }),
        );
      }
      const keys = body.items.map((g) => `${g.professionalId}/${g.referenceMonth}`);
      expect(new Set(keys).size).toBe(keys.length);
    });

    it('pages doctor-months by keyset: newest month, then name, each once, with the totals of all of them', async () => {
      const whole = await allGroups();
      expect(whole.total).toBeGreaterThan(6);
      // The database's own ordering (its collation), not the server's statement: month desc, then name, id.
      const { rows } = await world.db.query<{ ordered: boolean }>(
        `SELECT bool_and(n.m < p.m OR (n.m = p.m AND (n.name, n.id) > (p.name, p.id))) AS ordered
           FROM (SELECT g.ord, g.m, u.name, u.id FROM unnest($1::text[], $2::uuid[]) WITH ORDINALITY AS g(m, pid, ord)
                   JOIN users u ON u.id = g.pid) n
           JOIN (SELECT g.ord, g.m, u.name, u.id FROM unnest($1::text[], $2::uuid[]) WITH ORDINALITY AS g(m, pid, ord)
                   JOIN users u ON u.id = g.pid) p ON p.ord = n.ord - 1`,
        [whole.items.map((g) => g.referenceMonth), whole.items.map((g) => g.professionalId)],
      );
      expect(rows[0]!.ordered).toBe(true);
      for (const limit of [1, 3, 7]) {
        const paged = await allGroups('', limit);
        expect(paged.pages).toBe(Math.ceil(whole.total / limit));
        expect(paged.items).toEqual(whole.items);
        expect(paged.totals).toEqual(whole.totals);
      }
      const month = whole.items[0]!.referenceMonth;
      const inMonth = await allGroups(`referenceMonth=${month}`, 2);
      expect(inMonth.items).toEqual(whole.items.filter((g) => g.referenceMonth === month));
    });

    it('refuses a cursor it did not issue for these filters, and a limit out of bounds', async () => {
      const first = await getJson<Groups>('/v2/admin/settlement/professional?limit=1');
      expect(first.nextCursor).not.toBeNull();
      const cursor = encodeURIComponent(first.nextCursor!);
      await getJson(`/v2/admin/settlement/professional?limit=1&cursor=${cursor}`, 200);
      const month = first.items[0]!.referenceMonth;
      await getJson(
        `/v2/admin/settlement/professional?limit=1&referenceMonth=${month}&cursor=${cursor}`,
        400,
      );
      await getJson('/v2/admin/settlement/professional?cursor=not-a-cursor', 400);
      const forged = Buffer.from(
        JSON.stringify({ v: 1, month: '', doctor: '', key: '2026-13x', id: first.items[0]!.professionalId }),
      ).toString('base64url');
      await getJson(`/v2/admin/settlement/professional?cursor=${forged}`, 400);
      for (const limit of ['0', '201', 'x'])
        await getJson(`/v2/admin/settlement/professional?limit=${limit}`, 400);
    });

    it('narrows to one reference month', async () => {
      const all = await allGroups();
      const month = all.items[0]!.referenceMonth;
      const body = await allGroups(`referenceMonth=${month}`);
      expect(body.items).toEqual(all.items.filter((g) => g.referenceMonth === month));
      const { currency: _, ...totals } = body.totals;
      expect(totals).toEqual(asNumbers(await sumOf('AND reference_month = $1', [month])));
      await getJson('/v2/admin/settlement/professional?referenceMonth=2026-00', 400);
    });

    it('searches doctors by part of their name or full name (q), wildcards taken literally, paged with its own cursor', async () => {
      const all = await allGroups();
      const { rows: doctors } = await world.db.query<{ id: string; name: string; full_name: string | null }>(
        'SELECT id, name, full_name FROM users WHERE id = ANY($1::uuid[])',
        [[...new Set(all.items.map((g) => g.professionalId))]],
      );
      expect(doctors.length).toBeGreaterThan(2);
      const names = (d: (typeof doctors)[number]) => [d.name, d.full_name ?? ''].map((n) => n.toLowerCase());
      // A piece of one doctor's last word, in another case: not every doctor has it.
      const word = doctors[0]!.name.split(' ').at(-1)!;
      const q = word.slice(1, 5).toUpperCase();
      const matching = new Set(
        doctors.filter((d) => names(d).some((n) => n.includes(q.toLowerCase()))).map((d) => d.id),
      );
      expect(matching.size).toBeGreaterThan(0);
      expect(matching.size).toBeLessThan(doctors.length);

      const found = await allGroups(`q=${encodeURIComponent(` ${q} `)}`, 1);
      expect(found.items).toEqual(all.items.filter((g) => matching.has(g.professionalId)));
      const { currency: _, ...totals } = found.totals;
      expect(totals).toEqual(
        asNumbers(await sumOf('AND professional_id = ANY($1::uuid[])', [[...matching]])),
      );

      for (const literal of ['%', '_', '\\'])
        expect(
          (await getJson<Groups>(`/v2/admin/settlement/professional?q=${encodeURIComponent(literal)}`)).total,
        ).toBe(0);

      const first = await getJson<Groups>(
        `/v2/admin/settlement/professional?limit=1&q=${encodeURIComponent(q)}`,
      );
      if (first.nextCursor)
        await getJson(
          `/v2/admin/settlement/professional?limit=1&cursor=${encodeURIComponent(first.nextCursor)}`,
          400,
        );
      const tooLong = await getJson<{ code: string; errors: { field: string }[] }>(
        `/v2/admin/settlement/professional?q=${'a'.repeat(CASES_TO_PROCESS_SEARCH_MAX + 1)}`,
        400,
      );
      expect(tooLong.errors.map((e) => e.field)).toEqual(['q']);
    });

    it('lists what an incomplete doctor lacks, with the user view’s rule', async () => {
      const before = await allGroups();
      const doctor = before.items.find((g) => g.missingFields.length === 0)!.professionalId;
      await world.db.query(
        `UPDATE users SET tax_number = '  ', iban = 'BR1800360305000010009795493C1' WHERE id = $1`,
        [doctor],
      );
      const after = await allGroups();
      for (const group of after.items.filter((g) => g.professionalId === doctor))
        expect(group.missingFields).toEqual(['taxNumber', 'iban']);
      const view = await getJson<{ missingFields: string[] }>(`/v2/admin/users/${doctor}`);
      expect(view.missingFields).toEqual(['taxNumber', 'iban']);
    });
  });

  describe('funds released: READY_TO_SETTLE → AVAILABLE by itself', () => {
    const audits = async () =>
      (
        await world.db.query<{ entity_id: string; actor_id: string | null; before: unknown; after: unknown }>(
          `SELECT entity_id, actor_id, before, after FROM audit_log WHERE action = 'settlement.funds-released'`,
        )
      ).rows;

    it('moves exactly the due rows, one audit row each; a second run changes nothing', async () => {
      const all = await truth();
      const waiting = all.filter((row) => row.status === 'READY_TO_SETTLE');
      const days = [...new Set(waiting.map((row) => row.available_on!))].sort();
      expect(days.length).toBeGreaterThan(1);
      const today = days[Math.floor(days.length / 2) - 1]!;
      const due = waiting.filter((row) => row.available_on! <= today).map((row) => row.id);
      expect(due.length).toBeGreaterThan(0);
      expect(due.length).toBeLessThan(waiting.length);
      expect(await audits()).toEqual([]);

      // Late evening in Lisbon of `today`, still that day there.
      world.clock.current = new Date(`${today}T22:30:00Z`);
      await getJson<ListPage>('/v2/admin/settlement/?limit=1');
      const afterFirst = await truth();
      const moved = afterFirst
        .filter((row) => all.find((old) => old.id === row.id)!.status !== row.status)
        .map((row) => row.id);
      expect(moved.sort()).toEqual([...due].sort());
      for (const row of afterFirst.filter((r) => due.includes(r.id))) expect(row.status).toBe('AVAILABLE');
      const rows = await audits();
      expect(rows.map((r) => r.entity_id).sort()).toEqual([...due].sort());
      for (const row of rows) {
        expect(row.actor_id).toBeNull();
        expect(row.before).toEqual({ status: 'READY_TO_SETTLE' });
        expect(row.after).toEqual(expect.objectContaining({ status: 'AVAILABLE' }));
      }

      await getJson<Groups>('/v2/admin/settlement/professional');
      expect(await releaseDueSettlements(world.db, world.clock.current)).toBe(0);
      expect(await truth()).toEqual(afterFirst);
      expect(await audits()).toHaveLength(due.length);
    });

    it('runs concurrently without moving or auditing a row twice', async () => {
      const waiting = (await truth()).filter((row) => row.status === 'READY_TO_SETTLE');
      const last = waiting
        .map((row) => row.available_on!)
        .sort()
        .at(-1)!;
      const at = new Date(`${last}T12:00:00Z`);
      const before = (await audits()).length;
      const moved = await Promise.all([1, 2, 3].map(() => releaseDueSettlements(world.db, at)));
      expect(moved.reduce((a, b) => a + b, 0)).toBe(waiting.length);
      expect((await truth()).filter((row) => row.status === 'READY_TO_SETTLE')).toEqual([]);
      expect(await audits()).toHaveLength(before + waiting.length);
    });
  });
});
