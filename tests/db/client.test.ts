import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';

const server = testDatabaseKinds().find((kind) => kind.name === 'postgres');

describe.skipIf(!server)('the PostgreSQL pool', () => {
  it('survives the server ending its idle connections, and reconnects for the next query', async () => {
    const db = await server!.open();
    const { rows } = await db.query<{ name: string }>('SELECT current_database() AS name');
    const name = rows[0]!.name;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const ended = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    await admin.end();
    expect(ended.rowCount).toBeGreaterThan(0);
    // the terminated idle client's error is handled; the pool opens a fresh connection
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await db.query<{ one: number }>('SELECT 1 AS one');
    expect(again.rows[0]!.one).toBe(1);
    await db.close();
  });

  it('opens the warm connections before the first request', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const tag = `warm-${process.pid}-${Date.now()}`;
    url.searchParams.set('application_name', tag);
    const db = await openDatabase({ databaseUrl: url.toString(), warmConnections: 3 });
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const { rows } = await admin.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
      [tag],
    );
    await admin.end();
    await db.close();
    expect(rows[0]!.n).toBe(3);
  });

  describe('pool size and statement timeout from the environment', () => {
    const settings = ['DATABASE_POOL_SIZE', 'STATEMENT_TIMEOUT_MS'] as const;
    const saved = Object.fromEntries(settings.map((name) => [name, process.env[name]]));
    afterEach(() => {
      for (const name of settings)
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
    });

    it('cancels a statement outside a transaction after STATEMENT_TIMEOUT_MS, and the connection serves the next query', async () => {
      process.env.STATEMENT_TIMEOUT_MS = '200';
      process.env.DATABASE_POOL_SIZE = '1';
      const db = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL! });
      try {
        const started = performance.now();
        await expect(db.query('SELECT pg_sleep(5)')).rejects.toMatchObject({ code: '57014' });
        expect(performance.now() - started).toBeLessThan(3_000);
        // the one pooled connection was given back and works
        expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
      } finally {
        await db.close();
      }
    });

    it('lets a transaction run past the timeout (mutations, imports, SEPA files, exports are not cut midway)', async () => {
      process.env.STATEMENT_TIMEOUT_MS = '100';
      const db = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL! });
      try {
        const slept = await db.transaction((tx) =>
          tx.query<{ done: boolean }>('SELECT pg_sleep(0.4), true AS done'),
        );
        expect(slept.rows[0]!.done).toBe(true);
        // and the lifted timeout ended with the transaction
        await expect(db.query('SELECT pg_sleep(2)')).rejects.toMatchObject({ code: '57014' });
      } finally {
        await db.close();
      }
    });

    it('defaults to a 30 s statement timeout and 10 connections', async () => {
      delete process.env.STATEMENT_TIMEOUT_MS;
      delete process.env.DATABASE_POOL_SIZE;
      const db = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL! });
      try {
        const { rows } = await db.query<{ statement_timeout: string }>('SHOW statement_timeout');
        expect(rows[0]!.statement_timeout).toBe('30s');
        const held = await Promise.all(
          Array.from({ length: 11 }, () => db.query('SELECT pg_backend_pid() AS pid, pg_sleep(0.2)')),
        );
        expect(new Set(held.map((r) => (r.rows[0] as { pid: number }).pid)).size).toBe(10);
      } finally {
        await db.close();
      }
    });

    it.each([
      ['DATABASE_POOL_SIZE', '0'],
      ['DATABASE_POOL_SIZE', 'ten'],
      ['STATEMENT_TIMEOUT_MS', '-5'],
      ['STATEMENT_TIMEOUT_MS', '1.5'],
    ])('refuses to start with %s=%s, naming the variable', async (name, value) => {
      process.env[name] = value;
      await expect(openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL! })).rejects.toThrow(name);
    });
  });
});
