import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { createPostgresDatabase } from '../support/databases';
import { bearer, insertUser, issueToken, type RunningApi, startApi } from './harness';

const serverUrl = process.env.TEST_DATABASE_URL;

// Only PostgreSQL has a statement timeout (PGlite runs one statement at a time in the process).
describe.skipIf(!serverUrl)('a read cancelled by the statement timeout, on postgres', () => {
  let created: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let db: Awaited<ReturnType<typeof openDatabase>>;
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    created = await createPostgresDatabase(serverUrl!);
    db = await openDatabase({ databaseUrl: created.url, statementTimeoutMs: 300 });
    await migrate(db);
    token = await issueToken(db, await insertUser(db, { email: 'admin@example.com', admin: true }));
    api = await startApi(db);
  });

  afterAll(async () => {
    await api.stop();
    await db.close();
    await created.drop();
  });

  it('answers 503 DATABASE_BUSY with Retry-After, and the same read succeeds once the database is free', async () => {
    // Another session holds the audit table: the list's read waits on the lock until the timeout cancels it.
    const holder = new pg.Client({ connectionString: created.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE audit_log IN ACCESS EXCLUSIVE MODE');
      const busy = await fetch(`${api.url}/v2/admin/audit`, { headers: bearer(token) });
      expect(busy.status).toBe(503);
      expect(busy.headers.get('retry-after')).toBe('5');
      expect(await busy.json()).toEqual({ code: 'DATABASE_BUSY' });
      await holder.query('ROLLBACK');
    } finally {
      await holder.end();
    }
    const free = await fetch(`${api.url}/v2/admin/audit`, { headers: bearer(token) });
    expect(free.status).toBe(200);
  });
});
