import type { Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { requireSession } from './auth';
import type { AppContext, AppEnv } from './context';
import { errorResponse, payloadTooLarge } from './errors';
import { noStore } from './no-store';
import { parseOrThrow, readJsonBody, readQuery, refuseNulBytes } from './validation';

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
/** The specification's maximum file size (40 MB); upload routes pass it as `maxBodyBytes`. */
export const UPLOAD_BODY_LIMIT_BYTES = 41_943_040;

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
   * `Cache-Control: no-store` on a public route whose answer is a secret (the login's token). Routes
   * that need a session always send it: the registry for 'session', app.ts for everything under /v2/admin/.
   */
  noStore?: true;
  responses: Record<number, ResponseSpec>;
  handler: (c: AppContext, input: RouteInput<B, Q, P>) => Response | Promise<Response>;
}

/** Every route goes through here, so the OpenAPI document and the authz test see all of them. */
export class RouteRegistry {
  readonly definitions: RouteDefinition[] = [];

  constructor(private readonly app: Hono<AppEnv>) {}

  add<B extends Schema, Q extends Schema, P extends Schema>(definition: RouteDefinition<B, Q, P>): void {
    const underAdmin = definition.path.startsWith('/v2/admin/');
    if (underAdmin !== (definition.auth === 'admin'))
      throw new Error(`${definition.path}: auth 'admin' is exactly the routes under /v2/admin/`);
    this.definitions.push(definition as unknown as RouteDefinition);

    const middlewares: MiddlewareHandler<AppEnv>[] = [];
    // First, so the session check's 401 is not cached either.
    if (definition.auth === 'session' || definition.noStore) middlewares.push(noStore);
    if (definition.auth === 'session') middlewares.push(requireSession);
    if (definition.method !== 'get')
      middlewares.push(
        bodyLimit({
          maxSize: definition.maxBodyBytes ?? JSON_BODY_LIMIT_BYTES,
          onError: (c) => errorResponse(c, payloadTooLarge()),
        }),
      );
    const handler: MiddlewareHandler<AppEnv> = async (c) => {
      const input = {
        params: definition.params
          ? parseOrThrow(definition.params, refuseNulBytes(c.req.param()))
          : undefined,
        query: definition.query ? parseOrThrow(definition.query, readQuery(c)) : undefined,
        body: definition.body ? parseOrThrow(definition.body, await readJsonBody(c)) : undefined,
      } as RouteInput<B, Q, P>;
      return definition.handler(c, input);
    };
    // Hono's overloads cannot type a spread of handlers; the chain itself is ordinary.
    const chain = [...middlewares, handler] as [MiddlewareHandler<AppEnv>];
    this.app.on(definition.method.toUpperCase(), definition.path, ...chain);
  }
}
