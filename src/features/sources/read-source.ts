import { MAX_SAFT_COMPRESSION_RATIO, MAX_SAFT_XML_BYTES } from '../../../contract/limits';
import {
  type ProviderCsvMapping,
  type ProviderPayoutReport,
  readProviderPayoutCsv,
} from '../../../domain/sources/provider-csv';
import type { SourceRefusal } from '../../../domain/sources/refusal';
import { readSaftFile, type SaftFileRead } from '../../../domain/sources/saft-pt';
import { type SourceKind, sourceEntries } from '../../../domain/sources/source-ids';
import { sourceContainerMismatch } from '../../../domain/sources/source-sniff';
import {
  isPayoutWithdrawn,
  readStripeBalancePayouts,
  type StripeBalancePayoutReport,
} from '../../../domain/sources/stripe-balance-payouts';
import { readStripePayoutReport, type StripePayoutReport } from '../../../domain/sources/stripe-payouts';
import { detectDelimiter } from '../../../domain/statements/csv';
import { csvRows, headLines } from '../../../domain/statements/csv-rows';
import { decodeBytes } from '../../../domain/statements/decode';
import { containerKindOf } from '../../../domain/statements/sniff';
import type { SourcePreviewOutcome } from '../../../machines/source-import';
import { headerKey } from '../../kernel/column-mappings';
import {
  type InvoicePreviewRow,
  MAX_LISTED,
  type PayoutPreviewRow,
  type SourcePreviewDetails,
  type SourcePreviewMessage,
  type SourcePreviewRequest,
  type SourcePreviewRow,
  type StatedPayoutPreviewRow,
} from './preview-protocol';
import { sourceKindOf } from './source-sniff';

/*
 * What the preview worker does with a dropped file (preview.worker.ts runs it): the page's main thread
 * never reads the file — 100,000 payout rows or invoices are read here and sent in chunks, each one
 * string of JSON the page decodes only when it shows one of its rows (issue 31, as issue 12 for
 * statements) —, then their source ids, then what the flow decides on.
 */
const ROWS_CHUNK = 1_000;
const IDS_CHUNK = 10_000;

/** The worker's request with the file's bytes read. */
export type SourceReadInput = Omit<SourcePreviewRequest, 'file'> & { bytes: ArrayBuffer };

type Post = (message: SourcePreviewMessage) => void;

const refusalView = (refusal: SourceRefusal) => ({
  code: refusal.code,
  ...(refusal.line === undefined ? {} : { line: refusal.line }),
  facts: refusal.extra ?? {},
});

function sendRows(rows: readonly SourcePreviewRow[], ids: readonly string[], post: Post): void {
  for (let start = 0; start < rows.length; start += ROWS_CHUNK) {
    const chunk = rows.slice(start, start + ROWS_CHUNK);
    post({ type: 'rows', count: chunk.length, json: JSON.stringify(chunk) });
  }
  for (let start = 0; start < ids.length; start += IDS_CHUNK)
    post({ type: 'ids', ids: ids.slice(start, start + IDS_CHUNK) });
}

/** The CSV's header at the mapping's line with its delimiter (or the ones a first look finds). */
function headerOf(text: string, mapping: ProviderCsvMapping | null): { header: string[]; delimiter: string } {
  const headerLine = mapping?.headerLine ?? 1;
  const head = headLines(text, Math.max(40, headerLine));
  const delimiter = mapping?.delimiter || detectDelimiter(head);
  const rows = csvRows(head, delimiter).rows.filter((cells) => cells.some((cell) => cell.trim() !== ''));
  return { header: headerLine > 0 ? (rows[headerLine - 1] ?? []) : [], delimiter };
}

function payoutRows(report: StripePayoutReport | ProviderPayoutReport): PayoutPreviewRow[] {
  const rows: PayoutPreviewRow[] = [];
  for (const payout of report.payouts)
    for (const row of payout.rows)
      rows.push(
        'balanceTransactionId' in row
          ? {
              line: row.line,
              payoutId: row.payoutId,
              date: (payout as StripePayoutReport['payouts'][number]).effectiveDate,
              category: row.category,
              kind: row.kind,
              currency: row.currency,
              grossCents: row.grossCents,
              feeCents: row.feeCents,
              netCents: row.netCents,
              reference: row.paymentIntentId ?? row.chargeId ?? row.sourceId,
            }
          : {
              line: row.line,
              payoutId: row.payoutId,
              date: row.date,
              category: null,
              kind: null,
              currency: 'EUR',
              grossCents: row.grossCents,
              feeCents: row.feeCents,
              netCents: row.netCents,
              reference: row.reference,
            },
      );
  return rows;
}

function payoutDetails(report: StripePayoutReport | ProviderPayoutReport): SourcePreviewDetails {
  return {
    kind: 'payouts',
    payouts: report.payouts.slice(0, MAX_LISTED).map((payout) =>
      'effectiveDate' in payout
        ? {
            id: payout.id,
            date: payout.effectiveDate,
            currency: payout.currency,
            rows: payout.rows.length,
            grossCents: payout.grossCents,
            feeCents: payout.feeCents,
            netCents: payout.netCents,
            amountChecked: payout.amountChecked,
            byKind: payout.byKind,
          }
        : {
            id: payout.id,
            date: payout.date,
            currency: 'EUR',
            rows: payout.rows.length,
            grossCents: payout.grossCents,
            feeCents: payout.feeCents,
            netCents: payout.netCents,
            amountChecked: null,
            byKind: {},
          },
    ),
    payoutCount: report.payouts.length,
    incomplete: report.incomplete,
  };
}

function statedPayoutRows(report: StripeBalancePayoutReport): StatedPayoutPreviewRow[] {
  return report.payouts.map((payout) => ({
    line: payout.line,
    payoutId: payout.id,
    date: payout.effectiveDate,
    expectedArrivalDate: payout.expectedArrivalDate,
    status: payout.status,
    currency: payout.currency,
    amountCents: payout.amountCents,
  }));
}

function statedPayoutDetails(report: StripeBalancePayoutReport, totalCents: number): SourcePreviewDetails {
  return {
    kind: 'statedPayouts',
    payoutCount: report.payouts.length,
    withdrawn: report.payouts.filter((payout) => isPayoutWithdrawn(payout.status)).length,
    totalCents,
    otherRows: report.otherRows,
    incomplete: report.incomplete,
  };
}

function invoiceRows(read: SaftFileRead): InvoicePreviewRow[] {
  return read.documents.map((doc) => ({
    line: doc.line,
    invoiceNo: doc.invoiceNo,
    type: doc.type,
    status: doc.status,
    crediting: doc.crediting,
    date: doc.date,
    customerTaxId: doc.customerTaxId,
    grossCents: doc.grossCents,
    netCents: doc.netCents,
    taxCents: doc.taxCents,
  }));
}

function invoiceDetails(read: SaftFileRead): SourcePreviewDetails {
  return {
    kind: 'invoices',
    companyName: read.companyName,
    companyTaxId: read.companyTaxId,
    startDate: read.startDate,
    endDate: read.endDate,
    software: read.software,
    container: read.container,
    documents: read.documents.length,
    creditNotes: read.documents.filter((doc) => doc.crediting).length,
    cancelled: read.cancelled.slice(0, MAX_LISTED),
    cancelledCount: read.cancelled.length,
    numberOfEntries: read.numberOfEntries,
    totalDebit: read.totalDebit,
    totalCredit: read.totalCredit,
  };
}

/** Reads the file as `kind` and sends its rows; what the flow decides on, and what the screen shows. */
function preview(
  kind: SourceKind,
  bytes: Uint8Array,
  request: SourceReadInput,
  post: Post,
): { outcome: SourcePreviewOutcome; details: SourcePreviewDetails | null } {
  const empty = { kind, refusal: null, rows: 0, totalCents: 0, ids: [], csv: null };
  const container = sourceContainerMismatch(kind, bytes);
  if (container !== null) {
    return {
      outcome: { ...empty, refusal: { code: 'SOURCE_NOT_THIS_KIND', facts: { container, kind } } },
      details: null,
    };
  }
  if (kind === 'SAFT_INVOICES') {
    const read = readSaftFile(bytes, { maxBytes: MAX_SAFT_XML_BYTES, maxRatio: MAX_SAFT_COMPRESSION_RATIO });
    if (!read.ok) return { outcome: { ...empty, refusal: refusalView(read.refusal) }, details: null };
    const entries = sourceEntries(kind, read.value);
    sendRows(invoiceRows(read.value), entries.ids, post);
    return {
      outcome: { ...empty, rows: entries.rows, totalCents: entries.totalCents },
      details: invoiceDetails(read.value),
    };
  }
  const { text } = decodeBytes(bytes);
  if (kind === 'STRIPE_BALANCE_PAYOUTS') {
    const read = readStripeBalancePayouts(text);
    if (!read.ok) return { outcome: { ...empty, refusal: refusalView(read.refusal) }, details: null };
    const entries = sourceEntries(kind, read.value);
    sendRows(statedPayoutRows(read.value), entries.ids, post);
    return {
      outcome: { ...empty, rows: entries.rows, totalCents: entries.totalCents },
      details: statedPayoutDetails(read.value, entries.totalCents),
    };
  }
  if (kind === 'STRIPE_PAYOUTS') {
    const read = readStripePayoutReport(text);
    if (!read.ok) return { outcome: { ...empty, refusal: refusalView(read.refusal) }, details: null };
    const entries = sourceEntries(kind, read.value);
    sendRows(payoutRows(read.value), entries.ids, post);
    return {
      outcome: { ...empty, rows: entries.rows, totalCents: entries.totalCents },
      details: payoutDetails(read.value),
    };
  }
  // A collector's report is read through the mapping applied, else the one remembered for its header;
  // without either, the admin picks its columns first.
  const first = headerOf(text, request.mapping);
  const mapping = request.mapping ?? request.remembered[headerKey(first.header)] ?? null;
  if (!mapping) {
    return {
      outcome: { ...empty, csv: { header: first.header, mapping: { headerLine: 1 }, chosen: false } },
      details: null,
    };
  }
  const { header } = headerOf(text, mapping);
  const csv = { header, mapping, chosen: true };
  const read = readProviderPayoutCsv(text, mapping);
  if (!read.ok) return { outcome: { ...empty, csv, refusal: refusalView(read.refusal) }, details: null };
  const entries = sourceEntries(kind, read.value);
  sendRows(payoutRows(read.value), entries.ids, post);
  return {
    outcome: { ...empty, csv, rows: entries.rows, totalCents: entries.totalCents },
    details: payoutDetails(read.value),
  };
}

/**
 * The file of `request` read as the kind picked, else as the kind its bytes are: its rows and ids posted
 * as they are ready, then the outcome and details returned (the caller posts them as `done`).
 */
export function previewSource(
  request: SourceReadInput,
  post: Post,
): { outcome: SourcePreviewOutcome; details: SourcePreviewDetails | null } {
  const bytes = new Uint8Array(request.bytes);
  const kind = request.kind ?? sourceKindOf(bytes);
  if (kind !== null) return preview(kind, bytes, request, post);
  const refusal = { code: 'SOURCE_NOT_THIS_KIND', facts: { container: containerKindOf(bytes) ?? 'binary' } };
  return { outcome: { kind: null, refusal, rows: 0, totalCents: 0, ids: [], csv: null }, details: null };
}
