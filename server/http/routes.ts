import type { Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { errorBodySchema } from '../../contract/common';
import { requireSession } from './auth';
import type { AppContext, AppEnv } from './context';
import { ApiError, errorResponse, payloadTooLarge } from './errors';
import { noStore } from './no-store';
import { parseOrThrow, readJsonBody, readQuery, refuseNulBytes } from './validation';

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** `admin` is implied by (and required for) paths under `/v2/admin/`, guarded by one middleware. */
export type RouteAuth = 'public' | 'session' | 'admin';

export interface ResponseSpec {
  description: string;
  /** Omitted: no body (204) or a non-JSON body described by `contentType`. */
  schema?: z.ZodType;
  contentType?: string;
}

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<B extends Schema, Q extends Schema, P extends Schema> {
  body: Out<B>;
  query: Out<Q>;
  params: Out<P>;
}

export interface RouteDefinition<
  B extends Schema = Schema,
  Q extends Schema = Schema,
  P extends Schema = Schema,
> {
  method: Method;
  /** Hono syntax, e.g. `/v2/admin/users/:id`. */
  path: string;
  summary: string;
  tags: string[];
  auth: RouteAuth;
  /** JSON request body; validated before the handler runs. */
  body?: B;
  query?: Q;
  params?: P;
  /** Defaults to the JSON limit; uploads raise it. */
  maxBodyBytes?: number;
  /**
   * The body is raw bytes (a file upload) that the handler streams where it goes with `requestBody(c)`,
   * enforcing maxBodyBytes itself while reading; described in the OpenAPI document as
   * `application/octet-stream`. Its type is the handler's to establish, never the request's header. The
   * registry refuses only a declared Content-Length over the limit: Hono's bodyLimit reads a chunked body
   * whole into memory before the handler starts.
   */
  rawBody?: { description: string };
  /**
   * `Cache-Control: no-store` on a public route whose answer is a secret (the login's token). Routes
   * that need a session always send it: the registry for 'session', app.ts for everything under /v2/admin/.
   */
  noStore?: true;
  responses: Record<number, ResponseSpec>;
  handler: (c: AppContext, input: RouteInput<B, Q, P>) => Response | Promise<Response>;
}

export interface RegistryOptions {
  /**
   * Check every answer a handler returns against the route's `responses`: its status must be declared,
   * and a JSON body must match that status's schema. Tests turn it on (config.checkResponses), so every
   * API suite proves the contract on real data; a mismatch is a 500 RESPONSE_CONTRACT_VIOLATION.
   */
  checkResponses?: boolean;
}

/**
 * The answer as the contract declares it, or a 500 naming the route, the status and where the body
 * differs (never the body itself).
 */
export async function checkResponse(definition: RouteDefinition, response: Response): Promise<Response> {
  const spec = definition.responses[response.status];
  const where = `${definition.method.toUpperCase()} ${definition.path} → ${response.status}`;
  const violation = (detail: string) => {
    console.error(`response contract violation: ${where}: ${detail}`);
    return new ApiError(500, 'RESPONSE_CONTRACT_VIOLATION', `${where}: ${detail}`);
  };
  if (!spec) throw violation('status not declared');
  const isJson = /^application\/(?:[\w.-]+\+)?json/i.test(response.headers.get('content-type') ?? '');
  if (!spec.schema) {
    if (isJson) throw violation('JSON body where none is declared');
    return response;
  }
  if (!isJson) throw violation('declared JSON, answered another content type');
  const result = spec.schema.safeParse(await response.clone().json());
  if (!result.success)
    throw violation(
      result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.code}`).join('; '),
    );
  return response;
}

/** 413 before reading a byte when the declared length is over the limit; a chunked body is the handler's to count. */
const refuseDeclaredOversize =
  (maxSize: number): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (Number(c.req.header('content-length') ?? 0) > maxSize) return errorResponse(c, payloadTooLarge());
    await next();
  };

/** Every route goes through here, so the OpenAPI document and the authz test see all of them. */
export class RouteRegistry {
  readonly definitions: RouteDefinition[] = [];

  constructor(
    private readonly app: Hono<AppEnv>,
    private readonly options: RegistryOptions = {},
  ) {}

  add<B extends Schema, Q extends Schema, P extends Schema>(definition: RouteDefinition<B, Q, P>): void {
    const underAdmin = definition.path.startsWith('/v2/admin/');
    if (underAdmin !== (definition.auth === 'admin'))
      throw new Error(`${definition.path}: auth 'admin' is exactly the routes under /v2/admin/`);
    this.definitions.push(definition as unknown as RouteDefinition);

    const middlewares: MiddlewareHandler<AppEnv>[] = [];
    // First, so the session check's 401 is not cached either.
    if (definition.auth === 'session' || definition.noStore) middlewares.push(noStore);
    if (definition.auth === 'session') middlewares.push(requireSession);
    const maxSize = definition.maxBodyBytes ?? JSON_BODY_LIMIT_BYTES;
    if (definition.method !== 'get')
      middlewares.push(
        definition.rawBody
          ? refuseDeclaredOversize(maxSize)
          : bodyLimit({ maxSize, onError: (c) => errorResponse(c, payloadTooLarge()) }),
      );
    const handler: MiddlewareHandler<AppEnv> = async (c) => {
      // The body first: one too deep (BODY_TOO_DEEP) or not JSON is refused before any other work.
      const body = definition.body ? await readJsonBody(c) : undefined;
      const input = {
        params: definition.params
          ? parseOrThrow(definition.params, refuseNulBytes(c.req.param()))
          : undefined,
        query: definition.query ? parseOrThrow(definition.query, readQuery(c)) : undefined,
        body: definition.body ? parseOrThrow(definition.body, body) : undefined,
      } as RouteInput<B, Q, P>;
      const response = await definition.handler(c, input);
      return this.options.checkResponses
        ? checkResponse(definition as unknown as RouteDefinition, response)
        : response;
    };
    // Hono's overloads cannot type a spread of handlers; the chain itself is ordinary.
    const chain = [...middlewares, handler] as [MiddlewareHandler<AppEnv>];
    this.app.on(definition.method.toUpperCase(), definition.path, ...chain);
  }
}

/** A route's refusal response in the OpenAPI document: the codes it may answer, in the one error body. */
export const refused = (codes: string) => ({ description: codes, schema: errorBodySchema });
