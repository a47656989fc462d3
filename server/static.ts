import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import type { MiddlewareHandler } from 'hono';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
};

// Vite puts a content hash in every file name under assets/, so those never change in place.
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * Resolves a URL path inside `root`, or null when it would escape it (`..`, encoded separators,
 * NUL bytes) — whatever the URL, no file outside the console build is ever read.
 */
export function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const target = resolve(root, `.${decoded.startsWith('/') ? '' : '/'}${decoded}`);
  return target === root || target.startsWith(root + sep) ? target : null;
}

async function fileResponse(path: string, method: string): Promise<Response | null> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return null;
  const isIndex = path.endsWith(`${sep}index.html`);
  const isHashedAsset = path.includes(`${sep}assets${sep}`);
  const headers = {
    'Content-Type': CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': String(info.size),
    'Cache-Control': isHashedAsset && !isIndex ? IMMUTABLE : REVALIDATE,
  };
  return new Response(method === 'HEAD' ? null : await readFile(path), { headers });
}

/**
 * Serves the built console. Paths outside `/v2` that match no file fall back to index.html when
 * the client asks for HTML (a browser navigating to a deep link); anything else is left to the
 * not-found handler, so a missing script does not come back as HTML.
 */
export function serveConsole(staticDir: string): MiddlewareHandler {
  const root = resolve(staticDir);
  const index = resolve(root, 'index.html');
  return async (c, next) => {
    const method = c.req.method;
    if ((method !== 'GET' && method !== 'HEAD') || c.req.path === '/v2' || c.req.path.startsWith('/v2/'))
      return next();
    // The raw path, decoded exactly once here (c.req.path is already decoded).
    const target = resolveInside(root, new URL(c.req.url).pathname);
    if (target === null) return next();
    const direct = await fileResponse(target === root ? index : target, method);
    if (direct) return direct;
    if ((c.req.header('accept') ?? '').includes('text/html')) {
      const fallback = await fileResponse(index, method);
      if (fallback) return fallback;
    }
    return next();
  };
}
