import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { findSession } from '../platform/sessions';
import { type AppEnv, now } from './context';
import { forbidden, unauthorized } from './errors';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const AUTH_COOKIE = 'authorization';

/**
 * The bearer header, or — for reads only — the console's `authorization` cookie, so that
 * `<audio src>` and download links (which cannot send headers) work with range requests.
 * Mutations never accept the cookie: a cross-site form cannot act on the admin's behalf.
 */
function requestToken(c: Context<AppEnv>): string | undefined {
  const bearer = BEARER.exec(c.req.header('authorization') ?? '')?.[1];
  if (bearer) return bearer;
  const method = c.req.method;
  return method === 'GET' || method === 'HEAD' ? getCookie(c, AUTH_COOKIE) || undefined : undefined;
}

/** 401 unless the request carries a live token; exposes the session as `c.var.session`. */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = requestToken(c);
  const session = token ? await findSession(c.var.deps.db, token, now(c)) : null;
  if (!session) throw unauthorized();
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
