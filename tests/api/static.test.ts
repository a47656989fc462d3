import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { CONTENT_SECURITY_POLICY } from '../../server/http/security-headers';
import { testDatabaseKinds } from '../support/databases';
import { type RunningApi, startApi } from './harness';

const SECRET = 'secret-outside-the-console-build';
const INDEX =
  '<!doctype html><title>console</title><script type="module" src="/assets/app-3f9a1c.js"></script>';

/** node:http sends the path byte for byte, unlike fetch, which normalises `..` away. */
function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/`, { path, headers: { accept: 'text/html' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the console is served with SPA fallback and security headers', () => {
  let db: Database;
  let api: RunningApi;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'console-'));
    const dist = join(root, 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'app-3f9a1c.js'), 'console.log("app");');
    writeFileSync(join(dist, 'assets', 'app-3f9a1c.css'), 'body{}');
    writeFileSync(join(dist, 'favicon.svg'), '<svg/>');
    writeFileSync(join(root, 'secret.txt'), SECRET);
    writeFileSync(join(root, 'dist-secret.txt'), SECRET);
    db = await testDatabaseKinds()[0]!.open();
    api = await startApi(db, { staticDir: dist });
  });
  afterAll(async () => {
    await api.stop();
    await db.close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = (path: string, accept = 'text/html') => fetch(`${api.url}${path}`, { headers: { accept } });

  it.each([
    ['/', 'text/html; charset=utf-8', 'no-cache'],
    ['/index.html', 'text/html; charset=utf-8', 'no-cache'],
    ['/assets/app-3f9a1c.js', 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable'],
    ['/assets/app-3f9a1c.css', 'text/css; charset=utf-8', 'public, max-age=31536000, immutable'],
    ['/favicon.svg', 'image/svg+xml', 'no-cache'],
  ])('serves %s as %s with Cache-Control %s', async (path, contentType, cacheControl) => {
    const response = await get(path, '*/*');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(response.headers.get('cache-control')).toBe(cacheControl);
  });

  it.each([
    '/customers',
    '/professionals/00000000-0000-4000-8000-000000000001',
    '/login?redirectPath=%2Fsepa',
  ])('falls back to index.html for the deep link %s', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe(INDEX);
  });

  it('does not answer a missing script with HTML', async () => {
    const response = await get('/assets/missing-123.js', '*/*');
    expect(response.status).toBe(404);
  });

  it('never falls back to the console for /v2 paths', async () => {
    const response = await get('/v2/unknown');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: 'NOT_FOUND' });
  });

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E%2Fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/..%5csecret.txt',
    '/%252e%252e/secret.txt',
    '/../dist-secret.txt',
    '/%00/../secret.txt',
  ])('never reads a file outside the build for %s', async (path) => {
    const { status, body } = await rawGet(api.url, path);
    expect(body).not.toContain(SECRET);
    expect([200, 400, 404]).toContain(status);
  });

  it.each([
    ['the console', '/customers'],
    ['a script', '/assets/app-3f9a1c.js'],
    ['the API', '/v2/health'],
    ['an API error', '/v2/user/me'],
    ['a miss', '/v2/unknown'],
  ])('sends the security headers on %s', async (_what, path) => {
    const response = await get(path);
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it('allows no inline scripts and no framing', () => {
    const directives = Object.fromEntries(
      CONTENT_SECURITY_POLICY.split('; ').map((directive) => {
        const [name, ...values] = directive.split(' ');
        return [name, values];
      }),
    );
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
  });
});
