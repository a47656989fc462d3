import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { profileSchema } from '../../contract/session';
import type { Database } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';
import { bearer, count, insertUser, postJson, type RunningApi, startApi } from './harness';

const PASSWORD = 'correct-horse-9';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(testDatabaseKinds())('sign-in and session over HTTP on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  const login = (email: string, password: string) =>
    postJson(`${api.url}/v2/user/login`, { email, password });
  const sessions = () => count(db, 'sessions');

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
    await insertUser(db, { email: 'Admin@Demo.pt', password: PASSWORD, admin: true });
    await insertUser(db, { email: 'off@demo.pt', password: PASSWORD, admin: true, disabled: true });
    await insertUser(db, { email: 'patient@demo.pt', password: PASSWORD, role: 'CUSTOMER' });
  });
  afterAll(async () => {
    await api.stop();
    await db.close();
  });
  beforeEach(async () => {
    api.clock.current = null;
    // Throttling counts per e-mail across tests; each test starts with a clean slate.
    await db.query('DELETE FROM login_attempts');
  });

  it('signs an administrator in, case-insensitively, with a token and the profile', async () => {
    const response = await login('  admin@DEMO.pt ', PASSWORD);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { token: string; user: unknown };
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const profile = profileSchema.parse(body.user);
    expect(profile.user.email).toBe('Admin@Demo.pt');
    expect(profile.adminData).toEqual({ permissions: ['all'] });
    expect(profile.selectedLocale).toBe('pt-PT');

    const me = await fetch(`${api.url}/v2/user/me`, { headers: bearer(body.token) });
    expect(me.status).toBe(200);
    expect(profileSchema.parse(await me.json()).user.id).toBe(profile.user.id);
  });

  it('stores only the hash of the token, with a 7-day expiry, and audits the sign-in', async () => {
    const { token, user } = (await (await login('admin@demo.pt', PASSWORD)).json()) as {
      token: string;
      user: { user: { id: string } };
    };
    const { rows } = await db.query<{ token_hash: string; days: number }>(
      `SELECT token_hash, extract(epoch FROM expires_at - created_at) / 86400 AS days
         FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [user.user.id],
    );
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.token_hash).not.toContain(token);
    expect(Number(rows[0]!.days)).toBe(7);
    expect(
      await count(db, "audit_log WHERE action = 'user.login' AND actor_id = $1", [user.user.id]),
    ).toBeGreaterThan(0);
  });

  it.each([
    ['a wrong password', 'admin@demo.pt', 'wrong-password'],
    ['an unknown e-mail', 'nobody@demo.pt', PASSWORD],
    ["a regular user's correct password", 'patient@demo.pt', PASSWORD],
    ["a disabled administrator's correct password", 'off@demo.pt', PASSWORD],
  ])('refuses %s with EMAIL_OR_PASSWORD_INVALID and no session', async (_case, email, password) => {
    const before = await sessions();
    const response = await login(email, password);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ code: 'EMAIL_OR_PASSWORD_INVALID' });
    expect(await sessions()).toBe(before);
    expect(await count(db, 'login_attempts WHERE email = $1 AND NOT succeeded', [email])).toBe(1);
  });

  it('kills the token on logout and audits it', async () => {
    const { token } = (await (await login('admin@demo.pt', PASSWORD)).json()) as { token: string };
    const logout = await fetch(`${api.url}/v2/user/logout`, { method: 'POST', headers: bearer(token) });
    expect(logout.status).toBe(204);
    expect(await count(db, "audit_log WHERE action = 'user.logout'")).toBeGreaterThan(0);
    const me = await fetch(`${api.url}/v2/user/me`, { headers: bearer(token) });
    expect(me.status).toBe(401);
    expect(await me.json()).toEqual({ code: 'UNAUTHORIZED' });
    const again = await fetch(`${api.url}/v2/user/logout`, { method: 'POST', headers: bearer(token) });
    expect(again.status).toBe(401);
  });

  it('refuses a token used every 7 hours once 7 days have passed since sign-in (the absolute lifetime)', async () => {
    const start = new Date('2026-03-01T10:00:00Z');
    api.clock.current = start;
    const { token } = (await (await login('admin@demo.pt', PASSWORD)).json()) as { token: string };
    const me = async (at: number) => {
      api.clock.current = new Date(start.getTime() + at);
      return (await fetch(`${api.url}/v2/user/me`, { headers: bearer(token) })).status;
    };
    // Never idle for 8 hours, so only the lifetime can end it.
    for (let at = 7 * HOUR; at < 7 * DAY; at += 7 * HOUR) expect(await me(at)).toBe(200);
    expect(await me(7 * DAY - 1000)).toBe(200);
    expect(await me(7 * DAY + 1000)).toBe(401);
  });

  it('refuses a token unused for 8 hours (the idle timeout), each use restarting the wait', async () => {
    const start = new Date('2026-03-10T10:00:00Z');
    api.clock.current = start;
    const { token } = (await (await login('admin@demo.pt', PASSWORD)).json()) as { token: string };
    const me = async (at: number) => {
      api.clock.current = new Date(start.getTime() + at);
      return (await fetch(`${api.url}/v2/user/me`, { headers: bearer(token) })).status;
    };
    expect(await me(8 * HOUR - 1000)).toBe(200);
    expect(await me(16 * HOUR - 2000)).toBe(200);
    expect(await me(24 * HOUR)).toBe(401);
  });

  it.each([
    ['no header', {}],
    ['a made-up token', bearer('not-a-real-token')],
    ['another scheme', { authorization: 'Basic YWRtaW46YWRtaW4=' }],
  ])('answers /user/me with 401 UNAUTHORIZED for %s', async (_case, headers) => {
    const response = await fetch(`${api.url}/v2/user/me`, { headers });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ code: 'UNAUTHORIZED' });
  });

  it.each([
    [
      'missing fields',
      {},
      [
        { field: 'email', code: 'required' },
        { field: 'password', code: 'required' },
      ],
    ],
    [
      'a malformed e-mail',
      { email: 'admin-at-demo', password: PASSWORD },
      [{ field: 'email', code: 'email' }],
    ],
    [
      'blank values',
      { email: ' ', password: '' },
      [
        { field: 'email', code: 'required' },
        { field: 'password', code: 'required' },
      ],
    ],
    [
      'a number for a password',
      { email: 'admin@demo.pt', password: 12345678 },
      [{ field: 'password', code: 'invalid' }],
    ],
  ])('rejects %s with VALIDATION_ERROR and no session', async (_case, body, errors) => {
    const before = await sessions();
    const response = await postJson(`${api.url}/v2/user/login`, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: 'VALIDATION_ERROR', errors });
    expect(await sessions()).toBe(before);
  });

  it('rejects malformed JSON with INVALID_JSON and no session', async () => {
    const before = await sessions();
    const response = await postJson(`${api.url}/v2/user/login`, '{"email": "admin@demo.pt", "password": ');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('INVALID_JSON');
    expect(await sessions()).toBe(before);
  });

  it('rejects a body over 1 MB with 413 PAYLOAD_TOO_LARGE and no session', async () => {
    const before = await sessions();
    const response = await postJson(`${api.url}/v2/user/login`, {
      email: 'admin@demo.pt',
      password: PASSWORD,
      padding: 'x'.repeat(1024 * 1024),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await sessions()).toBe(before);
  });

  it('rejects an oversized body sent without Content-Length (chunked)', async () => {
    const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(`${api.url}/v2/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it('throttles after 10 failures in 15 minutes, even the right password, counted in the database', async () => {
    const start = new Date('2026-04-01T09:00:00Z');
    for (let attempt = 0; attempt < 10; attempt++) {
      api.clock.current = new Date(start.getTime() + attempt * 60_000);
      expect((await login('Admin@demo.pt', `wrong-${attempt}`)).status).toBe(401);
    }
    expect(await count(db, "login_attempts WHERE email = 'admin@demo.pt' AND NOT succeeded")).toBe(10);

    const before = await sessions();
    api.clock.current = new Date(start.getTime() + 10 * 60_000);
    const throttled = await login('admin@demo.pt', PASSWORD);
    expect(throttled.status).toBe(429);
    expect(await throttled.json()).toEqual({ code: 'TOO_MANY_ATTEMPTS' });
    // The first failure (09:00) leaves the window at 09:15, five minutes from 09:10.
    expect(throttled.headers.get('retry-after')).toBe('300');
    expect(await sessions()).toBe(before);

    // Another e-mail is not affected.
    expect((await login('patient@demo.pt', PASSWORD)).status).toBe(401);

    // Once the oldest failure is over 15 minutes old only nine count, so the right password works.
    api.clock.current = new Date(start.getTime() + 15 * 60_000 + 1000);
    expect((await login('admin@demo.pt', PASSWORD)).status).toBe(200);
    expect(await sessions()).toBe(before + 1);
  });

  it('checks at most 10 passwords for one e-mail when 50 wrong ones arrive at once', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, attempt) => login('admin@demo.pt', `wrong-${attempt}`)),
    );
    const statuses = responses.map((response) => response.status);
    const checked = statuses.filter((status) => status === 401).length;
    console.info(`${kind.name}: ${checked} of 50 simultaneous wrong passwords were checked`);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50 - checked);
    expect(checked).toBe(10);
    // Every checked password is one failure on record; the refused ones left nothing.
    expect(await count(db, "login_attempts WHERE email = 'admin@demo.pt' AND NOT succeeded")).toBe(10);
    // And the budget is spent: the right password is refused too.
    expect((await login('admin@demo.pt', PASSWORD)).status).toBe(429);
  });

  it('refuses the 101st failure from one client address across many e-mails', async () => {
    const start = new Date('2026-06-01T09:00:00Z');
    api.clock.current = start;
    // Ten at a time: fast enough, and each e-mail stays far below its own limit of 10.
    for (let batch = 0; batch < 10; batch++) {
      const statuses = await Promise.all(
        Array.from({ length: 10 }, async (_, i) => (await login(`guess-${batch}-${i}@demo.pt`, 'x')).status),
      );
      expect(statuses).toEqual(Array(10).fill(401));
    }
    api.clock.current = new Date(start.getTime() + 60_000);
    const refused = await login('fresh@demo.pt', 'x');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ code: 'TOO_MANY_ATTEMPTS' });
    // The oldest of the hundred leaves the window at 09:15, fourteen minutes from 09:01.
    expect(refused.headers.get('retry-after')).toBe('840');
    // Checked before the password: even an administrator's right password waits.
    expect((await login('admin@demo.pt', PASSWORD)).status).toBe(429);
    api.clock.current = new Date(start.getTime() + 15 * 60_000 + 1000);
    expect((await login('admin@demo.pt', PASSWORD)).status).toBe(200);
  });

  it('counts failures by socket address, not by a client-supplied X-Forwarded-For', async () => {
    const spoofed = await postJson(
      `${api.url}/v2/user/login`,
      { email: 'spoof@demo.pt', password: 'x' },
      { 'x-forwarded-for': '203.0.113.9' },
    );
    expect(spoofed.status).toBe(401);
    const { rows } = await db.query<{ client_address: string }>(
      "SELECT client_address FROM login_attempts WHERE email = 'spoof@demo.pt'",
    );
    expect(rows).toEqual([{ client_address: '127.0.0.1' }]);
  });

  it('purges attempts older than the window as it records new ones', async () => {
    await db.query(
      `INSERT INTO login_attempts (email, succeeded, attempted_at)
       SELECT 'old-' || n || '@demo.pt', false, now() - interval '1 day' FROM generate_series(1, 20) n`,
    );
    expect((await login('admin@demo.pt', 'wrong')).status).toBe(401);
    expect(await count(db, "login_attempts WHERE email LIKE 'old-%'")).toBe(0);
    expect(await count(db, 'login_attempts')).toBe(1);
  });

  it('does not count failures from before the last successful sign-in', async () => {
    const start = new Date('2026-05-01T09:00:00Z');
    api.clock.current = start;
    for (let attempt = 0; attempt < 9; attempt++) await login('admin@demo.pt', 'wrong');
    expect((await login('admin@demo.pt', PASSWORD)).status).toBe(200);
    await login('admin@demo.pt', 'wrong');
    expect((await login('admin@demo.pt', PASSWORD)).status).toBe(200);
  });
});

describe.each(testDatabaseKinds())('client address behind a trusted proxy on $name', (kind) => {
  let db: Database;
  let api: RunningApi;

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db, { env: { TRUSTED_PROXIES: '127.0.0.1/32, ::1' } });
  });
  afterAll(async () => {
    await api.stop();
    await db.close();
  });

  it('takes the client from X-Forwarded-For only when the socket is a configured proxy', async () => {
    const response = await postJson(
      `${api.url}/v2/user/login`,
      { email: 'behind@demo.pt', password: 'x' },
      // The left-most entry is the client's own claim; the proxy appended the address it saw.
      { 'x-forwarded-for': '198.51.100.1, 203.0.113.9' },
    );
    expect(response.status).toBe(401);
    const { rows } = await db.query<{ client_address: string }>(
      "SELECT client_address FROM login_attempts WHERE email = 'behind@demo.pt'",
    );
    expect(rows).toEqual([{ client_address: '203.0.113.9' }]);
  });
});
