import { MAX_SAFT_COMPRESSION_RATIO, MAX_SAFT_XML_BYTES } from '../contract/limits';
import type { SourceKind } from '../contract/source-import';
import { todayInLisbon } from '../domain/business-days';
import { readSaftFile } from '../domain/sources/saft-pt';
import { sourceEntries } from '../domain/sources/source-ids';
import { readStripeBalancePayouts } from '../domain/sources/stripe-balance-payouts';
import { readStripePayoutReport } from '../domain/sources/stripe-payouts';
import type { Database } from './db/client';
import { readDemoPayments } from './seed/demo-payments';
import { writeDemoSaft, writeDemoSourceFiles, writeDemoStripeBalancePayouts } from './seed/source-files';
import type { SourceImports } from './sources/source-import';

/**
 * The demo's payouts and invoices as an operator's month end brings them in (issue 31, decision 0159):
 * each seeded month's Stripe itemized payout report, Stripe's Balance report of its payouts (each payout's
 * stated amount, so every payout is checked — decision 0171) and the invoicing program's SAF-T (PT) export, written
 * from the seeded payments (`seed/source-files.ts`) and imported through the product's own import job —
 * the one `POST /v2/admin/sources/imports` starts — so the demo's links, month close, home cards and
 * payout breakdowns are the product's, not seeded rows. A few payments of the last complete month are
 * left out of its SAF-T (the invoicing program had not issued them), so "paid, never invoiced" has
 * something to show; the current month's SAF-T runs to today.
 *
 * `npm start` calls it once, right after it seeded an empty database. The test suites' seed does not:
 * their expectations count the seeded rows without imported documents (decision 0159).
 */
export const DEMO_UNINVOICED_PAYMENTS = 3;

export interface DemoSourcesSummary {
  files: number;
  /** The payments left out of the SAF-T (their settlements are "paid, never invoiced"). */
  uninvoiced: string[];
}

export async function importDemoSources(
  db: Database,
  sourceImports: SourceImports,
  now: Date = new Date(),
): Promise<DemoSourcesSummary> {
  const admin = await db.query<{ id: string }>(
    "SELECT id FROM users WHERE role = 'ADMIN' ORDER BY created_at, id LIMIT 1",
  );
  const adminId = admin.rows[0]?.id;
  if (!adminId) throw new Error('the demo has no admin to import its sources as');
  const today = todayInLisbon(now);
  const thisMonth = today.slice(0, 7);
  const payments = await readDemoPayments(db);
  const months = [...new Set(payments.map((p) => p.paidOn.slice(0, 7)))].sort();
  const lastComplete = months.filter((m) => m < thisMonth).at(-1);
  const uninvoiced = payments
    .filter((p) => lastComplete && p.paidOn.startsWith(lastComplete) && !p.refunded)
    .slice(0, DEMO_UNINVOICED_PAYMENTS)
    .map((p) => p.reference);
  let files = 0;
  const importFile = async (kind: SourceKind, fileName: string, text: string) => {
    const bytes = new TextEncoder().encode(text);
    // What the screen's preview counts before it sends a file (the server checks the file against it).
    const entries = previewEntries(kind, fileName, text, bytes);
    const job = await sourceImports.start(
      { userId: adminId, at: new Date() },
      {
        bytes,
        query: { kind, fileName, expectedRows: entries.rows, expectedTotalCents: entries.totalCents },
        idempotency: null,
      },
    );
    await sourceImports.settled();
    const done = await sourceImports.job(job.id, new Date());
    if (done?.status !== 'DONE') throw new Error(`the demo's ${fileName} did not import: ${done?.errorCode}`);
    files++;
  };
  for (const month of months) {
    const { stripeReport, payouts } = await writeDemoSourceFiles(db, month);
    if (payouts.length > 0) {
      await importFile('STRIPE_PAYOUTS', `stripe-payouts-${month}.csv`, stripeReport);
      const balance = writeDemoStripeBalancePayouts(payouts);
      await importFile('STRIPE_BALANCE_PAYOUTS', `stripe-balance-payouts-${month}.csv`, balance);
    }
    const createdOn = month === thisMonth ? today : lastDayOf(month);
    const invoiced = payments.filter((p) => !uninvoiced.includes(p.reference));
    await importFile('SAFT_INVOICES', `saft-${month}.xml`, writeDemoSaft(month, invoiced, createdOn));
  }
  return { files, uninvoiced };
}

function previewEntries(kind: SourceKind, fileName: string, text: string, bytes: Uint8Array) {
  const refused = (refusal: unknown) =>
    new Error(`the demo's ${fileName} does not read: ${JSON.stringify(refusal)}`);
  if (kind === 'SAFT_INVOICES') {
    const read = readSaftFile(bytes, { maxBytes: MAX_SAFT_XML_BYTES, maxRatio: MAX_SAFT_COMPRESSION_RATIO });
    if (!read.ok) throw refused(read.refusal);
    return sourceEntries(kind, read.value);
  }
  if (kind === 'STRIPE_BALANCE_PAYOUTS') {
    const read = readStripeBalancePayouts(text);
    if (!read.ok) throw refused(read.refusal);
    return sourceEntries(kind, read.value);
  }
  const read = readStripePayoutReport(text);
  if (!read.ok) throw refused(read.refusal);
  return sourceEntries('STRIPE_PAYOUTS', read.value);
}

const lastDayOf = (month: string) =>
  new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);
