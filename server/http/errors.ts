import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorBody, FieldError } from '../../contract/common';
import { describeError } from '../platform/describe-error';
import { Refusal } from '../platform/refusal';
import { REFUSAL_STATUS } from './refusals';

/** SQLSTATE 57014: a statement cancelled by the statement timeout (or by an operator, pg_cancel_backend). */
const QUERY_CANCELED = '57014';

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

/**
 * An ApiError is answered as it is, a service's Refusal through REFUSAL_STATUS; anything else is a bug:
 * log what it was (describeError), answer without internals.
 */
export function handleError(error: Error, c: Context): Response {
  if (error instanceof ApiError) return errorResponse(c, error);
  if (error instanceof Refusal) return errorResponse(c, refusalToApiError(error));
  // PostgreSQL cancelled a statement that ran past STATEMENT_TIMEOUT_MS (only reads outside a transaction
  // have one, server/db/client.ts): the database is busy, not the request wrong — the same read may succeed.
  if ((error as { code?: unknown }).code === QUERY_CANCELED) {
    console.warn(`${c.req.method} ${c.req.path} cancelled by the statement timeout`);
    return errorResponse(c, new ApiError(503, 'DATABASE_BUSY', undefined, undefined, { 'Retry-After': '5' }));
  }
  console.error(`${c.req.method} ${c.req.path} failed: ${describeError(error)}`);
  return errorResponse(c, new ApiError(500, 'GENERIC_ERROR'));
}
