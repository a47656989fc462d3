import { z } from 'zod';
import { blankToUndefined, optionalFilter, pageSchema } from './common';
import { referenceMonthSchema } from './finance';

/**
 * The month closed in one view (issue 31, docs/decisions/0155): per reference month, what of each
 * source is matched and what is left. What "matched" means for each source is written beside it below
 * and in the decision; the console says it on screen.
 */

/**
 * The five rows of a month, in the order they are shown:
 * - BANK_LINES: statement lines booked in the month; matched = MATCHED or IGNORED (nothing left to do),
 *   unmatched = UNMATCHED, SUGGESTED or DISCREPANCY (signed bank amounts);
 * - PAYOUTS: the payment provider's payouts dated in the month; matched = a bank line MATCHED to it;
 * - INVOICES: the invoicing program's invoices dated in the month; matched = it bills a settlement (a paid
 *   case or subscription), or a bank line paid it (a bill to the platform); unmatched = an invoice with no
 *   paid settlement;
 * - SETTLEMENTS: settlements of the reference month (each a case or subscription the customer paid, gross
 *   amounts); matched = an invoice bills it; unmatched = paid, never invoiced;
 * - SEPA_FILES: SEPA files of the reference month (the amount the bank accepted); matched = PAID, its batch
 *   debit found on a statement.
 */
export const MONTH_CLOSE_SOURCES = [
  'BANK_LINES',
  'PAYOUTS',
  'INVOICES',
  'SETTLEMENTS',
  'SEPA_FILES',
] as const;
export type MonthCloseSource = (typeof MONTH_CLOSE_SOURCES)[number];

const countAndCents = z.object({ count: z.number().int().min(0), amountCents: z.number().int() });

export const monthCloseQuerySchema = z.object({ month: referenceMonthSchema });

export const monthCloseRowSchema = z.object({
  source: z.enum(MONTH_CLOSE_SOURCES),
  matched: countAndCents,
  unmatched: countAndCents,
});
export type MonthCloseRow = z.infer<typeof monthCloseRowSchema>;

export const monthCloseSchema = z.object({
  month: z.string(),
  /** One row per source, in MONTH_CLOSE_SOURCES order. */
  rows: z.array(monthCloseRowSchema),
});
export type MonthClose = z.infer<typeof monthCloseSchema>;

// ---------------------------------------------------------------------------------------------------
// The provider's documents: the payouts and invoices the month's rows summarise

export const PROVIDER_DOCUMENT_KINDS = ['PAYOUT', 'INVOICE'] as const;
export type ProviderDocumentKind = (typeof PROVIDER_DOCUMENT_KINDS)[number];
export const PROVIDER_DOCUMENTS_PAGE = { default: 100, max: 500 } as const;

export const providerDocumentListQuerySchema = z.object({
  kind: z.enum(PROVIDER_DOCUMENT_KINDS),
  /** Dated in this month (`YYYY-MM`). */
  month: optionalFilter(referenceMonthSchema),
  /**
   * Matched as the month's row counts it (true), or left (false): for invoices, false is "an invoice
   * with no paid settlement", the home card's list.
   */
  matched: optionalFilter(z.enum(['true', 'false']).transform((value) => value === 'true')),
  limit: z.preprocess(
    blankToUndefined,
    z.coerce.number().int().min(1).max(PROVIDER_DOCUMENTS_PAGE.max).default(PROVIDER_DOCUMENTS_PAGE.default),
  ),
  cursor: optionalFilter(z.string().max(2000)),
});
export type ProviderDocumentListQuery = z.output<typeof providerDocumentListQuerySchema>;

export const providerDocumentSchema = z.object({
  id: z.uuid(),
  kind: z.enum(PROVIDER_DOCUMENT_KINDS),
  /** The provider's own id: `po_…`, the invoice number. */
  label: z.string(),
  amountCents: z.number().int(),
  date: z.iso.date(),
  matched: z.boolean(),
  /** An invoice's settlement (what it bills), null for a payout or an invoice that bills none. */
  settlementId: z.uuid().nullable(),
  /** The bank line MATCHED to it, if any. */
  statementLineId: z.uuid().nullable(),
});
export type ProviderDocument = z.infer<typeof providerDocumentSchema>;

export const providerDocumentPageSchema = pageSchema(providerDocumentSchema);
