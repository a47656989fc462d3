import { z } from 'zod';
import { blankToUndefined, optionalFilter, pageSchema } from './common';
import { referenceMonthSchema } from './finance';
import { MONTH_CLOSE_SOURCES, PROVIDER_DOCUMENT_KINDS } from './statuses';

export type { MonthCloseSource, ProviderDocumentKind } from './statuses';

/**
 * The month closed in one view (issue 31, docs/decisions/0155): per reference month, what of each
 * source is matched and what is left. What "matched" means for each source is written beside it below
 * and in the decision; the console says it on screen.
 */

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
