import type { ProviderPayoutReport } from './provider-csv';
import type { SaftDocument, SaftSalesInvoices } from './saft-pt';
import type { StripeBalancePayoutReport } from './stripe-balance-payouts';
import type { StripeBalanceRow, StripePayoutReport } from './stripe-payouts';

/**
 * The files issue 31 imports, and each row's identity in its own source: the one recipe the
 * console's preview (asking which rows were imported before) and the server's import (deduplicating)
 * both use, so the two always agree on what "already imported" means (decision 0152). Stripe's Balance
 * report of payouts, which states each payout's amount, is a kind of its own (decision 0171).
 */
export const SOURCE_KINDS = [
  'STRIPE_PAYOUTS',
  'STRIPE_BALANCE_PAYOUTS',
  'COLLECTOR_PAYOUTS',
  'SAFT_INVOICES',
] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** The longest source id stored (a Stripe payout and balance transaction id are ≤ 255 each). */
export const SOURCE_ID_MAX = 600;

/** A Stripe balance transaction: `po_…/txn_…` (a balance transaction belongs to one payout). */
export const stripeRowSourceId = (row: Pick<StripeBalanceRow, 'payoutId' | 'balanceTransactionId'>): string =>
  `${row.payoutId}/${row.balanceTransactionId}`;

/** A payout Stripe's Balance report states: its id alone, `po_…` (the report has one row per payout). */
export const stripeStatedPayoutSourceId = (payout: { id: string }): string => payout.id;

/** A SAF-T document: `InvoiceNo|ATCUD` (`FT 1T/1|JFA3KM8N-1`). */
export const saftDocumentSourceId = (doc: Pick<SaftDocument, 'invoiceNo' | 'atcud'>): string =>
  `${doc.invoiceNo}|${doc.atcud}`;

/**
 * A collector's rows have no id of their own: a row is its payout and what it says — the payment's
 * reference and amounts — and, for rows saying the same within one payout, its rank among them
 * (`#2`, `#3`, …), so a file read twice gives the same ids and two equal payments stay two rows.
 */
export function collectorRowSourceIds(report: ProviderPayoutReport): string[] {
  const ids: string[] = [];
  for (const payout of report.payouts) {
    const seen = new Map<string, number>();
    for (const row of payout.rows) {
      const base = `${payout.id}/${row.reference ?? ''}|${row.grossCents}|${row.feeCents}|${row.netCents}`;
      const rank = (seen.get(base) ?? 0) + 1;
      seen.set(base, rank);
      ids.push(rank === 1 ? base : `${base}#${rank}`);
    }
  }
  return ids;
}

/** What a document counts for in a file's total: an invoice its gross, a credit note minus it. */
export const saftSignedCents = (doc: Pick<SaftDocument, 'crediting' | 'grossCents'>): number =>
  doc.crediting ? -doc.grossCents : doc.grossCents;

export interface SourceEntries {
  /** Each imported row's source id, in file order (payouts by date then id, their rows in order). */
  ids: string[];
  /**
   * The rows imported (cancelled SAF-T documents and Stripe's own `payout` rows are not rows); for
   * Stripe's Balance report, the payouts it states.
   */
  rows: number;
  /**
   * Payouts: Σ rows' net; Stripe's Balance report: Σ stated amounts; SAF-T: Σ gross of the documents,
   * credit notes subtracted. Cents.
   */
  totalCents: number;
}

export type SourceReadOf = {
  STRIPE_PAYOUTS: StripePayoutReport;
  STRIPE_BALANCE_PAYOUTS: StripeBalancePayoutReport;
  COLLECTOR_PAYOUTS: ProviderPayoutReport;
  SAFT_INVOICES: SaftSalesInvoices;
};

/** A read file's rows as the preview counts them and the import checks them: ids, count and total. */
export function sourceEntries<K extends SourceKind>(kind: K, read: SourceReadOf[K]): SourceEntries {
  if (kind === 'SAFT_INVOICES') {
    const { documents } = read as SaftSalesInvoices;
    return {
      ids: documents.map(saftDocumentSourceId),
      rows: documents.length,
      totalCents: documents.reduce((sum, doc) => sum + saftSignedCents(doc), 0),
    };
  }
  if (kind === 'STRIPE_BALANCE_PAYOUTS') {
    const { payouts } = read as StripeBalancePayoutReport;
    return {
      ids: payouts.map(stripeStatedPayoutSourceId),
      rows: payouts.length,
      totalCents: payouts.reduce((sum, payout) => sum + payout.amountCents, 0),
    };
  }
  if (kind === 'STRIPE_PAYOUTS') {
    const { payouts } = read as StripePayoutReport;
    const rows = payouts.flatMap((payout) => payout.rows);
    return {
      ids: rows.map(stripeRowSourceId),
      rows: rows.length,
      totalCents: payouts.reduce((sum, payout) => sum + payout.netCents, 0),
    };
  }
  const report = read as ProviderPayoutReport;
  return {
    ids: collectorRowSourceIds(report),
    rows: report.rowCount,
    totalCents: report.payouts.reduce((sum, payout) => sum + payout.netCents, 0),
  };
}
