import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { dashboardSchema } from '../../contract/dashboard';
import type { MonthClose } from '../../contract/month-close';
import type { StatementLineRow } from '../../contract/reconciliation';
import type { SourceFileRow } from '../../contract/source-import';
import type { Database } from '../../server/db/client';
import {
  DEMO_UNINVOICED_PAYMENTS,
  type DemoSourcesSummary,
  importDemoSources,
} from '../../server/demo-sources';
import { type DemoPayment, readDemoPayments } from '../../server/seed/demo-payments';
import { writeDemoSourceFiles } from '../../server/seed/source-files';
import { createSourceImports } from '../../server/sources/source-import';
import { createStatementImports } from '../../server/statements/import';
import { testDatabaseKinds } from '../support/databases';
import { bearer, insertUser, issueToken, type RunningApi, startApi } from './harness';
import { seededSourceDatabase } from './source-support';

type Dashboard = z.infer<typeof dashboardSchema>;

const NOW = new Date('2026-03-15T10:00:00Z');
/** The seed's last complete month before NOW: the one whose SAF-T leaves payments out. */
const LAST_COMPLETE = '2026-02';

describe.each(testDatabaseKinds())('the demo imports its payouts and invoices on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  let token: string;
  let seeded: Awaited<ReturnType<typeof seededSourceDatabase>>;
  let demo: DemoSourcesSummary;
  let payments: DemoPayment[];

  beforeAll(async () => {
    seeded = await seededSourceDatabase(kind, NOW);
    ({ db } = seeded);
    const { storage } = seeded;
    const statementImports = createStatementImports({ db, storage });
    demo = await importDemoSources(db, createSourceImports({ db, storage, statementImports }), NOW);
    payments = await readDemoPayments(db);
    api = await startApi(db);
    token = await issueToken(db, await insertUser(db, { email: 'demo-reader@example.pt', admin: true }));
  }, 240_000);
  afterAll(async () => {
    await api?.stop();
    await seeded?.close();
  });

  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${api.url}${path}`, { headers: bearer(token) });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };

  it("imports per month with payouts Stripe's two reports and per month a SAF-T, each file listed DONE, every payout checked", async () => {
    const months = [...new Set(payments.map((p) => p.paidOn.slice(0, 7)))];
    const withPayouts: string[] = [];
    for (const month of months)
      if ((await writeDemoSourceFiles(db, month)).payouts.length > 0) withPayouts.push(month);
    expect(demo.files).toBe(months.length + 2 * withPayouts.length);
    const listed = await get<{ items: SourceFileRow[] }>('/v2/admin/sources/files?limit=100');
    expect(listed.items.map((f) => f.fileName).sort()).toEqual(
      [
        ...months.map((m) => `saft-${m}.xml`),
        ...withPayouts.flatMap((m) => [`stripe-payouts-${m}.csv`, `stripe-balance-payouts-${m}.csv`]),
      ].sort(),
    );
    // The Balance report states each payout's amount: every one checked against its rows (decision 0171).
    const { rows } = await db.query<{ unchecked: number; stated: number }>(
      `SELECT count(*) FILTER (WHERE NOT amount_checked)::int AS unchecked,
              count(*) FILTER (WHERE stated_amount_cents IS NOT NULL)::int AS stated
         FROM provider_payouts WHERE gross_cents IS NOT NULL`,
    );
    expect(rows[0]!.unchecked).toBe(0);
    expect(rows[0]!.stated).toBeGreaterThan(0);
  });

  it('leaves the first payments of the last complete month uninvoiced: the home card counts them', async () => {
    const expected = payments
      .filter((p) => p.paidOn.startsWith(LAST_COMPLETE) && !p.refunded)
      .slice(0, DEMO_UNINVOICED_PAYMENTS);
    expect(demo.uninvoiced).toEqual(expected.map((p) => p.reference));
    const dashboard = await get<Dashboard>('/v2/admin/dashboard');
    expect(dashboard.attention.settlementsNotInvoiced.count).toBe(DEMO_UNINVOICED_PAYMENTS);
    expect(dashboard.attention.invoicesWithoutPaidSettlement.count).toBe(0);
  });

  it('closes the last complete month with every invoice and credit note it issued accounted for', async () => {
    const sales = payments.filter((p) => p.paidOn.startsWith(LAST_COMPLETE));
    const invoiced = sales.filter((p) => !demo.uninvoiced.includes(p.reference));
    const close = await get<MonthClose>(`/v2/admin/finance/month-close?month=${LAST_COMPLETE}`);
    const invoices = close.rows.find((row) => row.source === 'INVOICES')!;
    // One FR per invoiced payment, one NC per refunded one (the cancelled duplicate is not stored), and the
    // seed's monthly bill of the invoicing program to the platform, paid by its direct debit.
    expect(invoices.matched.count).toBe(invoiced.length + invoiced.filter((p) => p.refunded).length + 1);
    expect(invoices.unmatched.count).toBe(0);
  });

  it('shows a bank credit of a payout that paid an uninvoiced payment with its fees, refunds and "sem fatura"', async () => {
    const { payouts } = await writeDemoSourceFiles(db, LAST_COMPLETE);
    const payout = payouts.find((p) => p.rows.some((r) => demo.uninvoiced.includes(r.payment.reference)))!;
    const lines = await get<{ items: StatementLineRow[] }>(
      '/v2/admin/statements/lines?payoutWithoutInvoice=true&limit=100',
    );
    const credit = lines.items.find((line) => line.payoutBreakdown?.netCents === payout.netCents);
    expect(credit?.status).toBe('MATCHED');
    const breakdown = credit!.payoutBreakdown!;
    expect(breakdown.feeCents).toBe(payout.rows.reduce((sum, r) => sum + r.feeCents, 0));
    expect(breakdown.refunds.count).toBe(payout.rows.filter((r) => r.kind === 'refund').length);
    expect(breakdown.settlementsWithoutInvoice).toBe(
      new Set(
        payout.rows
          .filter((r) => r.kind === 'charge' && demo.uninvoiced.includes(r.payment.reference))
          .map((r) => r.payment.reference),
      ).size,
    );
  });
});
