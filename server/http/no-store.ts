import type { MiddlewareHandler } from 'hono';

/**
 * An answer that needs a session holds someone's data, and the login's holds a token: no browser or
 * proxy cache may keep either. Set after the handler, so error answers carry it too.
 */
export const noStore: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set('Cache-Control', 'no-store');
};
