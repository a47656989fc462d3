import type { MiddlewareHandler } from 'hono';
import { requestScheme } from './client-address';
import type { AppContext, AppEnv } from './context';

/** No inline scripts anywhere: the console is built so that `script-src 'self'` is enough. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

/** A year: browsers then refuse plain http to this host, and a downgrading network cannot strip TLS. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/**
 * HSTS when the product is reached over HTTPS: PUBLIC_URL says so, or this request came through a
 * trusted proxy that says the client used https (a header anyone else sends is ignored). Over plain
 * http browsers ignore it, so development and plain-http installations are unaffected.
 */
const servedOverHttps = (c: AppContext) =>
  c.var.deps.config.publicUrl.startsWith('https:') || requestScheme(c) === 'https';

/** Outermost middleware, so error and not-found answers carry the headers too. */
export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(HEADERS)) c.res.headers.set(name, value);
  if (servedOverHttps(c)) c.res.headers.set('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
};
