import type { ProviderCsvMapping } from '../../../domain/sources/provider-csv';
import type { SaftCancelledDocument } from '../../../domain/sources/saft-pt';
import type { SourceKind } from '../../../domain/sources/source-ids';
import type { StripePayoutStatus } from '../../../domain/sources/stripe-balance-payouts';
import type { StripeRowKind } from '../../../domain/sources/stripe-payouts';
import type { SourcePreviewOutcome } from '../../../machines/source-import';

/**
 * What the page asks the preview worker: the file itself (a handle: the worker reads its bytes, so the
 * page never holds 40 MB of them), the kind picked (null: the bytes decide), the mapping.
 */
export interface SourcePreviewRequest {
  file: Blob;
  kind: SourceKind | null;
  /** The collector mapping the admin applied; null: the one remembered for the header, if any. */
  mapping: ProviderCsvMapping | null;
  /** Collector mappings the admin confirmed before, by `headerKey` of their CSV header. */
  remembered: Record<string, ProviderCsvMapping>;
}

/** Payouts and cancelled documents sent to the page: enough to look through, not 100,000 of them. */
export const MAX_LISTED = 500;

/** One balance transaction (Stripe) or collected payment (a collector) of a payout. */
export interface PayoutPreviewRow {
  line: number;
  payoutId: string;
  /** The payout's day. */
  date: string;
  /** Stripe's reporting category and what it means for reconciliation; null for a collector's row. */
  category: string | null;
  kind: StripeRowKind | null;
  currency: string;
  grossCents: number;
  feeCents: number;
  netCents: number;
  /** The payment it settles: Stripe's payment intent or charge, a collector's reference. */
  reference: string | null;
}

/** One document of a SAF-T file's sales invoices (cancelled ones are listed apart). */
export interface InvoicePreviewRow {
  line: number;
  invoiceNo: string;
  type: string;
  status: string;
  crediting: boolean;
  date: string;
  customerTaxId: string;
  grossCents: number;
  netCents: number;
  taxCents: number;
}

/** A payout Stripe's Balance report states: its amount, when it should reach the bank, its status. */
export interface StatedPayoutPreviewRow {
  line: number;
  payoutId: string;
  /** The day its funds leave the Stripe balance. */
  date: string;
  expectedArrivalDate: string;
  status: StripePayoutStatus;
  currency: string;
  amountCents: number;
}

export type SourcePreviewRow = PayoutPreviewRow | StatedPayoutPreviewRow | InvoicePreviewRow;

/** A payout of the file: its sums, and whether the amount it states was checked against its rows. */
export interface PayoutSummary {
  id: string;
  date: string;
  currency: string;
  rows: number;
  grossCents: number;
  feeCents: number;
  netCents: number;
  /** Stripe: a `payout` row's amount was checked; null: the file states none (a collector's). */
  amountChecked: boolean | null;
  /** Stripe: rows and net per kind (refunds, disputes and fees shown as such). */
  byKind: Partial<Record<StripeRowKind, { count: number; netCents: number }>>;
}

/** What the preview shows beside the rows (the flow reads `SourcePreviewOutcome`). */
export type SourcePreviewDetails =
  | {
      kind: 'payouts';
      payouts: PayoutSummary[];
      payoutCount: number;
      /** The last line had no line break and was not read. */
      incomplete: boolean;
    }
  | {
      kind: 'statedPayouts';
      payoutCount: number;
      /** Failed or canceled: no bank credit is due for them. */
      withdrawn: number;
      totalCents: number;
      /** Rows of other categories (a failed payout's reversal, …), read and not imported. */
      otherRows: number;
      incomplete: boolean;
    }
  | {
      kind: 'invoices';
      companyName: string | null;
      companyTaxId: string | null;
      startDate: string | null;
      endDate: string | null;
      software: string | null;
      container: string;
      documents: number;
      creditNotes: number;
      cancelled: SaftCancelledDocument[];
      cancelledCount: number;
      /** The control totals as declared; the reader refuses the file when they disagree with its documents. */
      numberOfEntries: number;
      totalDebit: string;
      totalCredit: string;
    };

/**
 * The worker's answers: the rows in chunks (`json`: `count` rows as a JSON array, one string the page
 * copies), then their source ids, then what the whole file said.
 */
export type SourcePreviewMessage =
  | { type: 'rows'; count: number; json: string }
  | { type: 'ids'; ids: string[] }
  | { type: 'done'; outcome: SourcePreviewOutcome; details: SourcePreviewDetails | null };
