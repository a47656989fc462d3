import { z } from 'zod';
import { INT4_MAX, INT4_MIN, isSaneTimestamp } from '../../contract/bounds';
import type { SortOrder } from '../../contract/statuses';
import { refuse } from '../platform/refusal';
import type { Queryable } from './client';

/**
 * The keyset list engine every list uses (docs/decisions/0061): parameters and WHERE clauses, date
 * bounds in Europe/Lisbon, the versioned cursor codec, keyset pages and their streaming form, and
 * totals (exact, or the planner's estimate above a limit).
 */

/** Positional parameters of one statement: `add` answers `$n`. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export const whereClause = (where: readonly string[]) => (where.length ? `WHERE ${where.join(' AND ')}` : '');

/** `YYYY-MM-DD`: a whole day in Europe/Lisbon; anything else a date filter lets through is an instant. */
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The instant a Lisbon calendar day starts, `offsetDays` after `day`. */
function lisbonDayStart(params: SqlParams, day: string, offsetDays: number): string {
  return `((${params.add(day)}::date + ${offsetDays})::timestamp AT TIME ZONE 'Europe/Lisbon')`;
}

/**
 * `column` within [from, to]: a day bound covers the whole Lisbon day (`to` inclusive: before the next
 * day starts), an instant bound is inclusive. Bounds were checked by `dateOrInstant()` (contract/bounds).
 */
export function dateRange(params: SqlParams, column: string, from?: string, to?: string): string[] {
  const where: string[] = [];
  if (from)
    where.push(
      `${column} >= ${DAY.test(from) ? lisbonDayStart(params, from, 0) : `${params.add(from)}::timestamptz`}`,
    );
  if (to)
    where.push(
      DAY.test(to)
        ? `${column} < ${lisbonDayStart(params, to, 1)}`
        : `${column} <= ${params.add(to)}::timestamptz`,
    );
  return where;
}

/** One `=` instead of `= ANY` for a single value keeps a `(…, column, sort, id)` index ordered. */
export function oneOf(
  params: SqlParams,
  column: string,
  values: readonly unknown[] | undefined,
  type = 'text',
) {
  if (!values) return [];
  return values.length === 1
    ? [`${column} = ${params.add(values[0])}::${type}`]
    : [`${column} = ANY(${params.add(values)}::${type}[])`];
}

// ---------------------------------------------------------------------------------------------------
// Cursors

/**
 * The cursor format's version. A cursor is base64url JSON `{v, …bound, key, id}`: `bound` is what must
 * not change between pages (sort and order), `key` the last row's sort key as PostgreSQL printed it
 * (so it compares exactly on the way back), `id` its id. Raising the version makes every older cursor
 * a 400 INVALID_CURSOR, never a wrong page.
 */
export const CURSOR_VERSION = 1;

const noNulByte = (text: string) => !text.includes('\u0000');

/**
 * The sort key by the SQL type it is cast back to: `timestamptz` keys are PostgreSQL's text of a
 * timestamp (or `-infinity`, what a missing date sorts as), `int` keys whole numbers within int4,
 * `text` keys any text PostgreSQL can hold. A client can send anything back, so each is checked.
 */
export const SORT_KEY_SCHEMAS = {
  timestamptz: z.string().refine((key) => key === '-infinity' || isSaneTimestamp(key)),
  int: z
    .string()
    .regex(/^-?\d{1,10}$/)
    .refine((key) => Number(key) >= INT4_MIN && Number(key) <= INT4_MAX),
  text: z.string().max(2000).refine(noNulByte),
  /** A calendar day as PostgreSQL prints a `date` (statement lines sort by bank date). */
  date: z.iso.date(),
} as const;
export type SortKeyType = keyof typeof SORT_KEY_SCHEMAS;

/** Where the previous page ended. */
export interface KeysetPosition {
  key: string;
  id: string;
}

export type CursorBound = Record<string, string>;

/**
 * The SQL type of a list's unique tie-breaker: a UUID for most tables, a `bigserial` for append-only
 * logs (the audit log). The cursor's `id` is checked against it before SQL casts it.
 */
export type RowIdType = 'uuid' | 'bigint';
const ROW_ID_SCHEMAS: Record<RowIdType, z.ZodType<string>> = {
  uuid: z.guid(),
  bigint: z.string().regex(/^[1-9]\d{0,17}$/),
};

export function encodeCursor(bound: CursorBound, position: KeysetPosition): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, ...bound, ...position })).toString('base64url');
}

export const invalidCursor = () => refuse('INVALID_CURSOR', { field: 'cursor' });

/**
 * The position a cursor holds, if it was issued by this version for the same `bound` and its key casts
 * to `keyType`; otherwise a refusal (400 INVALID_CURSOR), never a failure in SQL.
 */
export function decodeCursor(
  cursor: string,
  bound: CursorBound,
  keyType: SortKeyType,
  idType: RowIdType = 'uuid',
): KeysetPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const shape: Record<string, z.ZodType> = { v: z.literal(CURSOR_VERSION) };
  for (const [name, value] of Object.entries(bound)) shape[name] = z.literal(value);
  const schema = z.object({ ...shape, key: SORT_KEY_SCHEMAS[keyType], id: ROW_ID_SCHEMAS[idType] });
  const result = schema.safeParse(parsed);
  if (!result.success) throw invalidCursor();
  return { key: result.data.key, id: result.data.id };
}

// ---------------------------------------------------------------------------------------------------
// Keyset queries

/** A sortable column: a non-null SQL expression (so comparisons stay total) and its type. */
export interface SortColumn {
  sql: string;
  type: SortKeyType;
}

/** One list's statement: what to select, from where, filtered how, in which order. */
export interface KeysetQuery {
  /** Column list, without `SELECT`. */
  select: string;
  /** `FROM …` with its joins. */
  from: string;
  /** The filters' clauses; their parameters are in `params`. */
  where: readonly string[];
  params: SqlParams;
  sort: SortColumn;
  /** The unique tie-breaker, e.g. `u.id`, as text in the rows' `id`. */
  id: string;
  /** Its SQL type (default `uuid`). */
  idType?: RowIdType;
  order: SortOrder;
}

/**
 * Row comparison on (sort key, id): rows inserted meanwhile land before or after the position, never
 * shifting the rest, so no row is repeated or skipped.
 */
export function after(
  params: SqlParams,
  sortSql: string,
  type: SortKeyType,
  idSql: string,
  order: SortOrder,
  position: KeysetPosition,
  idType: RowIdType = 'uuid',
): string {
  return `(${sortSql}, ${idSql}) ${order === 'desc' ? '<' : '>'} (${params.add(position.key)}::${type}, ${params.add(position.id)}::${idType})`;
}

/**
 * `count` rows after `position` (from the start when null), each with its sort key as text in
 * `sort_key`. The statement's parameters are the query's own, then the position, then the limit.
 */
export async function keysetRows<Row>(
  db: Queryable,
  query: KeysetQuery,
  position: KeysetPosition | null,
  count: number,
): Promise<(Row & { sort_key: string })[]> {
  const statement = keysetStatement(query, position, count);
  const { rows } = await db.query<Row & { sort_key: string }>(statement.text, statement.values);
  return rows;
}

/** The statement of `keysetRows`, with its parameters. */
function keysetStatement(
  query: KeysetQuery,
  position: KeysetPosition | null,
  count: number,
): { text: string; values: unknown[] } {
  const params = new SqlParams();
  params.values.push(...query.params.values);
  const where = [...query.where];
  if (position)
    where.push(after(params, query.sort.sql, query.sort.type, query.id, query.order, position, query.idType));
  return {
    text: `SELECT ${query.select}, (${query.sort.sql})::text AS sort_key ${query.from} ${whereClause(where)}
      ORDER BY ${query.sort.sql} ${query.order}, ${query.id} ${query.order} LIMIT ${params.add(count)}`,
    values: params.values,
  };
}

/** A page from `limit + 1` rows: the first `limit`, and a cursor when there were more. */
export function pageOf<Row extends { id: string; sort_key: string }>(
  rows: Row[],
  limit: number,
  bound: CursorBound,
): { rows: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor: rows.length > limit && last ? encodeCursor(bound, { key: last.sort_key, id: last.id }) : null,
  };
}

/**
 * The same query as its pages, as batches for an export: each batch continues from the last row of
 * the one before through the same keyset comparison, so memory stays at one batch whatever the row
 * count, no transaction stays open between batches, and rows inserted meanwhile never shift the rest.
 */
export async function* keysetBatches<Row extends { id: string }>(
  db: Queryable,
  query: KeysetQuery,
  batchSize: number,
  from: KeysetPosition | null = null,
): AsyncGenerator<(Row & { sort_key: string })[]> {
  let position = from;
  for (;;) {
    const rows = await keysetRows<Row>(db, query, position, batchSize);
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
    const last = rows.at(-1)!;
    position = { key: last.sort_key, id: last.id };
  }
}

/**
 * The streaming form for rows that are already text (an export's finished lines): the same batches
 * as `keysetBatches`, but PostgreSQL joins each batch's `column` into one string, every row followed
 * by `terminator`, in the keyset's order (an aggregate over a sorted subquery reads it in that order).
 * A million rows then make a few hundred strings on this side, not a million row objects. The query's
 * select must name `column`.
 */
export async function* keysetTextBatches(
  db: Queryable,
  query: KeysetQuery,
  batchSize: number,
  column: string,
  terminator: string,
): AsyncGenerator<{ text: string; count: number }> {
  let position: KeysetPosition | null = null;
  for (;;) {
    const batch = keysetStatement(query, position, batchSize);
    const end = `$${batch.values.length + 1}`;
    const { rows } = await db.query<{ text: string | null; count: number; key: string; id: string }>(
      `SELECT string_agg(b.${column} || ${end}, '') AS text, count(*)::int AS count,
              (array_agg(b.sort_key))[count(*)::int] AS key, (array_agg(b.id::text))[count(*)::int] AS id
         FROM (${batch.text}) b`,
      [...batch.values, terminator],
    );
    const { text, count, key, id } = rows[0]!;
    if (count > 0) yield { text: text ?? '', count };
    if (count < batchSize) return;
    position = { key, id };
  }
}

// ---------------------------------------------------------------------------------------------------
// Totals

export interface Total {
  total: number;
  totalEstimated?: true;
}

/**
 * Where lists that grow by millions stop counting exactly: above this many matches their `total` is the
 * planner's estimate (`totalEstimated: true`, DESIGN §5).
 */
export const EXACT_TOTAL_LIMIT = 10_000;

/** An exact `count(*)` of the filtered rows. */
export async function exactTotal(db: Queryable, from: string, where: readonly string[], values: unknown[]) {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n ${from} ${whereClause(where)}`,
    values,
  );
  return rows[0]!.n;
}

/** What a list request says about its page: the sort it is bound to, and where and how far to read. */
export interface PageRequest {
  sort: string;
  order: SortOrder;
  cursor?: string | null | undefined;
  limit: number;
}

/**
 * One page of a list whose total is counted exactly: the cursor is checked against the sort and order
 * it was issued for (one from another ordering would skip or repeat rows), one row more than the
 * limit is read to know whether another page follows.
 */
export async function exactPage<Row extends { id: string }>(
  db: Queryable,
  keyset: KeysetQuery,
  request: PageRequest,
): Promise<{ rows: (Row & { sort_key: string })[]; nextCursor: string | null; total: number }> {
  const bound = { sort: request.sort, order: request.order };
  const position = request.cursor ? decodeCursor(request.cursor, bound, keyset.sort.type) : null;
  const total = await exactTotal(db, keyset.from, keyset.where, keyset.params.values);
  const rows = await keysetRows<Row>(db, keyset, position, request.limit + 1);
  const page = pageOf(rows, request.limit, bound);
  return { rows: page.rows, nextCursor: page.nextCursor, total };
}

/** The planner's row estimate for the filters: an EXPLAIN, well under a millisecond. */
export async function estimateRows(
  db: Queryable,
  from: string,
  where: readonly string[],
  values: unknown[],
): Promise<number> {
  const plan = await db.query<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (FORMAT JSON) SELECT 1 ${from} ${whereClause(where)}`,
    values,
  );
  const raw = plan.rows[0]!['QUERY PLAN'];
  const json = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: { 'Plan Rows': number } }];
  return Math.round(json[0].Plan['Plan Rows']);
}

/**
 * Exact up to `limit`, the estimate beyond (`totalEstimated: true`): above the limit the estimate is
 * the answer, since counting `limit + 1` sparse matches can walk most of the table; below it, a count
 * capped at `limit + 1`.
 */
export async function totalWithEstimate(
  db: Queryable,
  from: string,
  where: readonly string[],
  values: unknown[],
  estimate: number,
  limit: number,
): Promise<Total> {
  if (estimate > limit) return { total: estimate, totalEstimated: true };
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 ${from} ${whereClause(where)} LIMIT ${limit + 1}) capped`,
    values,
  );
  const exact = rows[0]!.n;
  if (exact <= limit) return { total: exact };
  return estimatedAbove(limit, estimate);
}

/** More than `limit` matched: the estimate, but never below what was counted. */
export const estimatedAbove = (limit: number, estimate: number): Total => ({
  total: Math.max(limit + 1, estimate),
  totalEstimated: true,
});

/**
 * One page of a list that grows by millions: the page first, then its total — none needed when the
 * first page holds everything, else exact up to `exactLimit` and the planner's estimate beyond
 * (`totalWithEstimate`), counted over `countFrom` (the list's FROM without joins that only add
 * columns). A first page of a million rows costs an index read, not a count (docs/decisions/0080).
 */
export async function estimatedPage<Row extends { id: string }>(
  db: Queryable,
  keyset: KeysetQuery,
  request: PageRequest,
  countFrom: string,
  exactLimit: number,
): Promise<{ rows: (Row & { sort_key: string })[]; nextCursor: string | null } & Total> {
  const bound = { sort: request.sort, order: request.order };
  const position = request.cursor
    ? decodeCursor(request.cursor, bound, keyset.sort.type, keyset.idType)
    : null;
  const page = pageOf(await keysetRows<Row>(db, keyset, position, request.limit + 1), request.limit, bound);
  if (!request.cursor && page.nextCursor === null) return { ...page, total: page.rows.length };
  const values = keyset.params.values;
  const estimate = await estimateRows(db, countFrom, keyset.where, values);
  return { ...page, ...(await totalWithEstimate(db, countFrom, keyset.where, values, estimate, exactLimit)) };
}
