import type { Context } from 'hono';
import type { z } from 'zod';
import type { FieldError } from '../../contract/common';
import { ApiError } from './errors';

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ApiError(400, 'VALIDATION_ERROR', undefined, toFieldErrors(result.error, input));
}

/**
 * The console shows these codes next to the field, so they are few and stable: `required` for a
 * missing or blank value, `email`, `too_small`/`too_big` for bounds, `invalid` for anything else.
 */
export function toFieldErrors(error: z.ZodError, input: unknown): FieldError[] {
  return error.issues.map((issue) => ({ field: issue.path.join('.'), code: fieldCode(issue, input) }));
}

function fieldCode(issue: z.core.$ZodIssue, input: unknown): string {
  const value = valueAt(input, issue.path);
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
    return 'required';
  if (issue.code === 'invalid_format' && issue.format === 'email') return 'email';
  if (issue.code === 'too_small' || issue.code === 'too_big') return issue.code;
  return 'invalid';
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Every string in a value, with its dotted path as `toFieldErrors` names fields. */
function* stringsIn(value: unknown, path: string[] = []): Generator<[string, string]> {
  if (typeof value === 'string') yield [path.join('.'), value];
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) yield* stringsIn(item, [...path, key]);
}

/**
 * PostgreSQL text cannot hold U+0000: a NUL byte that reached SQL failed there as a 500. The readers
 * of the query, the path and the JSON body refuse it, so no route has to remember to.
 */
export function refuseNulBytes<T>(input: T): T {
  const errors = [...stringsIn(input)]
    .filter(([, text]) => text.includes('\u0000'))
    .map(([field]) => ({ field, code: 'invalid' }));
  if (errors.length > 0) throw new ApiError(400, 'VALIDATION_ERROR', undefined, errors);
  return input;
}

/**
 * How deep a JSON body may nest arrays and objects. The deepest request the API declares nests three
 * (a settlement confirmation's adjustments); 32 leaves room for any later one. Deeper bodies only
 * cost: 100,000 levels took ~0.6 s of CPU and overflowed the stack of every recursive walk after the
 * parse (issue 28), so they are refused before the parse.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, read in one pass without parsing
 * (brackets inside strings do not count) and stopping at the first level too deep: a 100,000-deep
 * body is refused after `limit` characters. Text that is not JSON is JSON.parse's to refuse.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth--;
  }
  return false;
}

/** `application/json`, or a `+json` type, with any parameters (`; charset=utf-8`). */
const JSON_CONTENT_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

const unsupportedMediaType = () => new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE');

/**
 * The body of a JSON route, which must say it is JSON: a form or text body parsed as JSON anyway is
 * how a cross-site form (which cannot send `application/json`) would reach the API. An empty body
 * without a type reads as `{}`, so a bare POST lists every required field instead of failing. Its size
 * is bounded by the registry's body limit (413), its depth here (400 BODY_TOO_DEEP).
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const type = c.req.header('content-type');
  if (type !== undefined && !JSON_CONTENT_TYPE.test(type)) throw unsupportedMediaType();
  const text = await c.req.text();
  if (type === undefined && text !== '') throw unsupportedMediaType();
  if (text.trim() === '') return {};
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new ApiError(400, 'BODY_TOO_DEEP');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'INVALID_JSON', 'The request body is not valid JSON');
  }
  return refuseNulBytes(body);
}

/** Repeated keys (`status=A&status=B`) become arrays; single keys stay strings. */
export function readQuery(c: Context): Record<string, string | string[]> {
  const entries = Object.entries(c.req.queries()).map(([key, values]) => [
    key,
    values.length === 1 ? values[0]! : values,
  ]);
  return refuseNulBytes(Object.fromEntries(entries));
}
