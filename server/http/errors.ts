import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';

export const fieldErrorSchema = z.object({ field: z.string(), code: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** The one error body every `/v2` failure answers with; the console translates `code`. */
export const errorBodySchema = z.object({
  code: z.string(),
  message: z.string().optional(),
  errors: z.array(fieldErrorSchema).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message?: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message ?? code);
  }

  get body(): ErrorBody {
    const body: ErrorBody = { code: this.code };
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

export function errorResponse(c: Context, error: ApiError): Response {
  return c.json(error.body, error.status, error.headers);
}

/**
 * What the log may say about an unexpected error: its class, code and message. Never the whole
 * object: a database error carries the statement and its parameters, which can hold personal data.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return `non-error thrown (${typeof error})`;
  const code = (error as { code?: unknown }).code;
  // The stack's frames say where it failed, and hold only file names and lines.
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return [`${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}`, ...frames].join(
    '\n',
  );
}

/** Anything that is not an ApiError is a bug: log what it was (describeError), answer without internals. */
export function handleError(error: Error, c: Context): Response {
  if (error instanceof ApiError) return errorResponse(c, error);
  console.error(`${c.req.method} ${c.req.path} failed: ${describeError(error)}`);
  return errorResponse(c, new ApiError(500, 'GENERIC_ERROR'));
}
