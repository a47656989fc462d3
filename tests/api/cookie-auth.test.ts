import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';
import { insertUser, issueToken, type RunningApi, startApi } from './harness';

describe.each(testDatabaseKinds())('the authorization cookie ($name)', (kind) => {
  let db: Database;
  let api: RunningApi;
  let adminToken: string;
  let customerToken: string;

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
    adminToken = await issueToken(db, await insertUser(db, { email: 'root@cookie.pt', admin: true }));
    customerToken = await issueToken(db, await insertUser(db, { email: 'ana@cookie.pt' }));
  });
  afterAll(async () => {
    await api.stop();
    await db.close();
  });

  const cookie = (token: string) => ({ cookie: `authorization=${encodeURIComponent(token)}` });

  it('authenticates reads, so media and download links work without a header', async () => {
    const response = await fetch(`${api.url}/v2/admin/professionals/status/count`, {
      headers: cookie(adminToken),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ EMAIL_VERIFIED: 0, DISABLED: 0 });
  });

  it('still answers 403 to a non-admin cookie and 401 to a dead one', async () => {
    const forbidden = await fetch(`${api.url}/v2/admin/professionals/status/count`, {
      headers: cookie(customerToken),
    });
    expect(forbidden.status).toBe(403);
    const dead = await fetch(`${api.url}/v2/admin/professionals/status/count`, { headers: cookie('nope') });
    expect(dead.status).toBe(401);
  });

  it('never authenticates a mutation: a cross-site form cannot log the admin out', async () => {
    const response = await fetch(`${api.url}/v2/user/logout`, {
      method: 'POST',
      headers: cookie(adminToken),
    });
    expect(response.status).toBe(401);
    const me = await fetch(`${api.url}/v2/user/me`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(me.status).toBe(200);
  });
});
