// The demo's month written as the two source files (server/seed/source-files.ts, decision 0149): the
// SAF-T is valid against the official XSD, and both files read back with the domain readers give the
// seed's own figures — each payout's net is its `provider_payouts` amount, the invoices are the month's
// payments at their prices, a credit note per refund, the cancelled document apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSaftSalesInvoicesText } from '../../domain/sources/saft-pt';
import { readStripePayoutReport } from '../../domain/sources/stripe-payouts';
import type { Database } from '../../server/db/client';
import { type DemoSourceFiles, writeDemoSourceFiles } from '../../server/seed/source-files';
import { SOURCE_MONTH as MONTH, seededSourceDatabase } from '../api/source-support';
import { testDatabaseKinds } from '../support/databases';
import { saftSchemaCheck } from '../support/saft-xsd';

const schema = saftSchemaCheck();
afterAll(() => schema.close());

describe.each(testDatabaseKinds())('the demo month as source files on $name', (kind) => {
  let seeded: Awaited<ReturnType<typeof seededSourceDatabase>>;
  let db: Database;
  let files: DemoSourceFiles;
  beforeAll(async () => {
    seeded = await seededSourceDatabase(kind);
    db = seeded.db;
    files = await writeDemoSourceFiles(db, MONTH);
  });
  afterAll(async () => seeded?.close());

  it('writes a SAF-T (PT) file valid against the official XSD', () => {
    expect(schema.errors(files.saft, 'demo-month.xml')).toBe('');
  });

  it("reads the SAF-T back as the month's payments at their prices, a credit note per refund", () => {
    const read = readSaftSalesInvoicesText(files.saft);
    if (!read.ok) throw new Error(JSON.stringify(read.refusal));
    const month = files.payments.filter((p) => p.paidOn.startsWith(MONTH));
    const refunded = month.filter((p) => p.refunded);
    expect(month.length).toBeGreaterThan(5);
    expect(refunded.length).toBeGreaterThan(0);
    const invoices = read.value.documents.filter((d) => !d.crediting);
    const credits = read.value.documents.filter((d) => d.crediting);
    // Each invoice names the case or subscription payment it bills, at its price.
    expect(new Map(invoices.map((d) => [d.orderReferences[0], d.grossCents]))).toEqual(
      new Map(month.map((p) => [p.reference, p.grossCents])),
    );
    const invoiceOf = new Map(invoices.map((d) => [d.invoiceNo, d.orderReferences[0]]));
    expect(credits.map((d) => [invoiceOf.get(d.references[0]!), d.grossCents]).sort()).toEqual(
      refunded.map((p) => [p.reference, p.grossCents]).sort(),
    );
    expect(read.value.cancelled).toHaveLength(1);
    expect(read.value.cancelled[0]!.reason).toBe('Emitida em duplicado');
  });

  it("reads the Stripe report back as the seed's payouts: each net its provider_payouts amount", async () => {
    const { rows } = await db.query<{ provider_payout_id: string; amount_cents: string }>(
      `SELECT provider_payout_id, amount_cents::text FROM provider_payouts
        WHERE to_char(payout_date, 'YYYY-MM') = $1`,
      [MONTH],
    );
    const seeded = new Map(rows.map((r) => [r.provider_payout_id, Number(r.amount_cents)]));
    expect(seeded.size).toBeGreaterThanOrEqual(3);
    const read = readStripePayoutReport(files.stripeReport, { payoutAmounts: seeded });
    if (!read.ok) throw new Error(JSON.stringify(read.refusal));
    expect(new Map(read.value.payouts.map((p) => [p.id, p.netCents]))).toEqual(seeded);
    expect(read.value.payouts.every((p) => p.amountChecked)).toBe(true);
    expect(read.value.incomplete).toBe(false);
    // Fees taken on every charge, and the month's refunds given back.
    const kinds = read.value.payouts.flatMap((p) => p.rows.map((r) => r.kind));
    expect(kinds).toContain('refund');
    expect(read.value.payouts.every((p) => p.feeCents > 0)).toBe(true);
  });
});
