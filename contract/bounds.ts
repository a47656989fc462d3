import { z } from 'zod';

/**
 * Limits a value must meet before it reaches SQL. PostgreSQL refuses what these refuse (year 0000,
 * an offset of 23:59, 2^31 in an int4 column), and a refusal there is a 500 with the statement and
 * its parameters in the log; here it is a 400 naming the field (docs/decisions/0060).
 */

/** PostgreSQL's int4, the type of every cents, count and duration column. */
export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;

/** A whole number from a query string that fits an int4 column. */
export const int4Query = () => z.coerce.number().int().min(INT4_MIN).max(INT4_MAX);

/** Nothing the back office records or searches lies outside these years. */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2100;
/** Real UTC offsets lie within ±14:00 (Line Islands); the ISO regex alone allows ±23:59. */
const MAX_OFFSET_MINUTES = 14 * 60;

// `YYYY-MM-DD`, optionally a time (`T` as in ISO 8601, or a space as PostgreSQL prints timestamptz)
// and an offset: `Z`, `±HH`, `±HH:MM` or, for historical local mean time, `±HH:MM:SS`.
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2})(?::?(\d{2}))?(?::\d{2})?)?)?$/;

/** A real calendar date and time between MIN_YEAR and MAX_YEAR, its offset (if any) within ±14:00. */
export function isSaneTimestamp(text: string): boolean {
  const match = TIMESTAMP.exec(text);
  if (!match) return false;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match
    .slice(1, 7)
    .map((part) => Number(part ?? 0));
  if (year! < MIN_YEAR || year! > MAX_YEAR) return false;
  // Date.UTC rolls 31 February over into March: a date is real when it survives the round trip.
  const date = new Date(Date.UTC(year!, month! - 1, day!));
  if (date.getUTCMonth() !== month! - 1 || date.getUTCDate() !== day) return false;
  if (hour > 23 || minute > 59 || second > 59) return false;
  const offsetMinutes = Number(match[8] ?? 0) * 60 + Number(match[9] ?? 0);
  return offsetMinutes <= MAX_OFFSET_MINUTES;
}

/**
 * A bound of a date filter: `YYYY-MM-DD` (the routes read it as a whole day in Europe/Lisbon) or an
 * ISO 8601 instant with its offset. Every list route with dates uses this one schema.
 */
export const dateOrInstant = () =>
  z
    .union([z.iso.date(), z.iso.datetime({ offset: true })])
    .refine(isSaneTimestamp, { message: `years ${MIN_YEAR}–${MAX_YEAR}, offsets within ±14:00` });
