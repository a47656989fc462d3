/**
 * Why a payment provider's or invoicing program's file is refused, before anything of it is stored.
 * Each code is declared with its HTTP status in `contract/refusal-codes.ts` and translated there
 * (tests/unit/domain/source-refusals.test.ts holds the two lists together); `extra` carries the facts the
 * screen shows beside the words (both numbers of a mismatch, the missing columns, the document or line).
 */
export const SOURCE_REFUSAL_CODES = [
  // SAF-T (PT) sales invoices (docs/decisions/0148)
  'SAFT_UNREADABLE',
  'SAFT_ENCODING_UNSUPPORTED',
  'SAFT_NOT_AUDIT_FILE',
  'SAFT_VERSION_UNSUPPORTED',
  'SAFT_NO_SALES_INVOICES',
  'SAFT_DOCUMENT_INVALID',
  'SAFT_DUPLICATE_DOCUMENT',
  'SAFT_UNKNOWN_CUSTOMER',
  'SAFT_CONTROL_TOTALS_MISMATCH',
  // SAF-T handed over compressed (docs/decisions/0149)
  'SAFT_ARCHIVE_UNREADABLE',
  'SAFT_ARCHIVE_ENTRIES',
  'SAFT_ARCHIVE_TOO_LARGE',
  // Stripe's itemized payout reconciliation report (docs/decisions/0148)
  'STRIPE_REPORT_UNREADABLE',
  'STRIPE_REPORT_EMPTY',
  'STRIPE_REPORT_COLUMNS_MISSING',
  'STRIPE_REPORT_ROW_INVALID',
  'STRIPE_PAYOUT_SUM_MISMATCH',
  // a collector's payout report read through a saved column mapping (docs/decisions/0149)
  'PROVIDER_CSV_MAPPING_INVALID',
  'PROVIDER_CSV_UNREADABLE',
  'PROVIDER_CSV_EMPTY',
  'PROVIDER_CSV_ROW_INVALID',
] as const;

export type SourceRefusalCode = (typeof SOURCE_REFUSAL_CODES)[number];

export interface SourceRefusal {
  code: SourceRefusalCode;
  /** 1-based line of the file where the fault is, when it has one. */
  line?: number;
  extra?: Record<string, unknown>;
}

export type SourceRead<T> = { ok: true; value: T } | { ok: false; refusal: SourceRefusal };

export const refused = (
  code: SourceRefusalCode,
  line?: number,
  extra?: Record<string, unknown>,
): { ok: false; refusal: SourceRefusal } => ({
  ok: false,
  refusal: { code, ...(line === undefined ? {} : { line }), ...(extra === undefined ? {} : { extra }) },
});
