import { z } from 'zod';
import { ApiError } from '../http/errors';

/**
 * Opaque keyset cursors: base64url JSON of the last row's sort key (as PostgreSQL's own text, so
 * it compares exactly on the way back) and id, plus whatever must not change between pages.
 */
export function encodeCursor(value: Record<string, string>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor<S extends z.ZodType>(schema: S, cursor: string): z.output<S> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const result = schema.safeParse(parsed);
  if (!result.success)
    throw new ApiError(400, 'VALIDATION_ERROR', undefined, [{ field: 'cursor', code: 'invalid' }]);
  return result.data;
}

export const uuidShape = z.uuid();
export const isUuid = (value: string): boolean => uuidShape.safeParse(value).success;
