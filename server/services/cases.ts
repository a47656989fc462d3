import { z } from 'zod';
import type { CaseStatus, CaseType } from '../../domain/case-status';
import type { Queryable } from '../db/client';
import { decodeCursor, encodeCursor, SORT_KEY_SCHEMAS } from '../http/cursor';
import { ApiError } from '../http/errors';
import { isUuid } from './cases-cursor';

export interface CaseItem {
  id: string;
  customer: { id: string; name: string };
  professional: { id: string; name: string };
  closed: boolean;
  status: CaseStatus;
  totalMessages: number;
  type: CaseType;
  startDate: string | null;
  endDate: string | null;
  priceCents: number;
  currency: string;
  professionalSummary: string | null;
  createdAt: string;
  review: { rating: number; createdAt: string } | null;
}

/** Sort keys the list accepts, each a non-null SQL expression so keyset comparisons stay total. */
export const CASE_SORTS = {
  createdAt: { sql: 'c.created_at', type: 'timestamptz' },
  startDate: { sql: "coalesce(c.start_date, '-infinity'::timestamptz)", type: 'timestamptz' },
  endDate: { sql: "coalesce(c.end_date, '-infinity'::timestamptz)", type: 'timestamptz' },
  priceCents: { sql: 'c.price_cents', type: 'int' },
  totalMessages: { sql: 'c.total_messages', type: 'int' },
  status: { sql: 'c.status', type: 'text' },
  customerName: { sql: 'cu.name', type: 'text' },
  professionalName: { sql: 'pr.name', type: 'text' },
} as const;
export type CaseSort = keyof typeof CASE_SORTS;

/** A bound is a whole Lisbon day (`YYYY-MM-DD`, both ends inclusive) or an exact instant. */
export type DateBound = { date: string } | { instant: string };

export interface CaseFilters {
  status?: CaseStatus[];
  type?: CaseType;
  professionalId?: string;
  customerId?: string;
  closed?: boolean;
  createdFrom?: DateBound;
  createdTo?: DateBound;
  startFrom?: DateBound;
  startTo?: DateBound;
  endFrom?: DateBound;
  endTo?: DateBound;
  priceMinCents?: number;
  priceMaxCents?: number;
  q?: string;
}

export interface CaseListQuery extends CaseFilters {
  sort: CaseSort;
  order: 'asc' | 'desc';
  limit: number;
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  total: number;
}

const ITEM_SELECT = `
  SELECT c.id, c.customer_id, cu.name AS customer_name, c.professional_id, pr.name AS professional_name,
         c.closed, c.status, c.total_messages, c.type, c.start_date, c.end_date, c.price_cents, c.currency,
         c.professional_summary, c.created_at, r.rating AS review_rating, r.created_at AS review_created_at`;
const FROM = `
    FROM cases c
    JOIN users cu ON cu.id = c.customer_id
    JOIN users pr ON pr.id = c.professional_id
    LEFT JOIN case_reviews r ON r.case_id = c.id`;

interface CaseRow {
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
  currency: string;
  professional_summary: string | null;
  created_at: Date;
  review_rating: number | null;
  review_created_at: Date | null;
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

function toItem(row: CaseRow): CaseItem {
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
  const { rows } = await db.query<CaseRow>(`${ITEM_SELECT} ${FROM} WHERE c.id = $1`, [id]);
  return rows[0] ? toItem(rows[0]) : null;
}

/** Every way to reach a case the API offers ends here when the case is missing. */
export const caseNotFound = () => new ApiError(404, 'CASE_NOT_FOUND');

class Conditions {
  readonly clauses: string[] = [];
  readonly params: unknown[] = [];

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  add(clause: string): void {
    this.clauses.push(clause);
  }

  get where(): string {
    return this.clauses.length === 0 ? '' : `WHERE ${this.clauses.join(' AND ')}`;
  }
}

const LISBON_DAY_START = (param: string) => `(${param}::date::timestamp AT TIME ZONE 'Europe/Lisbon')`;
const LISBON_NEXT_DAY_START = (param: string) =>
  `((${param}::date + 1)::timestamp AT TIME ZONE 'Europe/Lisbon')`;

function dateRange(where: Conditions, column: string, from?: DateBound, to?: DateBound): void {
  if (from)
    where.add(
      'date' in from
        ? `${column} >= ${LISBON_DAY_START(where.param(from.date))}`
        : `${column} >= ${where.param(from.instant)}::timestamptz`,
    );
  if (to)
    where.add(
      'date' in to
        ? `${column} < ${LISBON_NEXT_DAY_START(where.param(to.date))}`
        : `${column} <= ${where.param(to.instant)}::timestamptz`,
    );
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;
const ID_PREFIX = /^[0-9a-f-]{4,36}$/i;

function filterConditions(filters: CaseFilters): Conditions {
  const where = new Conditions();
  if (filters.status?.length) where.add(`c.status = ANY(${where.param(filters.status)}::text[])`);
  if (filters.type) where.add(`c.type = ${where.param(filters.type)}`);
  if (filters.professionalId) where.add(`c.professional_id = ${where.param(filters.professionalId)}::uuid`);
  if (filters.customerId) where.add(`c.customer_id = ${where.param(filters.customerId)}::uuid`);
  if (filters.closed !== undefined) where.add(`c.closed = ${where.param(filters.closed)}`);
  dateRange(where, 'c.created_at', filters.createdFrom, filters.createdTo);
  dateRange(where, 'c.start_date', filters.startFrom, filters.startTo);
  dateRange(where, 'c.end_date', filters.endFrom, filters.endTo);
  if (filters.priceMinCents !== undefined)
    where.add(`c.price_cents >= ${where.param(filters.priceMinCents)}`);
  if (filters.priceMaxCents !== undefined)
    where.add(`c.price_cents <= ${where.param(filters.priceMaxCents)}`);
  const q = filters.q?.trim();
  if (q) {
    const pattern = where.param(likePattern(q));
    const names = ['cu.name', 'cu.full_name', 'pr.name', 'pr.full_name'].map((n) => `${n} ILIKE ${pattern}`);
    // Ids are shown shortened in places, so a leading fragment of one finds the case too.
    if (ID_PREFIX.test(q)) names.push(`c.id::text LIKE ${where.param(`${q.toLowerCase()}%`)}`);
    where.add(`(${names.join(' OR ')})`);
  }
  return where;
}

/**
 * The cursor a page hands out for its sort and order: one issued for another ordering would skip or
 * repeat rows silently, and a key its column cannot cast would fail in SQL.
 */
const listCursorSchema = (sort: CaseSort, order: CaseListQuery['order']) =>
  z.object({
    sort: z.literal(sort),
    order: z.literal(order),
    key: SORT_KEY_SCHEMAS[CASE_SORTS[sort].type],
    id: z.uuid(),
  });

export async function listCases(db: Queryable, query: CaseListQuery): Promise<Page<CaseItem>> {
  const cursor = query.cursor ? decodeCursor(listCursorSchema(query.sort, query.order), query.cursor) : null;
  const where = filterConditions(query);
  const total = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n ${FROM} ${where.where}`,
    where.params,
  );

  const sort = CASE_SORTS[query.sort];
  if (cursor) {
    const comparison = query.order === 'asc' ? '>' : '<';
    where.add(
      `(${sort.sql}, c.id) ${comparison} (${where.param(cursor.key)}::${sort.type}, ${where.param(cursor.id)}::uuid)`,
    );
  }
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const { rows } = await db.query<CaseRow & { sort_key: string }>(
    `${ITEM_SELECT}, (${sort.sql})::text AS sort_key ${FROM} ${where.where}
      ORDER BY ${sort.sql} ${direction}, c.id ${direction}
      LIMIT ${where.param(query.limit + 1)}`,
    where.params,
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(toItem),
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor({ sort: query.sort, order: query.order, key: last.sort_key, id: last.id })
        : null,
    total: total.rows[0]!.n,
  };
}
