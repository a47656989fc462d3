// Typed cell values → the plain strings both writers start from. Everything here is exact: money is
// formatted from integer cents with integer arithmetic, dates from calendar fields.
import { type ColumnKind, datetimeMs, ExportValueError, parseIsoDate } from './columns';
import { isoDateOfDays, lisbonDateTime, lisbonDays } from './lisbon-time';

const DAY = 86_400_000;

export function cents(value: unknown, key: string, row: number): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw new ExportValueError(key, row, 'cents', value);
}

/** `1250` → `12.50` / `12,50`; `-5` → `-0.05`. Always two decimals, no grouping: what CSV readers parse. */
export function centsFixed2(c: number, decimalMark: string): string {
  const neg = c < 0;
  const abs = neg ? -c : c;
  const units = Math.floor(abs / 100);
  const rest = abs - units * 100;
  return `${neg ? '-' : ''}${units}${decimalMark}${rest < 10 ? '0' : ''}${rest}`;
}

/** `1250` → `12.5`, `1200` → `12`, `30` → `0.3`, `-5` → `-0.05`: the shortest exact decimal, for XML `<v>`. */
export function centsShortest(c: number): string {
  const neg = c < 0;
  const abs = neg ? -c : c;
  const units = Math.floor(abs / 100);
  const rest = abs - units * 100;
  const sign = neg ? '-' : '';
  if (rest === 0) return `${sign}${units}`;
  if (rest % 10 === 0) return `${sign}${units}.${rest / 10}`;
  return `${sign}${units}.${rest < 10 ? '0' : ''}${rest}`;
}

export function integerText(value: unknown, key: string, row: number): string {
  if ((typeof value === 'number' && Number.isSafeInteger(value)) || typeof value === 'bigint')
    return String(value);
  throw new ExportValueError(key, row, 'integer', value);
}

/** A date cell → days since 1970-01-01 (a `YYYY-MM-DD` string as is; a `Date` by its Lisbon calendar day). */
export function dateDays(value: unknown, key: string, row: number): number {
  if (typeof value === 'string') {
    const ymd = parseIsoDate(value);
    if (ymd) return Date.UTC(ymd[0], ymd[1] - 1, ymd[2]) / DAY;
  } else if (value instanceof Date && !Number.isNaN(value.getTime())) {
    return lisbonDays(value.getTime());
  }
  throw new ExportValueError(key, row, 'date', value);
}

export function dateText(value: unknown, key: string, row: number): string {
  // The common case, an ISO date string that is already valid, is written as given.
  if (typeof value === 'string' && parseIsoDate(value)) return value;
  return isoDateOfDays(dateDays(value, key, row));
}

export function instantMs(value: unknown, key: string, row: number): number {
  const ms = datetimeMs(value);
  if (Number.isNaN(ms)) throw new ExportValueError(key, row, 'datetime', value);
  return ms;
}

export const datetimeText = (value: unknown, key: string, row: number): string =>
  lisbonDateTime(instantMs(value, key, row));

export function booleanValue(value: unknown, key: string, row: number): boolean {
  if (typeof value === 'boolean') return value;
  throw new ExportValueError(key, row, 'boolean', value);
}

export const isEmpty = (value: unknown): boolean => value === null || value === undefined;

export type { ColumnKind };
