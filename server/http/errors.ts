import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorBody, FieldError } from '../../contract/common';
import { Refusal } from '../platform/refusal';
import { REFUSAL_STATUS } from './refusals';

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message?: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message ?? code);
  }

  get body(): ErrorBody {
    // `extra` first, so no fact can overwrite the code, message or field errors.
    const body: ErrorBody = { ...this.extra, code: this.code };
    if (this.message !== this.code) body.message = this.message;
    if (this.errors) body.errors = this.errors;
    return body;
  }
}

export const unauthorized = () => new ApiError(401, 'UNAUTHORIZED');
export const forbidden = () => new ApiError(403, 'FORBIDDEN');
export const notFound = () => new ApiError(404, 'NOT_FOUND');
// The unread rest of the body is still on the wire, so the connection cannot carry another request.
export const payloadTooLarge = () =>
  new ApiError(413, 'PAYLOAD_TOO_LARGE', undefined, undefined, { Connection: 'close' });

/** A service's refusal as the API answers it: the status from REFUSAL_STATUS, the code as it is. */
export function refusalToApiError(refusal: Refusal): ApiError {
  const { field, retryAfterSeconds, extra } = refusal.details;
  return new ApiError(
    REFUSAL_STATUS[refusal.code],
    refusal.code,
    undefined,
    field === undefined ? undefined : [{ field, code: 'invalid' }],
    retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(retryAfterSeconds) },
    extra,
  );
}

export function errorResponse(c: Context, error: ApiError): Response {
  return c.json(error.body, error.status, error.headers);
}

/** PostgreSQL's error codes (SQLSTATE): five digits or capitals, at least one a digit (not EPIPE). */
const SQLSTATE = /^(?=.*\d)[0-9A-Z]{5}$/;

/**
 * What the log may say about an unexpected error: its class, code and message. Never the whole
 * object: a database error carries the statement and its parameters, which can hold personal data.
 * Nor a database error's message: PostgreSQL quotes the offending value there (decision 0122).
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return `non-error thrown (${typeof error})`;
  const code = (error as { code?: unknown }).code;
  // The stack's frames say where it failed, and hold only file names and lines.
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const what =
    typeof code === 'string' && SQLSTATE.test(code)
      ? `${error.name} ${code} (a database error: its message is not logged)`
      : `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}`;
  return [what, ...frames].join('\n');
}

/**
 * An ApiError is answered as it is, a service's Refusal through REFUSAL_STATUS; anything else is a bug:
 * log what it was (describeError), answer without internals.
 */
export function handleError(error: Error, c: Context): Response {
  if (error instanceof ApiError) return errorResponse(c, error);
  if (error instanceof Refusal) return errorResponse(c, refusalToApiError(error));
  console.error(`${c.req.method} ${c.req.path} failed: ${describeError(error)}`);
  return errorResponse(c, new ApiError(500, 'GENERIC_ERROR'));
}
