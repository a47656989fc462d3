import { MAX_SAFT_COMPRESSION_RATIO, MAX_SAFT_XML_BYTES } from '../../contract/limits';
import { type ProviderCsvMapping, readProviderPayoutCsv } from '../../domain/sources/provider-csv';
import type { SourceRefusal } from '../../domain/sources/refusal';
import { readSaftFile } from '../../domain/sources/saft-pt';
import {
  collectorRowSourceIds,
  type SourceEntries,
  type SourceKind,
  saftDocumentSourceId,
  saftSignedCents,
  sourceEntries,
  stripeRowSourceId,
  stripeStatedPayoutSourceId,
} from '../../domain/sources/source-ids';
import { caseReferenceOf } from '../../domain/sources/source-sniff';
import {
  readStripeBalancePayouts,
  type StripePayoutStatus,
} from '../../domain/sources/stripe-balance-payouts';
import { readStripePayoutReport } from '../../domain/sources/stripe-payouts';
import { decodeBytes } from '../../domain/statements/decode';

/**
 * An uploaded source file read on the server with the preview's own readers (domain/sources/), into the
 * rows the import inserts: plain data, so a worker thread can hand it over (source-reader.ts). Pure CPU.
 */

export interface PayoutOut {
  /** The provider's payout id (`po_…`). */
  providerId: string;
  date: string;
  grossCents: number;
  feeCents: number;
  netCents: number;
  amountChecked: boolean;
}

export interface PayoutRowOut {
  sourceId: string;
  providerPayoutId: string;
  category: string;
  rowKind: 'charge' | 'refund' | 'dispute' | 'fee' | 'other';
  grossCents: number;
  feeCents: number;
  netCents: number;
  chargeId: string | null;
  paymentIntentId: string | null;
  reference: string | null;
  description: string | null;
  occurredOn: string | null;
  caseReference: string | null;
}

/** A payout as Stripe's Balance report states it (decision 0171). */
export interface StatedPayoutOut {
  sourceId: string;
  /** The provider's payout id (`po_…`). */
  providerId: string;
  /** The day its funds leave the Stripe balance: the payout's date, as the itemized report gives it. */
  date: string;
  expectedArrivalDate: string;
  status: StripePayoutStatus;
  /** What the bank is paid, cents. */
  amountCents: number;
}

export interface DocumentOut {
  sourceId: string;
  invoiceNo: string;
  atcud: string;
  type: string;
  crediting: boolean;
  status: string;
  date: string;
  customerTaxId: string;
  grossCents: number;
  netCents: number;
  taxCents: number;
  /** The signed amount (`provider_invoices.amount_cents`): a credit note's is negative. */
  amountCents: number;
  caseReference: string | null;
  /** For a credit note: the first document its lines reference. */
  creditsInvoiceNo: string | null;
}

export interface SourceReading {
  kind: SourceKind;
  entries: SourceEntries;
  controlTotalsChecked: boolean;
  /** What the file says of itself, kept on its row (`source_files.summary`). */
  summary: Record<string, unknown>;
  payouts: PayoutOut[];
  payoutRows: PayoutRowOut[];
  statedPayouts: StatedPayoutOut[];
  documents: DocumentOut[];
  cancelled: number | null;
  /** A SAF-T's XML size as the reader counted it (decides where its schema check is awaited, decision 0163). */
  xmlBytes: number | null;
}

/** The rows, or a reader's refusal (the schema's own, `SAFT_SCHEMA_INVALID`, is source-reader.ts's). */
export type SourceUploadReading = { refused: SourceRefusal } | { reading: SourceReading };

const dayOf = (text: string | null) => (text && /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : null);

const textOf = (bytes: Uint8Array) => decodeBytes(bytes).text.replace(/^\uFEFF/, '');

export async function readSourceUpload(
  kind: SourceKind,
  bytes: Uint8Array,
  mapping: ProviderCsvMapping | undefined,
): Promise<SourceUploadReading> {
  if (kind === 'SAFT_INVOICES') return readSaft(bytes);
  if (kind === 'STRIPE_PAYOUTS') return readStripe(bytes);
  if (kind === 'STRIPE_BALANCE_PAYOUTS') return readStripeBalance(bytes);
  return readCollector(bytes, mapping ?? {});
}

function readSaft(bytes: Uint8Array): SourceUploadReading {
  const read = readSaftFile(bytes, { maxBytes: MAX_SAFT_XML_BYTES, maxRatio: MAX_SAFT_COMPRESSION_RATIO });
  if (!read.ok) return { refused: read.refusal };
  const file = read.value;
  const documents = file.documents.map(
    (doc): DocumentOut => ({
      sourceId: saftDocumentSourceId(doc),
      invoiceNo: doc.invoiceNo,
      atcud: doc.atcud,
      type: doc.type,
      crediting: doc.crediting,
      status: doc.status,
      date: doc.date,
      customerTaxId: doc.customerTaxId,
      grossCents: doc.grossCents,
      netCents: doc.netCents,
      taxCents: doc.taxCents,
      amountCents: saftSignedCents(doc),
      caseReference: doc.crediting ? null : caseReferenceOf([...doc.orderReferences, ...doc.lineTexts]),
      creditsInvoiceNo: doc.crediting ? (doc.references[0] ?? null) : null,
    }),
  );
  return {
    reading: {
      kind: 'SAFT_INVOICES',
      entries: sourceEntries('SAFT_INVOICES', file),
      controlTotalsChecked: true,
      summary: {
        container: file.container,
        // Set once the check against the official XSD, running beside this read, answers (source-reader.ts).
        schemaChecked: false,
        companyTaxId: file.companyTaxId,
        companyName: file.companyName,
        startDate: file.startDate,
        endDate: file.endDate,
        software: file.software,
        numberOfEntries: file.numberOfEntries,
        totalDebit: file.totalDebit,
        totalCredit: file.totalCredit,
        cancelled: file.cancelled.map(({ invoiceNo, atcud, type, date, reason, grossCents }) => ({
          invoiceNo,
          atcud,
          type,
          date,
          reason,
          grossCents,
        })),
      },
      payouts: [],
      payoutRows: [],
      statedPayouts: [],
      documents,
      cancelled: file.cancelled.length,
      xmlBytes: file.xmlBytes,
    },
  };
}

function readStripe(bytes: Uint8Array): SourceUploadReading {
  const read = readStripePayoutReport(textOf(bytes));
  if (!read.ok) return { refused: read.refusal };
  const report = read.value;
  const foreign = notEuro(report.payouts, (payout) => payout.rows[0]!.line);
  if (foreign) return foreign;
  const payoutRows = report.payouts.flatMap((payout) =>
    payout.rows.map(
      (row): PayoutRowOut => ({
        sourceId: stripeRowSourceId(row),
        providerPayoutId: payout.id,
        category: row.category,
        rowKind: row.kind,
        grossCents: row.grossCents,
        feeCents: row.feeCents,
        netCents: row.netCents,
        chargeId: row.chargeId,
        paymentIntentId: row.paymentIntentId,
        reference: row.sourceId,
        description: row.description,
        occurredOn: dayOf(row.createdAt),
        caseReference: caseReferenceOf([row.description]),
      }),
    ),
  );
  return {
    reading: {
      kind: 'STRIPE_PAYOUTS',
      entries: sourceEntries('STRIPE_PAYOUTS', report),
      controlTotalsChecked: report.payouts.every((payout) => payout.amountChecked),
      summary: {
        incomplete: report.incomplete,
        payouts: report.payouts.map((p) => ({
          id: p.id,
          date: p.effectiveDate,
          netCents: p.netCents,
          byKind: p.byKind,
        })),
      },
      payouts: report.payouts.map((p) => ({
        providerId: p.id,
        date: p.effectiveDate,
        grossCents: p.grossCents,
        feeCents: p.feeCents,
        netCents: p.netCents,
        amountChecked: p.amountChecked,
      })),
      payoutRows,
      statedPayouts: [],
      documents: [],
      cancelled: null,
      xmlBytes: null,
    },
  };
}

/** Payouts are stored in cents of euro (`provider_payouts.currency`): another currency is refused up front. */
function notEuro<P extends { currency: string }>(
  payouts: readonly P[],
  lineOf: (payout: P) => number,
): SourceUploadReading | null {
  const foreign = payouts.find((payout) => payout.currency !== 'EUR');
  if (!foreign) return null;
  return {
    refused: {
      code: 'STRIPE_REPORT_ROW_INVALID',
      line: lineOf(foreign),
      extra: { column: 'currency', reason: 'NOT_EUR', currency: foreign.currency },
    },
  };
}

function readStripeBalance(bytes: Uint8Array): SourceUploadReading {
  const read = readStripeBalancePayouts(textOf(bytes));
  if (!read.ok) return { refused: read.refusal };
  const report = read.value;
  const foreign = notEuro(report.payouts, (payout) => payout.line);
  if (foreign) return foreign;
  return {
    reading: {
      kind: 'STRIPE_BALANCE_PAYOUTS',
      entries: sourceEntries('STRIPE_BALANCE_PAYOUTS', report),
      // The file is itself the payouts' control totals: what it states is checked against their rows.
      controlTotalsChecked: false,
      summary: {
        incomplete: report.incomplete,
        otherRows: report.otherRows,
        payouts: report.payouts.map((p) => ({
          id: p.id,
          date: p.effectiveDate,
          expectedArrivalDate: p.expectedArrivalDate,
          status: p.status,
          amountCents: p.amountCents,
        })),
      },
      payouts: [],
      payoutRows: [],
      statedPayouts: report.payouts.map((p) => ({
        sourceId: stripeStatedPayoutSourceId(p),
        providerId: p.id,
        date: p.effectiveDate,
        expectedArrivalDate: p.expectedArrivalDate,
        status: p.status,
        amountCents: p.amountCents,
      })),
      documents: [],
      cancelled: null,
      xmlBytes: null,
    },
  };
}

function readCollector(bytes: Uint8Array, mapping: ProviderCsvMapping): SourceUploadReading {
  const read = readProviderPayoutCsv(textOf(bytes), mapping);
  if (!read.ok) return { refused: read.refusal };
  const report = read.value;
  const ids = collectorRowSourceIds(report);
  const rows = report.payouts.flatMap((payout) => payout.rows.map((row) => ({ payout, row })));
  return {
    reading: {
      kind: 'COLLECTOR_PAYOUTS',
      entries: sourceEntries('COLLECTOR_PAYOUTS', report),
      controlTotalsChecked: false,
      summary: {
        incomplete: report.incomplete,
        delimiter: report.delimiter,
        payouts: report.payouts.map((p) => ({ id: p.id, date: p.date, netCents: p.netCents })),
      },
      payouts: report.payouts.map((p) => ({
        providerId: p.id,
        date: p.date,
        grossCents: p.grossCents,
        feeCents: p.feeCents,
        netCents: p.netCents,
        amountChecked: false,
      })),
      payoutRows: rows.map(
        ({ payout, row }, index): PayoutRowOut => ({
          sourceId: ids[index]!,
          providerPayoutId: payout.id,
          category: 'payment',
          rowKind: row.netCents < 0 ? 'refund' : 'charge',
          grossCents: row.grossCents,
          feeCents: row.feeCents,
          netCents: row.netCents,
          chargeId: null,
          paymentIntentId: null,
          reference: row.reference,
          description: null,
          occurredOn: row.date,
          caseReference: caseReferenceOf([row.reference]),
        }),
      ),
      statedPayouts: [],
      documents: [],
      cancelled: null,
      xmlBytes: null,
    },
  };
}
