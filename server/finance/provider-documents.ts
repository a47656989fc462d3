import type {
  ProviderDocument,
  ProviderDocumentKind,
  ProviderDocumentListQuery,
} from '../../contract/month-close';
import type { Queryable } from '../db/client';
import { estimatedPage, type KeysetQuery, SqlParams } from '../db/list';
import { INVOICE_MATCHED, PAYOUT_MATCHED } from '../db/provider-sides';

/** Each kind's table, alias, columns and "matched" (decision 0155), as the month-close view counts it. */
const KINDS: Record<
  ProviderDocumentKind,
  { from: string; label: string; date: string; matched: string; settlement: string; matchLink: string }
> = {
  PAYOUT: {
    from: 'FROM provider_payouts p',
    label: 'p.provider_payout_id',
    date: 'p.payout_date',
    matched: PAYOUT_MATCHED,
    settlement: 'NULL::uuid',
    matchLink: 'm.payout_id = p.id',
  },
  INVOICE: {
    from: 'FROM provider_invoices i',
    label: 'i.provider_invoice_id',
    date: 'i.invoice_date',
    matched: INVOICE_MATCHED,
    settlement: 'i.settlement_id',
    matchLink: 'm.invoice_id = i.id',
  },
};

interface DocumentRow {
  id: string;
  label: string;
  amount_cents: string | number;
  date: string;
  matched: boolean;
  settlement_id: string | null;
  statement_line_id: string | null;
}

/** Counted exactly up to here, the planner's estimate beyond (decision 0080). */
const EXACT_TOTAL_LIMIT = 10_000;

/**
 * `GET /v2/admin/finance/provider-documents`: the payment provider's payouts or the invoicing program's
 * invoices, newest first, by month and matched or not — the lists the month-close rows and the home
 * card "invoices with no paid settlement" open.
 */
export async function listProviderDocuments(db: Queryable, query: ProviderDocumentListQuery) {
  const kind = KINDS[query.kind];
  const alias = query.kind === 'PAYOUT' ? 'p' : 'i';
  const params = new SqlParams();
  const where: string[] = [];
  if (query.month) {
    where.push(`${kind.date} >= ${params.add(`${query.month}-01`)}::date`);
    where.push(`${kind.date} < (${params.add(`${query.month}-01`)}::date + interval '1 month')`);
  }
  if (query.matched !== undefined) where.push(query.matched ? kind.matched : `NOT ${kind.matched}`);
  const keyset: KeysetQuery = {
    select: `${alias}.id, ${kind.label} AS label, ${alias}.amount_cents, ${kind.date}::text AS date,
       ${kind.matched} AS matched, ${kind.settlement} AS settlement_id,
       (SELECT m.statement_line_id FROM statement_line_matches m
         WHERE ${kind.matchLink} AND m.state = 'MATCHED' ORDER BY m.created_at, m.id LIMIT 1) AS statement_line_id`,
    from: kind.from,
    where,
    params,
    sort: { sql: kind.date, type: 'date' },
    id: `${alias}.id`,
    order: 'desc',
  };
  const page = await estimatedPage<DocumentRow>(
    db,
    keyset,
    { sort: 'date', order: 'desc', cursor: query.cursor, limit: query.limit },
    kind.from,
    EXACT_TOTAL_LIMIT,
  );
  const items: ProviderDocument[] = page.rows.map((row) => ({
    id: row.id,
    kind: query.kind,
    label: row.label,
    amountCents: Number(row.amount_cents),
    date: row.date,
    matched: row.matched,
    settlementId: row.settlement_id,
    statementLineId: row.statement_line_id,
  }));
  return {
    items,
    nextCursor: page.nextCursor,
    total: page.total,
    ...(page.totalEstimated ? { totalEstimated: true as const } : {}),
  };
}
