import type { z } from 'zod';
import type { settlementItemSchema, settlementListQuerySchema } from '../../contract/finance';
import type { SettlementSort } from '../../contract/statuses';
import type { SettlementStatus } from '../../domain/settlement-status';
import type { Queryable } from '../db/client';
import { estimatedPage, type KeysetQuery, type SortColumn, SqlParams } from '../db/list';
import { SETTLEMENT_INVOICED } from '../db/provider-sides';
import { LIVE_LINK_JOIN, SHOWN_STATUS, statusFilter } from './settlement-status-sql';

export type SettlementItem = z.infer<typeof settlementItemSchema>;
export type SettlementListQuery = z.output<typeof settlementListQuerySchema>;

/** What is paid out: the admin's adjusted amount when there is one, else the net. */
export const PAYABLE_SQL = 'coalesce(s.adjusted_cents, s.net_cents)';

/** Sort keys the list accepts, each a non-null SQL expression so keyset comparisons stay total. */
export const SETTLEMENT_SORT_COLUMNS: Record<SettlementSort, SortColumn> = {
  created: { sql: 's.created_at', type: 'timestamptz' },
  referenceMonth: { sql: 's.reference_month', type: 'text' },
  payable: { sql: PAYABLE_SQL, type: 'int' },
};

const ITEM_COLUMNS = `s.id, s.professional_id, p.name AS professional_name, s.case_id, s.subscription_payment_id,
         s.reference_month, s.gross_cents, s.fee_cents, s.net_cents, s.adjusted_cents, s.adjustment_note,
         ${PAYABLE_SQL} AS payable_cents, s.payment_date::text AS payment_date, s.available_on::text AS available_on,
         s.invoice_file_id IS NOT NULL AS has_invoice, s.notes, ${SHOWN_STATUS} AS status, s.created_at, s.updated_at, s.currency`;
const FROM = `
    FROM settlements s
    JOIN users p ON p.id = s.professional_id
    ${LIVE_LINK_JOIN}`;
/** What the total counts: every filter is on `s`, and each settlement has its professional. */
const COUNT_FROM = 'FROM settlements s';
/** Counted exactly up to here; beyond, the planner's estimate (`totalEstimated`, docs/decisions/0080). */
const EXACT_TOTAL_LIMIT = 10_000;

interface SettlementRow {
  id: string;
  professional_id: string;
  professional_name: string;
  case_id: string | null;
  subscription_payment_id: string | null;
  reference_month: string;
  gross_cents: number;
  fee_cents: number;
  net_cents: number;
  adjusted_cents: number | null;
  adjustment_note: string | null;
  payable_cents: number;
  payment_date: string | null;
  available_on: string | null;
  has_invoice: boolean;
  notes: string | null;
  status: SettlementStatus;
  created_at: Date;
  updated_at: Date;
  currency: SettlementItem['currency'];
}

function toSettlementItem(row: SettlementRow): SettlementItem {
  return {
    id: row.id,
    professionalId: row.professional_id,
    professionalName: row.professional_name,
    caseId: row.case_id,
    subscriptionPaymentId: row.subscription_payment_id,
    referenceMonth: row.reference_month,
    grossCents: row.gross_cents,
    feeCents: row.fee_cents,
    netCents: row.net_cents,
    adjustedCents: row.adjusted_cents,
    adjustmentNote: row.adjustment_note,
    payableCents: row.payable_cents,
    paymentDate: row.payment_date,
    availableOn: row.available_on,
    hasInvoice: row.has_invoice,
    notes: row.notes,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    currency: row.currency,
  };
}

type SettlementFilters = Omit<SettlementListQuery, 'sort' | 'order' | 'limit' | 'cursor'>;

function settlementFilters(params: SqlParams, filters: SettlementFilters): string[] {
  const where: string[] = [];
  if (filters.status?.length) where.push(...statusFilter(params, filters.status));
  if (filters.referenceMonth) where.push(`s.reference_month = ${params.add(filters.referenceMonth)}`);
  if (filters.professionalId) where.push(`s.professional_id = ${params.add(filters.professionalId)}::uuid`);
  if (filters.caseId) where.push(`s.case_id = ${params.add(filters.caseId)}::uuid`);
  if (filters.payableMinCents !== undefined)
    where.push(`${PAYABLE_SQL} >= ${params.add(filters.payableMinCents)}::int`);
  if (filters.payableMaxCents !== undefined)
    where.push(`${PAYABLE_SQL} <= ${params.add(filters.payableMaxCents)}::int`);
  if (filters.hasInvoice !== undefined)
    where.push(filters.hasInvoice ? 's.invoice_file_id IS NOT NULL' : 's.invoice_file_id IS NULL');
  if (filters.customerInvoiced !== undefined)
    where.push(filters.customerInvoiced ? SETTLEMENT_INVOICED : `NOT ${SETTLEMENT_INVOICED}`);
  return where;
}

function settlementQuery(query: Omit<SettlementListQuery, 'limit' | 'cursor'>): KeysetQuery {
  const params = new SqlParams();
  return {
    select: ITEM_COLUMNS,
    from: FROM,
    where: settlementFilters(params, query),
    params,
    sort: SETTLEMENT_SORT_COLUMNS[query.sort],
    id: 's.id',
    order: query.order,
  };
}

/**
 * One page of settlements (DESIGN §5 list conventions). The cursor is bound to its sort and order.
 * Settlements grow by a million a year or so: `total` is exact up to 10,000 matches and the planner's
 * estimate beyond (`totalEstimated: true`), so a first page reads an index, not the whole table.
 */
export async function listSettlements(
  db: Queryable,
  query: SettlementListQuery,
  exactLimit = EXACT_TOTAL_LIMIT,
) {
  const { rows, nextCursor, ...total } = await estimatedPage<SettlementRow>(
    db,
    settlementQuery(query),
    query,
    COUNT_FROM,
    exactLimit,
  );
  return { items: rows.map(toSettlementItem), nextCursor, ...total };
}

/** One settlement as the list shows it (the answer of every management change), or null. */
export async function findSettlement(db: Queryable, id: string): Promise<SettlementItem | null> {
  const { rows } = await db.query<SettlementRow>(`SELECT ${ITEM_COLUMNS} ${FROM} WHERE s.id = $1`, [id]);
  return rows[0] ? toSettlementItem(rows[0]) : null;
}
