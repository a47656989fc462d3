import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';
import { bearer, count, insertUser, issueToken, postJson, type RunningApi, startApi } from './harness';

const PASSWORD = 'cookie-pass-2026';
const HOUR = 3_600_000;
const EVIL = 'https://evil.example';

/** The session cookie's value and attributes from a Set-Cookie header, attribute names lower-cased. */
function sessionCookieOf(response: Response): { value: string; attributes: Record<string, string> } | null {
  const header = response.headers.getSetCookie().find((line) => line.startsWith('authorization='));
  if (!header) return null;
  const [pair = '', ...rest] = header.split(';').map((part) => part.trim());
  const attributes: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    attributes[(eq < 0 ? part : part.slice(0, eq)).toLowerCase()] = eq < 0 ? '' : part.slice(eq + 1);
  }
  return { value: decodeURIComponent(pair.slice('authorization='.length)), attributes };
}

const cookie = (token: string) => ({ cookie: `authorization=${encodeURIComponent(token)}` });

describe.each(testDatabaseKinds())('the session cookie ($name)', (kind) => {
  let db: Database;
  let api: RunningApi;
  let customerToken: string;

  const signIn = () => postJson(`${api.url}/v2/user/login`, { email: 'root@cookie.pt', password: PASSWORD });
  const signedIn = async () => sessionCookieOf(await signIn())!.value;
  const logout = (headers: Record<string, string>) =>
    fetch(`${api.url}/v2/user/logout`, { method: 'POST', headers });
  const me = (headers: Record<string, string>) => fetch(`${api.url}/v2/user/me`, { headers });

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
    await insertUser(db, { email: 'root@cookie.pt', password: PASSWORD, admin: true });
    customerToken = await issueToken(db, await insertUser(db, { email: 'ana@cookie.pt' }));
  });
  afterAll(async () => {
    await api.stop();
    await db.close();
  });
  beforeEach(async () => {
    api.clock.current = null;
    await db.query('DELETE FROM login_attempts');
  });

  it('is set by the server on sign-in: HttpOnly, Secure, SameSite=Strict, path /, for the lifetime', async () => {
    const response = await signIn();
    expect(response.status).toBe(200);
    const { token } = (await response.json()) as { token: string };
    expect(sessionCookieOf(response)).toEqual({
      value: token,
      attributes: {
        'max-age': String(7 * 24 * 3600),
        path: '/',
        httponly: '',
        secure: '',
        samesite: 'Strict',
      },
    });
  });

  it('authenticates reads, so media and download links work without a header', async () => {
    const response = await fetch(`${api.url}/v2/admin/professionals/status/count`, {
      headers: cookie(await signedIn()),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ EMAIL_VERIFIED: 0, DISABLED: 0 });
  });

  it('still answers 403 to a non-admin cookie, and 401 to a dead one, clearing it', async () => {
    const forbidden = await fetch(`${api.url}/v2/admin/professionals/status/count`, {
      headers: cookie(customerToken),
    });
    expect(forbidden.status).toBe(403);
    const dead = await fetch(`${api.url}/v2/admin/professionals/status/count`, { headers: cookie('nope') });
    expect(dead.status).toBe(401);
    expect(sessionCookieOf(dead)).toMatchObject({ value: '', attributes: { 'max-age': '0', httponly: '' } });
  });

  it("accepts a mutation with the cookie from the console's own origin; logout clears the cookie", async () => {
    const token = await signedIn();
    const response = await logout({ ...cookie(token), origin: api.url });
    expect(response.status).toBe(204);
    expect(sessionCookieOf(response)).toMatchObject({
      value: '',
      attributes: { 'max-age': '0', path: '/', httponly: '', samesite: 'Strict' },
    });
    expect((await me(cookie(token))).status).toBe(401);
  });

  it.each([
    ['another site', { origin: EVIL }],
    ['the null origin of a sandboxed page', { origin: 'null' }],
    ['the same host on another port', { origin: 'http://127.0.0.1:1' }],
    ['no Origin and no same-origin fetch metadata', {}],
    ['no Origin, fetched cross-site', { 'sec-fetch-site': 'cross-site' }],
  ])(
    'refuses a mutation with the cookie from %s: 403 ORIGIN_NOT_ALLOWED, nothing changed',
    async (_case, headers) => {
      const token = await signedIn();
      const logouts = await count(db, "audit_log WHERE action = 'user.logout'");
      const response = await logout({ ...cookie(token), ...headers });
      expect({ status: response.status, body: await response.json() }).toEqual({
        status: 403,
        body: { code: 'ORIGIN_NOT_ALLOWED' },
      });
      expect((await me(cookie(token))).status).toBe(200);
      expect(await count(db, "audit_log WHERE action = 'user.logout'")).toBe(logouts);
    },
  );

  it('refuses an admin upload riding on the cookie from another site, storing nothing', async () => {
    const files = await count(db, 'stored_files');
    const response = await fetch(`${api.url}/v2/admin/files?name=x.pdf`, {
      method: 'POST',
      headers: { ...cookie(await signedIn()), origin: EVIL, 'content-type': 'application/pdf' },
      body: '%PDF-1.4 cross-site',
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ code: 'ORIGIN_NOT_ALLOWED' });
    expect(await count(db, 'stored_files')).toBe(files);
  });

  it('accepts a same-origin fetch that sent no Origin (Sec-Fetch-Site: same-origin)', async () => {
    const response = await logout({ ...cookie(await signedIn()), 'sec-fetch-site': 'same-origin' });
    expect(response.status).toBe(204);
  });

  it('leaves Bearer clients alone: any Origin or none, no cookie set on their requests', async () => {
    const { token } = (await (await signIn()).json()) as { token: string };
    const read = await me({ ...bearer(token), origin: EVIL });
    expect(read.status).toBe(200);
    expect(sessionCookieOf(read)).toBeNull();
    expect((await logout({ ...bearer(token), origin: EVIL })).status).toBe(204);
    expect((await me(bearer(token))).status).toBe(401);
  });

  it('ends a cookie session after the idle time and after the lifetime, like a bearer one', async () => {
    const start = new Date('2026-04-01T08:00:00Z');
    api.clock.current = start;
    const idle = await signedIn();
    const busy = await signedIn();
    const at = async (ms: number, token: string) => {
      api.clock.current = new Date(start.getTime() + ms);
      return (await me(cookie(token))).status;
    };
    expect(await at(6 * HOUR, busy)).toBe(200);
    expect(await at(8 * HOUR + 1000, idle)).toBe(401);
    expect(await at(8 * HOUR + 1000, busy)).toBe(200);
    for (let hours = 14; hours < 7 * 24; hours += 6) expect(await at(hours * HOUR, busy)).toBe(200);
    expect(await at(7 * 24 * HOUR + 1000, busy)).toBe(401);
  });
});

describe.each(testDatabaseKinds())('session settings from the environment ($name)', (kind) => {
  let db: Database;

  beforeAll(async () => {
    db = await kind.open();
    await insertUser(db, { email: 'root@cookie.pt', password: PASSWORD, admin: true });
  });
  afterAll(async () => db.close());

  async function withApi(env: Record<string, string>, run: (api: RunningApi) => Promise<void>) {
    const api = await startApi(db, { env });
    try {
      await run(api);
    } finally {
      await api.stop();
    }
  }
  const signIn = (api: RunningApi) =>
    postJson(`${api.url}/v2/user/login`, { email: 'root@cookie.pt', password: PASSWORD });

  it('follows SESSION_IDLE_HOURS and SESSION_LIFETIME_DAYS, the cookie lasting the lifetime', async () => {
    await withApi({ SESSION_IDLE_HOURS: '1', SESSION_LIFETIME_DAYS: '2' }, async (api) => {
      const start = new Date('2026-04-02T08:00:00Z');
      api.clock.current = start;
      const response = await signIn(api);
      expect(sessionCookieOf(response)?.attributes['max-age']).toBe(String(2 * 24 * 3600));
      const { token } = (await response.json()) as { token: string };
      api.clock.current = new Date(start.getTime() + HOUR + 1000);
      expect((await fetch(`${api.url}/v2/user/me`, { headers: bearer(token) })).status).toBe(401);
    });
  });

  it('leaves Secure off in development (npm run dev serves plain http)', async () => {
    await withApi({ NODE_ENV: 'development' }, async (api) => {
      const attributes = sessionCookieOf(await signIn(api))!.attributes;
      expect(attributes).toMatchObject({ httponly: '', samesite: 'Strict' });
      expect(attributes).not.toHaveProperty('secure');
    });
  });

  it("takes PUBLIC_URL's origin as the console's, and then no longer the request's own host", async () => {
    await withApi({ PUBLIC_URL: 'https://admin.example.pt/console' }, async (api) => {
      const mutate = async (origin: string) => {
        const { value } = sessionCookieOf(await signIn(api))!;
        return (
          await fetch(`${api.url}/v2/user/logout`, { method: 'POST', headers: { ...cookie(value), origin } })
        ).status;
      };
      expect(await mutate('https://admin.example.pt')).toBe(204);
      expect(await mutate(api.url)).toBe(403);
      expect(await mutate('http://admin.example.pt')).toBe(403);
    });
  });

  it("accepts the request's own host in development even with a PUBLIC_URL (Vite's dev server)", async () => {
    await withApi({ NODE_ENV: 'development', PUBLIC_URL: 'https://admin.example.pt' }, async (api) => {
      const { value } = sessionCookieOf(await signIn(api))!;
      const response = await fetch(`${api.url}/v2/user/logout`, {
        method: 'POST',
        headers: { ...cookie(value), origin: api.url },
      });
      expect(response.status).toBe(204);
    });
  });

  it.each(['0', '-1', 'eight', 'NaN'])('refuses SESSION_IDLE_HOURS=%s at start', async (value) => {
    await expect(startApi(db, { env: { SESSION_IDLE_HOURS: value } })).rejects.toThrow(/SESSION_IDLE_HOURS/);
  });
});
