/**
 * What "matched" means for the payment provider's payouts, the invoicing program's invoices and the
 * settlements they stand beside (docs/decisions/0155), as SQL predicates, read by the month-close view, the
 * provider documents' list and the settlements' `customerInvoiced` filter (finance). The home dashboard's
 * two counters read the totals migration 0046's triggers keep to the same rules (a change here changes
 * them too); tests/db/kept-provider-sides.test.ts checks the kept totals against these predicates.
 */

/**
 * The payout whose status is `statusColumn` owes the bank no credit: Stripe's Balance report says it failed or
 * was canceled (decision 0171). The import's matcher, the match picker and a line's count of candidates leave
 * it out; the month close counts it as accounted for.
 */
export const payoutOwesNoCredit = (statusColumn: string) =>
  `coalesce(${statusColumn} IN ('failed', 'canceled'), false)`;

/** The payout `p` has a bank line MATCHED to it, or owes the bank no credit (it failed, it was canceled). */
export const PAYOUT_MATCHED = `(${payoutOwesNoCredit('p.provider_status')} OR EXISTS (SELECT 1 FROM statement_line_matches m
   WHERE m.payout_id = p.id AND m.state = 'MATCHED'))`;

/**
 * The invoice `i` is accounted for: it bills a settlement (a case or subscription the customer paid), it is
 * a credit note correcting an invoice (migration 0047), or
 * a bank line MATCHED pays it (a bill to the platform, as the invoicing program's own fee). Otherwise it
 * is an invoice with no paid settlement.
 */
export const INVOICE_MATCHED = `(i.settlement_id IS NOT NULL OR i.credited_invoice_id IS NOT NULL OR EXISTS (SELECT 1 FROM statement_line_matches m
   WHERE m.invoice_id = i.id AND m.state = 'MATCHED'))`;

/** The settlement `s` is billed by an invoice; otherwise it was paid and never invoiced. */
export const SETTLEMENT_INVOICED = 'EXISTS (SELECT 1 FROM provider_invoices i WHERE i.settlement_id = s.id)';
