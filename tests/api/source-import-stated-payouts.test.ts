// Stripe's Balance report of payouts imported beside its itemized reconciliation report (issue 31, decision
// 0171), over HTTP on both backends: each payout's stated amount, arrival date and status recorded — the
// payout created by whichever file comes first and checked by the second —, in either order the same
// payouts, a payout whose rows do not add up to its stated amount refused with both numbers by the second
// file whichever it is, and each file imported once.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';
import { bearer, count, insertUser, issueToken, postJson, startApi } from './harness';
import { importSource, postSource, type SourceApi, utf8 } from './source-support';
import { importStatement, statementCsv } from './statement-support';

const FIXTURES = fileURLToPath(new URL('../fixtures/sources/', import.meta.url));
const ITEMIZED = readFileSync(`${FIXTURES}made-here-stripe-payout-reconciliation-itemized-5.csv`, 'utf8');
const BALANCE = readFileSync(`${FIXTURES}made-here-stripe-balance-payouts-itemized-5.csv`, 'utf8');

/** The first payout's own balance transaction states one cent more than its rows' net (100.99). */
const BALANCE_ONE_CENT_MORE = BALANCE.replace('0.00,-100.99,-100.99', '0.00,-101.00,-101.00');
/** The first payout's first charge nets one cent more: its rows add up to 101.00, not the stated 100.99. */
const ITEMIZED_ONE_CENT_MORE = ITEMIZED.replace('eur,60.00,1.15,58.85', 'eur,60.00,1.14,58.86');

const itemized = (text = ITEMIZED) => ({
  kind: 'STRIPE_PAYOUTS' as const,
  bytes: utf8(text),
  name: 'itemized.csv',
});
const balance = (text = BALANCE) => ({
  kind: 'STRIPE_BALANCE_PAYOUTS' as const,
  bytes: utf8(text),
  name: 'balance-payouts.csv',
});

async function emptyApi(open: () => Promise<Database>): Promise<SourceApi> {
  const db = await open();
  const api = await startApi(db);
  const token = await issueToken(db, await insertUser(db, { email: 'stated@example.pt', admin: true }));
  return {
    db,
    api,
    token,
    async close() {
      await api.stop();
      await db.close();
    },
  };
}

/** What the database holds of Stripe's payouts, whichever file said it first. */
async function payoutsState(db: Database) {
  const { rows } = await db.query(
    `SELECT provider_payout_id, amount_cents::int, payout_date::text, gross_cents::int, fee_cents::int,
            net_cents::int, amount_checked, stated_amount_cents::int, expected_arrival_date::text, provider_status,
            (SELECT count(*)::int FROM provider_payout_rows r WHERE r.payout_id = p.id) AS rows
       FROM provider_payouts p ORDER BY provider_payout_id`,
  );
  return rows;
}

const counts = async (db: Database) => ({
  jobs: await count(db, 'statement_import_jobs'),
  files: await count(db, 'source_files'),
  payouts: await count(db, 'provider_payouts'),
  rows: await count(db, 'provider_payout_rows'),
  audited: await count(db, `audit_log WHERE action = 'source.imported'`),
});

describe.each(testDatabaseKinds())("Stripe's Balance report of payouts on $name", (kind) => {
  let itemizedFirst: SourceApi;
  let balanceFirst: SourceApi;

  const post = (on: SourceApi, file: ReturnType<typeof itemized> | ReturnType<typeof balance>) =>
    importSource(on, file.bytes, { kind: file.kind, fileName: file.name });

  beforeAll(async () => {
    [itemizedFirst, balanceFirst] = await Promise.all([emptyApi(kind.open), emptyApi(kind.open)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([itemizedFirst?.close(), balanceFirst?.close()]);
  });

  it('the itemized report first, then the Balance report: a stated amount off by a cent is refused with both numbers, the true one checks the payout', async () => {
    const first = await post(itemizedFirst, itemized());
    expect(first.job).toMatchObject({ status: 'DONE', result: { newRows: 8, payouts: 2 } });

    const before = { counts: await counts(itemizedFirst.db), payouts: await payoutsState(itemizedFirst.db) };
    const wrong = await post(itemizedFirst, balance(BALANCE_ONE_CENT_MORE));
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({
      code: 'STRIPE_PAYOUT_SUM_MISMATCH',
      payoutId: 'po_1QaAmarketplace01',
      payoutCents: 10100,
      rowsNetCents: 10099,
    });
    expect({ counts: await counts(itemizedFirst.db), payouts: await payoutsState(itemizedFirst.db) }).toEqual(
      before,
    );

    const second = await post(itemizedFirst, balance());
    expect(second.job).toMatchObject({
      kind: 'STRIPE_BALANCE_PAYOUTS',
      status: 'DONE',
      result: { newRows: 3, duplicatesSkipped: 0, payouts: 3, documents: null, linked: 2, unlinked: 1 },
    });
  });

  it('the Balance report first, then the itemized report: rows off by a cent are refused with both numbers, the true ones check the payout', async () => {
    const first = await post(balanceFirst, balance());
    expect(first.job).toMatchObject({
      status: 'DONE',
      result: { newRows: 3, payouts: 3, linked: 0, unlinked: 3 },
    });
    // Created from what the report states: what the bank is due, when, and that no rows say so yet.
    expect((await payoutsState(balanceFirst.db))[0]).toMatchObject({
      provider_payout_id: 'po_1QaAmarketplace01',
      amount_cents: 10099,
      payout_date: '2026-10-05',
      net_cents: null,
      amount_checked: false,
      stated_amount_cents: 10099,
      expected_arrival_date: '2026-10-07',
      provider_status: 'paid',
      rows: 0,
    });

    const before = { counts: await counts(balanceFirst.db), payouts: await payoutsState(balanceFirst.db) };
    const wrong = await post(balanceFirst, itemized(ITEMIZED_ONE_CENT_MORE));
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({
      code: 'STRIPE_PAYOUT_SUM_MISMATCH',
      payoutId: 'po_1QaAmarketplace01',
      payoutCents: 10099,
      rowsNetCents: 10100,
    });
    expect({ counts: await counts(balanceFirst.db), payouts: await payoutsState(balanceFirst.db) }).toEqual(
      before,
    );

    const second = await post(balanceFirst, itemized());
    expect(second.job).toMatchObject({ status: 'DONE', result: { newRows: 8, payouts: 2 } });
  });

  it('either order leaves the same payouts: amounts checked, arrival dates and statuses, the failed one owing no rows', async () => {
    const state = await payoutsState(itemizedFirst.db);
    expect(await payoutsState(balanceFirst.db)).toEqual(state);
    expect(state).toEqual([
      {
        provider_payout_id: 'po_1QaAmarketplace01',
        amount_cents: 10099,
        payout_date: '2026-10-05',
        gross_cents: 12000,
        fee_cents: 1901,
        net_cents: 10099,
        amount_checked: true,
        stated_amount_cents: 10099,
        expected_arrival_date: '2026-10-07',
        provider_status: 'paid',
        rows: 5,
      },
      {
        provider_payout_id: 'po_1QbBmarketplace02',
        amount_cents: 9222,
        payout_date: '2026-10-06',
        gross_cents: 7800,
        fee_cents: -1422,
        net_cents: 9222,
        amount_checked: true,
        stated_amount_cents: 9222,
        expected_arrival_date: '2026-10-08',
        provider_status: 'in_transit',
        rows: 3,
      },
      {
        provider_payout_id: 'po_1QcCmarketplace03',
        amount_cents: 4150,
        payout_date: '2026-10-07',
        gross_cents: null,
        fee_cents: null,
        net_cents: null,
        amount_checked: false,
        stated_amount_cents: 4150,
        expected_arrival_date: '2026-10-09',
        provider_status: 'failed',
        rows: 0,
      },
    ]);
    // Each import audited, one job and one file each; the refused ones left nothing.
    for (const db of [itemizedFirst.db, balanceFirst.db])
      expect(await counts(db)).toMatchObject({ jobs: 2, files: 2, audited: 2 });
    // The second file's payouts all checked against the first's: its control totals checked. The Balance
    // report states a failed payout no rows will ever come for, so it never is.
    const checkedFiles = async (db: Database) =>
      (await db.query('SELECT kind, control_totals_checked FROM source_files ORDER BY imported_at, kind'))
        .rows;
    expect(await checkedFiles(itemizedFirst.db)).toEqual([
      { kind: 'STRIPE_PAYOUTS', control_totals_checked: false },
      { kind: 'STRIPE_BALANCE_PAYOUTS', control_totals_checked: false },
    ]);
    expect(await checkedFiles(balanceFirst.db)).toEqual([
      { kind: 'STRIPE_BALANCE_PAYOUTS', control_totals_checked: false },
      { kind: 'STRIPE_PAYOUTS', control_totals_checked: true },
    ]);
  });

  it('imports each file once: the same bytes again, or the same payouts in other bytes, bring nothing new', async () => {
    const before = await counts(itemizedFirst.db);
    const again = await post(itemizedFirst, balance());
    expect(again).toMatchObject({ status: 409, body: { code: 'SOURCE_ALREADY_IMPORTED' } });
    // The same payouts, rows in another order: other bytes, nothing new.
    const [header, ...lines] = BALANCE.trimEnd().split('\n');
    const reordered = await post(itemizedFirst, balance(`${[header, ...lines.reverse()].join('\n')}\n`));
    expect(reordered).toMatchObject({ status: 409, body: { code: 'SOURCE_NOTHING_NEW' } });
    expect(await counts(itemizedFirst.db)).toEqual(before);
  });

  it('the preview learns which payouts a Balance report stated before, and from which file', async () => {
    const response = await postJson(
      `${itemizedFirst.api.url}/v2/admin/sources/known`,
      { kind: 'STRIPE_BALANCE_PAYOUTS', ids: ['po_1QcCmarketplace03', 'po_never'] },
      bearer(itemizedFirst.token),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      known: [{ id: 'po_1QcCmarketplace03', fileName: 'balance-payouts.csv' }],
    });
  });

  it('refuses the itemized report sent as the Balance report, naming the columns it lacks, before any job', async () => {
    const before = await counts(itemizedFirst.db);
    const response = await postSource(itemizedFirst, utf8(ITEMIZED), {
      kind: 'STRIPE_BALANCE_PAYOUTS',
      fileName: 'itemized.csv',
      expected: { rows: 1, totalCents: 0 },
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      code: 'STRIPE_REPORT_COLUMNS_MISSING',
      missing: expect.arrayContaining(['payout_id', 'payout_status']),
    });
    expect(await counts(itemizedFirst.db)).toEqual(before);
  });

  it("offers a bank credit the payout it pays, never a failed payout's: no bank credit is due for it", async () => {
    const statement = await importStatement(
      { url: balanceFirst.api.url, token: balanceFirst.token },
      statementCsv([
        {
          date: '05-10-2026',
          description: 'STRIPE PAYMENTS po_1QaAmarketplace01',
          cents: 10099,
          counterparty: 'Stripe',
        },
        {
          date: '07-10-2026',
          description: 'STRIPE PAYMENTS po_1QcCmarketplace03',
          cents: 4150,
          counterparty: 'Stripe',
        },
      ]),
      'october.csv',
    );
    expect(statement.status).toBe(202);
    const { rows } = await balanceFirst.db.query<{ description: string; payouts: string[] }>(
      `SELECT l.description, array_remove(array_agg(p.provider_payout_id ORDER BY p.provider_payout_id), NULL) AS payouts
         FROM statement_lines l
         LEFT JOIN statement_line_matches m ON m.statement_line_id = l.id
         LEFT JOIN provider_payouts p ON p.id = m.payout_id
        GROUP BY l.id, l.description ORDER BY l.description`,
    );
    expect(rows).toEqual([
      { description: 'STRIPE PAYMENTS po_1QaAmarketplace01', payouts: ['po_1QaAmarketplace01'] },
      { description: 'STRIPE PAYMENTS po_1QcCmarketplace03', payouts: [] },
    ]);

    // Nor does the operator's match picker offer it: the line has no candidate, as the table's filter says.
    const { rows: lines } = await balanceFirst.db.query<{ id: string }>(
      `SELECT id FROM statement_lines WHERE description = 'STRIPE PAYMENTS po_1QcCmarketplace03'`,
    );
    const get = async <T>(path: string) => {
      const response = await fetch(`${balanceFirst.api.url}${path}`, { headers: bearer(balanceFirst.token) });
      expect(response.status, path).toBe(200);
      return (await response.json()) as T;
    };
    const picked = await get<{ candidates: { label: string }[] }>(
      `/v2/admin/statements/lines/${lines[0]!.id}/candidates`,
    );
    expect(picked.candidates.map((c) => c.label)).not.toContain('po_1QcCmarketplace03');
    const lonely = await get<{ items: { id: string }[] }>(
      `/v2/admin/statements/lines?noCandidate=true&text=po_1QcC`,
    );
    expect(lonely.items.map((l) => l.id)).toEqual([lines[0]!.id]);

    // The month closes without it: a payout Stripe says failed is accounted for, never left to match.
    const { rows: payouts } = await balanceFirst.db.query<{
      payout_date: string;
      amount_cents: number;
      provider_status: string | null;
    }>(
      `SELECT payout_date::text, amount_cents::int, provider_status FROM provider_payouts ORDER BY provider_payout_id`,
    );
    const failed = payouts.filter((p) => p.provider_status === 'failed');
    expect(failed).toHaveLength(1);
    const month = failed[0]!.payout_date.slice(0, 7);
    const close = await get<{
      rows: { source: string; matched: { count: number }; unmatched: { count: number } }[];
    }>(`/v2/admin/finance/month-close?month=${month}`);
    const inMonth = payouts.filter((p) => p.payout_date.startsWith(month));
    const left = (
      await balanceFirst.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM provider_payouts p
        WHERE to_char(p.payout_date, 'YYYY-MM') = $1 AND p.provider_status IS DISTINCT FROM 'failed'
          AND NOT EXISTS (SELECT 1 FROM statement_line_matches m WHERE m.payout_id = p.id AND m.state = 'MATCHED')`,
        [month],
      )
    ).rows[0]!.n;
    expect(close.rows.find((r) => r.source === 'PAYOUTS')).toMatchObject({
      matched: { count: inMonth.length - left },
      unmatched: { count: left },
    });
  });
});
