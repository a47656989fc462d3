import type { PayoutBreakdown } from '../../contract/reconciliation';
import type { Queryable } from '../db/client';

/** A payout's own figures and its rows' invoicing, as the page's one query reads them. */
interface PayoutBreakdownRow {
  payout_id: string;
  gross_cents: string | number;
  fee_cents: string | number;
  net_cents: string | number;
  charges: number;
  charges_net_cents: string | number;
  refunds: number;
  refunds_net_cents: string | number;
  disputes: number;
  disputes_net_cents: string | number;
  invoiced_settlements: number;
  invoiced_cents: string | number;
  settlements_without_invoice: number;
}

/**
 * The three-way view of payouts imported with their rows (issue 31, decision 0156): gross, fees and net,
 * the rows by kind, and the settlements their charges paid — invoiced (an invoice bills it, as the month
 * close's `SETTLEMENT_INVOICED` says; their sum) or not: that count is the one each payout keeps
 * (migration 0056, decision 0167), which the "payout without invoice" filter reads too. One query for all
 * the payouts of a page; a payout imported without rows (the seed's) is left out.
 */
export async function payoutBreakdowns(
  db: Queryable,
  payoutIds: readonly string[],
): Promise<Map<string, PayoutBreakdown>> {
  if (payoutIds.length === 0) return new Map();
  const { rows } = await db.query<PayoutBreakdownRow>(
    // The page's rows read once (MATERIALIZED: one index scan, not one per use, and no parallel workers to
    // start for a few thousand rows — half the query's time on the loaded 2-core machine, decision 0167).
    `WITH payout_rows AS MATERIALIZED (
       SELECT r.payout_id, r.row_kind, r.net_cents, r.settlement_id FROM provider_payout_rows r
        WHERE r.payout_id = ANY($1::uuid[])),
     kinds AS (
       SELECT r.payout_id,
              count(*) FILTER (WHERE r.row_kind = 'charge')::int AS charges,
              coalesce(sum(r.net_cents) FILTER (WHERE r.row_kind = 'charge'), 0) AS charges_net_cents,
              count(*) FILTER (WHERE r.row_kind = 'refund')::int AS refunds,
              coalesce(sum(r.net_cents) FILTER (WHERE r.row_kind = 'refund'), 0) AS refunds_net_cents,
              count(*) FILTER (WHERE r.row_kind = 'dispute')::int AS disputes,
              coalesce(sum(r.net_cents) FILTER (WHERE r.row_kind = 'dispute'), 0) AS disputes_net_cents
         FROM payout_rows r GROUP BY r.payout_id),
     paid AS (
       SELECT DISTINCT r.payout_id, r.settlement_id FROM payout_rows r
        WHERE r.row_kind = 'charge' AND r.settlement_id IS NOT NULL),
     billed AS (
       SELECT p.payout_id, p.settlement_id, i.invoiced_cents FROM paid p
         LEFT JOIN LATERAL (
           -- a credit note bills no settlement itself: it offsets the invoice it corrects (a refund's)
           SELECT sum(i.amount_cents + coalesce(nc.cents, 0)) AS invoiced_cents FROM provider_invoices i
             LEFT JOIN LATERAL (SELECT sum(n.amount_cents) AS cents FROM provider_invoices n
                                 WHERE n.credited_invoice_id = i.id) nc ON true
            WHERE i.settlement_id = p.settlement_id
           HAVING count(*) > 0) i ON true),
     invoicing AS (
       SELECT b.payout_id,
              count(*) FILTER (WHERE b.invoiced_cents IS NOT NULL)::int AS invoiced_settlements,
              coalesce(sum(b.invoiced_cents), 0) AS invoiced_cents
         FROM billed b GROUP BY b.payout_id)
     SELECT k.*, p.gross_cents, p.fee_cents, p.net_cents,
            coalesce(v.invoiced_settlements, 0) AS invoiced_settlements,
            coalesce(v.invoiced_cents, 0) AS invoiced_cents,
            p.settlements_without_invoice
       FROM kinds k JOIN provider_payouts p ON p.id = k.payout_id
       LEFT JOIN invoicing v ON v.payout_id = k.payout_id`,
    [payoutIds],
  );
  return new Map(
    rows.map((r) => [
      r.payout_id,
      {
        grossCents: Number(r.gross_cents ?? 0),
        feeCents: Number(r.fee_cents ?? 0),
        netCents: Number(r.net_cents ?? 0),
        charges: { count: r.charges, netCents: Number(r.charges_net_cents) },
        refunds: { count: r.refunds, netCents: Number(r.refunds_net_cents) },
        disputes: { count: r.disputes, netCents: Number(r.disputes_net_cents) },
        invoicedSettlements: r.invoiced_settlements,
        invoicedCents: Number(r.invoiced_cents),
        settlementsWithoutInvoice: r.settlements_without_invoice,
      },
    ]),
  );
}

/** The breakdown of a line's payouts together (a line may be matched to two payouts); null without any. */
export function combinedBreakdown(parts: readonly PayoutBreakdown[]): PayoutBreakdown | null {
  if (parts.length === 0) return null;
  const add = (a: { count: number; netCents: number }, b: { count: number; netCents: number }) => ({
    count: a.count + b.count,
    netCents: a.netCents + b.netCents,
  });
  return parts.reduce((sum, p) => ({
    grossCents: sum.grossCents + p.grossCents,
    feeCents: sum.feeCents + p.feeCents,
    netCents: sum.netCents + p.netCents,
    charges: add(sum.charges, p.charges),
    refunds: add(sum.refunds, p.refunds),
    disputes: add(sum.disputes, p.disputes),
    invoicedSettlements: sum.invoicedSettlements + p.invoicedSettlements,
    invoicedCents: sum.invoicedCents + p.invoicedCents,
    settlementsWithoutInvoice: sum.settlementsWithoutInvoice + p.settlementsWithoutInvoice,
  }));
}
