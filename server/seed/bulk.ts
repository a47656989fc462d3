import type { Queryable } from '../db/client';

export type Cell = string | number | boolean | null;

export interface Column {
  name: string;
  /** SQL type the text value is cast to, e.g. `uuid`, `int`, `timestamptz`, `jsonb`, `text[]`. */
  type: string;
}

const CHUNK_ROWS = 5000;

/**
 * Bulk insert through one `INSERT … SELECT FROM unnest(text[], …)` per chunk: a handful of round trips
 * per 10,000 rows on both drivers, with no per-row statement. Every value travels as text and is cast
 * in SQL, which keeps PGlite's and pg's array serialisation identical (and lets jsonb/text[] through).
 */
export async function insertRows(
  db: Queryable,
  table: string,
  columns: readonly Column[],
  rows: readonly (readonly Cell[])[],
): Promise<void> {
  const names = columns.map((c) => c.name).join(', ');
  const aliases = columns.map((_, i) => `c${i}`);
  const select = columns.map((c, i) => `${aliases[i]}::${c.type}`).join(', ');
  const unnest = columns.map((_, i) => `$${i + 1}::text[]`).join(', ');
  const sql = `INSERT INTO ${table} (${names}) SELECT ${select} FROM unnest(${unnest}) AS t(${aliases.join(', ')})`;
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
    const chunk = rows.slice(start, start + CHUNK_ROWS);
    const params = columns.map((_, i) => chunk.map((row) => toText(row[i] ?? null)));
    await db.query(sql, params);
  }
}

function toText(value: Cell): string | null {
  return value === null ? null : String(value);
}

/** A PostgreSQL array literal for a `text[]` column. */
export function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Bulk loads run several times faster when secondary indexes are built once at the end instead of
 * maintained row by row. Constraint indexes (primary and unique keys) stay; the rest are dropped and
 * recreated from their own definitions, inside the caller's transaction.
 */
export async function withIndexesDeferred<T>(
  db: Queryable,
  table: string,
  work: () => Promise<T>,
): Promise<T> {
  const { rows } = await db.query<{ name: string; definition: string }>(
    `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
     WHERE i.schemaname = current_schema() AND i.tablename = $1
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    [table],
  );
  for (const index of rows) await db.query(`DROP INDEX ${index.name}`);
  const result = await work();
  for (const index of rows) await db.query(index.definition);
  return result;
}
