import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { serialize } from 'hono/utils/cookie';
import { refuse } from '../platform/refusal';
import { findSession } from '../platform/sessions';
import { requestScheme } from './client-address';
import { type AppContext, type AppEnv, now } from './context';
import { ApiError, forbidden } from './errors';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
/** The specification's "authorization cookie": the server sets it, reads it and clears it. */
export const SESSION_COOKIE = 'authorization';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The session cookie as the server writes it (docs/decisions/0126): out of the console's JavaScript's
 * reach (HttpOnly), never sent by another site's page (SameSite=Strict), only over HTTPS (Secure) — but
 * in `npm run dev`, which serves plain http. It outlives no session: its Max-Age is the lifetime.
 */
function sessionCookie(c: AppContext, value: string, maxAgeSeconds: number): string {
  return serialize(SESSION_COOKIE, value, {
    httpOnly: true,
    secure: !c.var.deps.config.development,
    sameSite: 'Strict',
    path: '/',
    maxAge: maxAgeSeconds,
  });
}

export function setSessionCookie(c: AppContext, token: string): void {
  const lifetimeSeconds = Math.floor(c.var.deps.config.session.lifetimeMs / 1000);
  c.header('Set-Cookie', sessionCookie(c, token, lifetimeSeconds), { append: true });
}

export const clearedSessionCookie = (c: AppContext): string => sessionCookie(c, '', 0);

type Credentials = { token: string; via: 'bearer' | 'cookie' };

/** The bearer header (API clients), else the session cookie (the console, `<audio src>`, downloads). */
function requestCredentials(c: Context<AppEnv>): Credentials | null {
  const bearer = BEARER.exec(c.req.header('authorization') ?? '')?.[1];
  if (bearer) return { token: bearer, via: 'bearer' };
  const cookie = getCookie(c, SESSION_COOKIE);
  return cookie ? { token: cookie, via: 'cookie' } : null;
}

/**
 * The origins the console is served from: PUBLIC_URL's; and the request's own (its scheme and Host)
 * in development (Vite's dev server proxies with its own host) or when PUBLIC_URL is unset, where the
 * configured address is only a guess at this machine's.
 */
function consoleOrigins(c: AppContext): string[] {
  const { config } = c.var.deps;
  const origins = [new URL(config.publicUrl).origin];
  const host = c.req.header('host');
  if ((config.development || !config.publicUrlSet) && host) origins.push(`${requestScheme(c)}://${host}`);
  return origins;
}

/**
 * A browser sends the cookie with whatever a page makes it request; SameSite=Strict keeps other sites'
 * pages from doing so, and this is the second lock: a mutation riding on the cookie must say it comes
 * from the console's own origin. Browsers send Origin on every non-GET fetch; a request without one
 * passes only if the browser says it is same-origin (Sec-Fetch-Site).
 */
function fromConsoleOrigin(c: AppContext): boolean {
  const origin = c.req.header('origin');
  if (origin === undefined) return c.req.header('sec-fetch-site') === 'same-origin';
  return consoleOrigins(c).includes(origin);
}

/**
 * 401 unless the request carries a live token; exposes the session as `c.var.session`. A cookie that
 * names no live session is cleared with the 401, so the browser stops sending it.
 */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const credentials = requestCredentials(c);
  if (credentials?.via === 'cookie' && !SAFE_METHODS.has(c.req.method) && !fromConsoleOrigin(c))
    throw refuse('ORIGIN_NOT_ALLOWED');
  const { db, config } = c.var.deps;
  const session = credentials ? await findSession(db, credentials.token, now(c), config.session) : null;
  if (!session)
    throw new ApiError(
      401,
      'UNAUTHORIZED',
      undefined,
      undefined,
      credentials?.via === 'cookie' ? { 'Set-Cookie': clearedSessionCookie(c) } : undefined,
    );
  c.set('session', session);
  await next();
};

/**
 * Mounted once on `/v2/admin/*`, so every admin route — including ones added later — is
 * protected without opting in: 401 without a live token, 403 for a user without admin data.
 */
export const requireAdmin: MiddlewareHandler<AppEnv> = (c, next) =>
  requireSession(c, async () => {
    if (!c.var.session.isAdmin) throw forbidden();
    await next();
  });
