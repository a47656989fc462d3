// The column model both writers share, and the typing of a cell's value. Pure: no I/O, no clock.

export type ColumnKind = 'text' | 'phone' | 'integer' | 'cents' | 'date' | 'datetime' | 'boolean';
export type ExportLocale = 'pt-PT' | 'en-GB';

export interface ExportColumn {
  /** Property of the row record the cell comes from. */
  key: string;
  /** Column title, already translated by the caller. */
  header: string;
  /**
   * - `text`: a string (anything else is `String()`-ed); user text, so neutralised (see neutralise.ts).
   * - `phone`: a phone number or country code (`+351`); text, written without the neutraliser's quote
   *   when it is only a `+`, digits and spaces (neutralise.ts `PHONE_PATTERN`), else as `text`.
   * - `integer`: a safe integer or a bigint.
   * - `cents`: a safe integer number of cents; written as an exact decimal, never through float division.
   * - `date`: `YYYY-MM-DD` (a calendar date, taken as is) or a `Date` (its calendar date in Europe/Lisbon).
   * - `datetime`: a `Date`, epoch milliseconds, or an ISO 8601 string with `Z` or an offset; written as
   *   the wall-clock time in Europe/Lisbon.
   * - `boolean`: `true` / `false`.
   * `null` and `undefined` are an empty cell in every kind.
   */
  kind: ColumnKind;
}

export type ExportRow = Readonly<Record<string, unknown>>;
export type ExportRows = Iterable<ExportRow> | AsyncIterable<ExportRow>;

/** A value the column's kind cannot write: a caller's bug, reported with where it is (1-based data row). */
export class ExportValueError extends TypeError {
  constructor(
    readonly column: string,
    readonly row: number,
    readonly kindExpected: ColumnKind,
    value: unknown,
  ) {
    super(`export column "${column}" (${kindExpected}), data row ${row}: cannot write ${describe(value)}`);
    this.name = 'ExportValueError';
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (value instanceof Date)
    return `Date(${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`;
  return `${typeof value} ${String(value)}`;
}

export function assertColumns(columns: readonly ExportColumn[]): void {
  if (columns.length === 0) throw new RangeError('an export needs at least one column');
  const kinds = new Set<ColumnKind>(['text', 'phone', 'integer', 'cents', 'date', 'datetime', 'boolean']);
  for (const c of columns) {
    if (!kinds.has(c.kind)) throw new RangeError(`unknown column kind "${String(c.kind)}" for "${c.key}"`);
  }
}

/**
 * Pulls rows one at a time from a sync or an async iterable. A sync source is pulled without an `await`
 * per row (an async generator over 1,000,000 rows would spend most of its time in promise plumbing).
 */
export function rowPuller(
  rows: ExportRows,
): () => IteratorResult<ExportRow> | Promise<IteratorResult<ExportRow>> {
  if (Symbol.iterator in rows) {
    const it = (rows as Iterable<ExportRow>)[Symbol.iterator]();
    return () => it.next();
  }
  const it = (rows as AsyncIterable<ExportRow>)[Symbol.asyncIterator]();
  return () => it.next();
}

/** Words written for boolean cells in CSV (XLSX has a boolean cell type, which Excel shows in its own language). */
export const BOOLEAN_WORDS: Record<ExportLocale, readonly [yes: string, no: string]> = {
  'pt-PT': ['Sim', 'Não'],
  'en-GB': ['Yes', 'No'],
};

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const digit = (s: string, i: number) => {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : Number.NaN;
};

/** `YYYY-MM-DD` → [y, m, d] when it is a real calendar date, else null (no regex: it runs per cell). */
export function parseIsoDate(s: string): [number, number, number] | null {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return null;
  const y = digit(s, 0) * 1000 + digit(s, 1) * 100 + digit(s, 2) * 10 + digit(s, 3);
  const m = digit(s, 5) * 10 + digit(s, 6);
  const d = digit(s, 8) * 10 + digit(s, 9);
  if (!(m >= 1 && m <= 12 && d >= 1)) return null; // NaN fails too
  const leap = m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= DAYS_IN_MONTH[m - 1]! + (leap ? 1 : 0) ? [y, m, d] : null;
}

/** Epoch milliseconds of a datetime cell, or NaN. */
export function datetimeMs(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.NaN;
  // An ISO instant must carry its offset: a bare local time would silently depend on the server's zone.
  if (typeof value === 'string' && /(?:Z|[+-]\d{2}:?\d{2})$/.test(value)) return Date.parse(value);
  return Number.NaN;
}
