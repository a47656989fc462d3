import type { MiddlewareHandler } from 'hono';
import { findSession } from '../services/sessions';
import { type AppEnv, now } from './context';
import { forbidden, unauthorized } from './errors';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** 401 unless the request carries a live bearer token; exposes the session as `c.var.session`. */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = BEARER.exec(c.req.header('authorization') ?? '')?.[1];
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
