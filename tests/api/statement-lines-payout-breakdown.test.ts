// Issue 31 (decision 0156): a bank credit matched to a payout, three ways. The demo month's Stripe report
// and SAF-T go through the sources import, one payment's invoice left out of the SAF-T; a statement with
// the payout's credit goes through the statement import and is matched by the line's own route. The lines
// list then gives the payout's fees and refunds, and of the settlements its charges paid, the invoiced
// ones and their sum, and the one without an invoice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatementLineRow } from '../../contract/reconciliation';
import { type DemoStripePayout, writeDemoSaft, writeDemoSourceFiles } from '../../server/seed/source-files';
import { testDatabaseKinds } from '../support/databases';
import { bearer, postJson } from './harness';
import { importSource, SOURCE_MONTH, type SourceApi, seededSourceApi, utf8 } from './source-support';
import { importStatement, statementCsv } from './statement-support';

const dayMonthYear = (iso: string) => iso.split('-').reverse().join('-');

describe.each(testDatabaseKinds())('a line matched to an imported payout, three ways, on $name', (kind) => {
  let api: SourceApi;
  let payout: DemoStripePayout;
  let uninvoiced: string;
  let files: Awaited<ReturnType<typeof writeDemoSourceFiles>>;

  beforeAll(async () => {
    api = await seededSourceApi(kind);
    files = await writeDemoSourceFiles(api.db, SOURCE_MONTH);
    // A payout of the month with a refund, whose payments were all paid (so invoiced) that month.
    const found = files.payouts.find(
      (p) =>
        p.rows.some((r) => r.kind === 'refund') &&
        p.rows.filter((r) => r.kind === 'charge' && !r.payment.refunded).length >= 2 &&
        p.rows.every((r) => r.payment.paidOn.startsWith(SOURCE_MONTH)),
    );
    if (!found) throw new Error('the demo month has no payout with a refund');
    payout = found;
    uninvoiced = payout.rows.find((r) => r.kind === 'charge' && !r.payment.refunded)!.payment.reference;
    const saft = writeDemoSaft(
      SOURCE_MONTH,
      files.payments.filter((p) => p.reference !== uninvoiced),
      `${SOURCE_MONTH}-31`,
    );
    const stripe = await importSource(api, utf8(files.stripeReport), {
      kind: 'STRIPE_PAYOUTS',
      fileName: 'payouts.csv',
    });
    expect(stripe.job?.status).toBe('DONE');
    const invoices = await importSource(api, utf8(saft), { kind: 'SAFT_INVOICES', fileName: 'saft.xml' });
    expect(invoices.job?.status).toBe('DONE');
  }, 180_000);
  afterAll(async () => {
    await api?.close();
  });

  const listed = async (
    statementFileId: string,
    filter: Record<string, string> = {},
  ): Promise<StatementLineRow[]> => {
    const response = await fetch(
      `${api.api.url}/v2/admin/statements/lines?${new URLSearchParams({ statementFileId, ...filter })}`,
      { headers: bearer(api.token) },
    );
    expect(response.status).toBe(200);
    return ((await response.json()) as { items: StatementLineRow[] }).items;
  };

  it('gives the payout its fees, refunds, invoiced settlements and the one without an invoice', async () => {
    const statement = await importStatement(
      { url: api.api.url, token: api.token },
      statementCsv([
        {
          date: dayMonthYear(payout.date),
          description: `STRIPE PAYMENTS ${payout.id}`,
          cents: payout.netCents,
          counterparty: 'Stripe',
        },
        { date: dayMonthYear(payout.date), description: 'TRANSFERENCIA DIVERSA', cents: 1234 },
      ]),
      'payout.csv',
    );
    expect(statement.status).toBe(202);
    const statementFileId = (statement.job as { result: { statementFileId: string } }).result.statementFileId;
    const [credit, other] = await listed(statementFileId);
    const { rows } = await api.db.query<{ id: string }>(
      'SELECT id FROM provider_payouts WHERE provider_payout_id = $1',
      [payout.id],
    );
    // The seed's bank already paid this payout: that line lets go of it first (`u`).
    const seeded = await api.db.query<{ line_id: string }>(
      `SELECT statement_line_id AS line_id FROM statement_line_matches
        WHERE payout_id = $1 AND state = 'MATCHED' AND statement_line_id <> $2`,
      [rows[0]!.id, credit!.id],
    );
    for (const { line_id } of seeded.rows) {
      const undone = await postJson(
        `${api.api.url}/v2/admin/statements/lines/${line_id}/unmatch`,
        {},
        bearer(api.token),
      );
      expect(undone.status).toBe(200);
    }
    if (credit!.status !== 'MATCHED') {
      const matched = await postJson(
        `${api.api.url}/v2/admin/statements/lines/${credit!.id}/match`,
        { counterparts: [{ kind: 'PAYOUT', id: rows[0]!.id }] },
        bearer(api.token),
      );
      expect(matched.status).toBe(200);
    }

    const charges = payout.rows.filter((r) => r.kind === 'charge');
    const refunds = payout.rows.filter((r) => r.kind === 'refund');
    const invoiced = charges.filter((r) => r.payment.reference !== uninvoiced);
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    const [line, unlinked] = await listed(statementFileId);
    expect(line!.status).toBe('MATCHED');
    expect(line!.payoutBreakdown).toEqual({
      grossCents: sum(payout.rows.map((r) => r.grossCents)),
      feeCents: sum(payout.rows.map((r) => r.feeCents)),
      netCents: payout.netCents,
      charges: { count: charges.length, netCents: sum(charges.map((r) => r.netCents)) },
      refunds: { count: refunds.length, netCents: sum(refunds.map((r) => r.netCents)) },
      disputes: { count: 0, netCents: 0 },
      invoicedSettlements: invoiced.length,
      // A refunded payment's invoice is offset by its credit note (the month's SAF-T holds one per refund).
      invoicedCents: sum(invoiced.filter((r) => !r.payment.refunded).map((r) => r.payment.grossCents)),
      settlementsWithoutInvoice: 1,
    });
    expect(refunds.length).toBeGreaterThan(0);
    expect(invoiced.some((r) => r.payment.refunded)).toBe(true);
    // A line not matched to a payout keeps today's columns, no breakdown.
    expect(unlinked!.id).toBe(other!.id);
    expect(unlinked!.payoutBreakdown).toBeNull();

    // The "settlement without invoice" filter lists the credit and leaves the other line out.
    const withoutInvoice = await listed(statementFileId, { payoutWithoutInvoice: 'true' });
    expect(withoutInvoice.map((l) => l.id)).toEqual([line!.id]);

    // The missing invoice comes in a later SAF-T (next month's, numbered after the whole first month): the
    // payout's kept count follows the import (migration 0056), so the filter and the breakdown let go of it.
    const missing = files.payments.find((p) => p.reference === uninvoiced)!;
    const late = await importSource(
      api,
      utf8(writeDemoSaft('2026-02', [...files.payments, { ...missing, paidOn: '2026-02-02' }], '2026-02-28')),
      { kind: 'SAFT_INVOICES', fileName: 'saft-late.xml' },
    );
    expect(late.job?.status).toBe('DONE');
    const [invoicedLine] = await listed(statementFileId);
    expect(invoicedLine!.payoutBreakdown).toMatchObject({
      invoicedSettlements: invoiced.length + 1,
      settlementsWithoutInvoice: 0,
    });
    expect(await listed(statementFileId, { payoutWithoutInvoice: 'true' })).toEqual([]);
  }, 120_000);

  /**
   * Decision 0166: a sales document whose payment the provider collected (its settlement a charge of an
   * imported payout) is paid by the payout's credit. A customer's transfer of the same amount, the next day,
   * printing the customer's name, is not offered it — a direct transfer offered it would pay it twice.
   */
  it("does not offer a card payment's invoice to a customer's transfer of its amount and name", async () => {
    const paid = payout.rows.find(
      (r) => r.kind === 'charge' && !r.payment.refunded && r.payment.reference !== uninvoiced,
    )!;
    const { rows } = await api.db.query<{ id: string; name: string | null }>(
      `SELECT i.id, c.counterparty_name AS name FROM provider_invoices i
         JOIN settlements s ON s.id = i.settlement_id
         JOIN statement_counterparts c ON c.id = i.id
        WHERE s.case_id::text = $1 OR s.subscription_payment_id::text = $1`,
      [paid.payment.reference],
    );
    expect(rows).toHaveLength(1);
    const invoice = rows[0]!;
    expect(invoice.name).toBeTruthy();
    const statement = await importStatement(
      { url: api.api.url, token: api.token },
      statementCsv([
        {
          date: dayMonthYear(paid.payment.paidOn),
          description: `TRF SEPA ${invoice.name!.toUpperCase()}`,
          cents: paid.payment.grossCents,
        },
      ]),
      'customer-transfer.csv',
    );
    expect(statement.status).toBe(202);
    const statementFileId = (statement.job as { result: { statementFileId: string } }).result.statementFileId;
    const [line] = await listed(statementFileId);
    expect(line!.suggestion?.id).not.toBe(invoice.id);
    expect(line!.status).not.toBe('MATCHED');
  }, 120_000);

  it('refuses a filter value other than true, before any SQL', async () => {
    const response = await fetch(`${api.api.url}/v2/admin/statements/lines?payoutWithoutInvoice=yes`, {
      headers: bearer(api.token),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
