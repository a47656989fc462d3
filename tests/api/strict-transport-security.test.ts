import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { STRICT_TRANSPORT_SECURITY } from '../../server/http/security-headers';
import { testDatabaseKinds } from '../support/databases';
import { startApi } from './harness';

/** HSTS (issue 28): sent when the product is reached over HTTPS, and only then. */
describe.each(testDatabaseKinds())('Strict-Transport-Security on $name', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  });
  afterAll(async () => db.close());

  async function hstsOf(env: Record<string, string>, headers: Record<string, string> = {}) {
    const api = await startApi(db, { env });
    try {
      const answers = await Promise.all(
        ['/v2/health', '/v2/user/me', '/v2/no-such-route'].map((path) =>
          fetch(`${api.url}${path}`, { headers }).then((response) =>
            response.headers.get('strict-transport-security'),
          ),
        ),
      );
      // The same on a success, a 401 and a 404: the header is set outermost.
      expect(new Set(answers).size).toBe(1);
      return answers[0];
    } finally {
      await api.stop();
    }
  }

  it.each([
    ['PUBLIC_URL is https', { PUBLIC_URL: 'https://admin.example.pt' }, {}],
    [
      'a trusted proxy says the client used https',
      { TRUSTED_PROXIES: '127.0.0.1, ::1' },
      { 'x-forwarded-proto': 'https' },
    ],
    [
      'the trusted proxy appended https after what the client wrote',
      { TRUSTED_PROXIES: '127.0.0.1, ::1' },
      { 'x-forwarded-proto': 'http, https' },
    ],
  ])('is sent when %s', async (_case, env, headers) => {
    expect(await hstsOf(env, headers)).toBe(STRICT_TRANSPORT_SECURITY);
  });

  it.each([
    ['plain http with no proxy', {}, {}],
    ['X-Forwarded-Proto from a client that is no trusted proxy', {}, { 'x-forwarded-proto': 'https' }],
    [
      'X-Forwarded-Proto from a peer outside TRUSTED_PROXIES',
      { TRUSTED_PROXIES: '10.0.0.0/8' },
      { 'x-forwarded-proto': 'https' },
    ],
    [
      'the trusted proxy says http (the client wrote https before it)',
      { TRUSTED_PROXIES: '127.0.0.1, ::1' },
      { 'x-forwarded-proto': 'https, http' },
    ],
    ['an http PUBLIC_URL', { PUBLIC_URL: 'http://admin.example.pt' }, {}],
  ])('is not sent for %s', async (_case, env, headers) => {
    expect(await hstsOf(env, headers)).toBeNull();
  });
});
