import { z } from 'zod';
import { INT4_MAX, INT4_MIN, isSaneTimestamp } from './bounds';
import { ApiError } from './errors';

/**
 * Opaque keyset cursors: base64url JSON of the last row's sort key (as PostgreSQL's own text, so it
 * compares exactly on the way back) and id, plus whatever must not change between pages. A client
 * can send anything back, so every part is checked against the type SQL will cast it to.
 */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export const invalidCursor = () =>
  new ApiError(400, 'INVALID_CURSOR', undefined, [{ field: 'cursor', code: 'invalid' }]);

export function decodeCursor<S extends z.ZodType>(schema: S, cursor: string): z.output<S> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw invalidCursor();
  return result.data;
}

const noNulByte = (text: string) => !text.includes('\u0000');

/**
 * The sort key as PostgreSQL printed it, by the SQL type it is cast back to: `timestamptz` keys are
 * PostgreSQL's text of a timestamp (or `-infinity`, what a missing date sorts as), `int` keys whole
 * numbers within int4, `text` keys any text PostgreSQL can hold.
 */
export const SORT_KEY_SCHEMAS = {
  timestamptz: z.string().refine((key) => key === '-infinity' || isSaneTimestamp(key)),
  int: z
    .string()
    .regex(/^-?\d{1,10}$/)
    .refine((key) => Number(key) >= INT4_MIN && Number(key) <= INT4_MAX),
  text: z.string().max(2000).refine(noNulByte),
} as const;
export type SortKeyType = keyof typeof SORT_KEY_SCHEMAS;
