import type { z } from 'zod';
import type { caseItemSchema, caseListQuerySchema } from '../../contract/cases';
import type { CaseSort } from '../../contract/statuses';
import type { CaseStatus, CaseType } from '../../domain/case-status';
import type { Queryable } from '../db/client';
import {
  dateRange,
  EXACT_TOTAL_LIMIT,
  estimatedPage,
  type KeysetQuery,
  keysetBatches,
  type SortColumn,
  SqlParams,
} from '../db/list';
import { refuse } from '../platform/refusal';
import { isUuid } from './ids';

export type CaseItem = z.infer<typeof caseItemSchema>;
export type CaseListQuery = z.output<typeof caseListQuerySchema>;
export type CaseFilters = Omit<CaseListQuery, 'sort' | 'order' | 'limit' | 'cursor'>;

/** Sort keys the list accepts, each a non-null SQL expression so keyset comparisons stay total. */
export const CASE_SORT_COLUMNS: Record<CaseSort, SortColumn> = {
  createdAt: { sql: 'c.created_at', type: 'timestamptz' },
  startDate: { sql: "coalesce(c.start_date, '-infinity'::timestamptz)", type: 'timestamptz' },
  endDate: { sql: "coalesce(c.end_date, '-infinity'::timestamptz)", type: 'timestamptz' },
  priceCents: { sql: 'c.price_cents', type: 'int' },
  totalMessages: { sql: 'c.total_messages', type: 'int' },
  status: { sql: 'c.status', type: 'text' },
  customerName: { sql: 'cu.name', type: 'text' },
  professionalName: { sql: 'pr.name', type: 'text' },
};

const ITEM_COLUMNS = `c.id, c.customer_id, cu.name AS customer_name, c.professional_id, pr.name AS professional_name,
         c.closed, c.status, c.total_messages, c.type, c.start_date, c.end_date, c.price_cents, c.currency,
         c.professional_summary, c.created_at, r.rating AS review_rating, r.created_at AS review_created_at`;
const PEOPLE_FROM = `
    FROM cases c
    JOIN users cu ON cu.id = c.customer_id
    JOIN users pr ON pr.id = c.professional_id`;
const FROM = `${PEOPLE_FROM}
    LEFT JOIN case_reviews r ON r.case_id = c.id`;

export interface CaseRow {
  id: string;
  customer_id: string;
  customer_name: string;
  professional_id: string;
  professional_name: string;
  closed: boolean;
  status: CaseStatus;
  total_messages: number;
  type: CaseType;
  start_date: Date | null;
  end_date: Date | null;
  price_cents: number;
  currency: CaseItem['currency'];
  professional_summary: string | null;
  created_at: Date;
  review_rating: number | null;
  review_created_at: Date | null;
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export function toCaseItem(row: CaseRow): CaseItem {
  return {
    id: row.id,
    customer: { id: row.customer_id, name: row.customer_name },
    professional: { id: row.professional_id, name: row.professional_name },
    closed: row.closed,
    status: row.status,
    totalMessages: row.total_messages,
    type: row.type,
    startDate: iso(row.start_date),
    endDate: iso(row.end_date),
    priceCents: row.price_cents,
    currency: row.currency,
    professionalSummary: row.professional_summary,
    createdAt: row.created_at.toISOString(),
    review:
      row.review_rating === null || row.review_created_at === null
        ? null
        : { rating: row.review_rating, createdAt: row.review_created_at.toISOString() },
  };
}

export async function findCase(db: Queryable, id: string): Promise<CaseItem | null> {
  if (!isUuid(id)) return null;
  const { rows } = await db.query<CaseRow>(`SELECT ${ITEM_COLUMNS} ${FROM} WHERE c.id = $1`, [id]);
  return rows[0] ? toCaseItem(rows[0]) : null;
}

/** Every way to reach a case the API offers ends here when the case is missing. */
export const caseNotFound = () => refuse('CASE_NOT_FOUND');

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;
const ID_PREFIX = /^[0-9a-f-]{4,36}$/i;

/** The filters as WHERE clauses over the cases and their two people (docs/decisions/0047). */
function caseFilters(params: SqlParams, filters: CaseFilters): string[] {
  const where: string[] = [];
  if (filters.status?.length) where.push(`c.status = ANY(${params.add(filters.status)}::text[])`);
  if (filters.type) where.push(`c.type = ${params.add(filters.type)}`);
  if (filters.professionalId) where.push(`c.professional_id = ${params.add(filters.professionalId)}::uuid`);
  if (filters.customerId) where.push(`c.customer_id = ${params.add(filters.customerId)}::uuid`);
  if (filters.closed !== undefined) where.push(`c.closed = ${params.add(filters.closed)}`);
  where.push(...dateRange(params, 'c.created_at', filters.createdFrom, filters.createdTo));
  where.push(...dateRange(params, 'c.start_date', filters.startFrom, filters.startTo));
  where.push(...dateRange(params, 'c.end_date', filters.endFrom, filters.endTo));
  if (filters.priceMinCents !== undefined)
    where.push(`c.price_cents >= ${params.add(filters.priceMinCents)}`);
  if (filters.priceMaxCents !== undefined)
    where.push(`c.price_cents <= ${params.add(filters.priceMaxCents)}`);
  const q = filters.q?.trim();
  if (q) {
    const pattern = params.add(likePattern(q));
    const names = ['cu.name', 'cu.full_name', 'pr.name', 'pr.full_name'].map((n) => `${n} ILIKE ${pattern}`);
    // Ids are shown shortened in places, so a leading fragment of one finds the case too.
    if (ID_PREFIX.test(q)) names.push(`c.id::text LIKE ${params.add(`${q.toLowerCase()}%`)}`);
    where.push(`(${names.join(' OR ')})`);
  }
  return where;
}

function caseQuery(query: Omit<CaseListQuery, 'limit' | 'cursor'>): KeysetQuery {
  const params = new SqlParams();
  return {
    select: ITEM_COLUMNS,
    from: FROM,
    where: caseFilters(params, query),
    params,
    sort: CASE_SORT_COLUMNS[query.sort],
    id: 'c.id',
    order: query.order,
  };
}

/**
 * One page of cases. The cursor is bound to its sort and order: one issued for another ordering
 * would skip or repeat rows silently. `total` is exact up to EXACT_TOTAL_LIMIT matches and the
 * planner's estimate beyond (`totalEstimated: true`): counting a million cases on every page held a
 * pooled connection for seconds under load (docs/decisions/0130). The count reads the cases alone
 * unless the text search needs their people's names (both joins are on required keys: same count).
 */
export async function listCases(db: Queryable, query: CaseListQuery, exactLimit = EXACT_TOTAL_LIMIT) {
  const countFrom = query.q?.trim() ? PEOPLE_FROM : 'FROM cases c';
  const page = await estimatedPage<CaseRow>(db, caseQuery(query), query, countFrom, exactLimit);
  return {
    items: page.rows.map(toCaseItem),
    nextCursor: page.nextCursor,
    total: page.total,
    ...(page.totalEstimated ? { totalEstimated: page.totalEstimated } : {}),
  };
}

/** Every case the filters match, in the list's order, as batches (for exports). */
export async function* streamCases(
  db: Queryable,
  query: Omit<CaseListQuery, 'limit' | 'cursor'>,
  batchSize = 1000,
): AsyncGenerator<CaseItem[]> {
  for await (const rows of keysetBatches<CaseRow>(db, caseQuery(query), batchSize))
    yield rows.map(toCaseItem);
}
