import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';

const built = inject('consoleDir') !== undefined;
if (!built)
  console.warn(
    'The console was not built (no Chromium, so the global setup skipped it): full-server suite skipped.',
  );

describe.skipIf(!built)('the seeded product as npm start serves it', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ seedUsers: 40 });
  });
  afterAll(() => server?.stop());

  it('serves the console and lets the demo admin in, but not a demo user', async () => {
    const page = await fetch(`${server.url}/customers`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"');

    const login = (email: string, password: string) =>
      fetch(`${server.url}/v2/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
    const admin = await login(server.adminEmail, server.adminPassword);
    expect(admin.status).toBe(200);
    const { token } = (await admin.json()) as { token: string };

    const counts = await fetch(`${server.url}/v2/admin/professionals/status/count`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await counts.json()) as { EMAIL_VERIFIED: number; DISABLED: number };
    expect(body.EMAIL_VERIFIED).toBeGreaterThan(0);
    expect(body.DISABLED).toBeGreaterThan(0);

    const { rows } = await server.db.query<{ email: string }>(
      'SELECT email FROM users WHERE admin_data IS NULL AND NOT disabled AND password_hash IS NOT NULL LIMIT 1',
    );
    expect((await login(rows[0]!.email, server.demoPassword)).status).toBe(401);
  });
});
