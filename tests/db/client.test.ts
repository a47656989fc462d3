import { inspect } from 'node:util';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { errorClassOf, openDatabase, statementTimeoutFrom } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';
import { startServerProcess } from '../support/server-process';

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

  describe('pool size and statement timeout', () => {
    const savedPoolSize = process.env.DATABASE_POOL_SIZE;
    afterEach(() => {
      if (savedPoolSize === undefined) delete process.env.DATABASE_POOL_SIZE;
      else process.env.DATABASE_POOL_SIZE = savedPoolSize;
    });
    const url = () => process.env.TEST_DATABASE_URL!;

    it('cancels a statement outside a transaction after the timeout, and the connection serves the next query', async () => {
      process.env.DATABASE_POOL_SIZE = '1';
      const db = await openDatabase({ databaseUrl: url(), statementTimeoutMs: 200 });
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
      const db = await openDatabase({ databaseUrl: url(), statementTimeoutMs: 100 });
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

    it("the server's timeout is STATEMENT_TIMEOUT_MS, 30 s by default; the pool holds 10 connections by default", async () => {
      delete process.env.DATABASE_POOL_SIZE;
      expect(statementTimeoutFrom({})).toBe(30_000);
      expect(statementTimeoutFrom({ STATEMENT_TIMEOUT_MS: '1500' })).toBe(1_500);
      const db = await openDatabase({ databaseUrl: url(), statementTimeoutMs: statementTimeoutFrom({}) });
      try {
        const { rows } = await db.query<{ statement_timeout: string }>('SHOW statement_timeout');
        expect(rows[0]!.statement_timeout).toBe('30s');
        const held = await Promise.all(
          Array.from({ length: 11 }, () =>
            db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.2)'),
          ),
        );
        expect(new Set(held.map((r) => r.rows[0]!.pid)).size).toBe(10);
      } finally {
        await db.close();
      }
    });

    it('sets no timeout unless asked (scripts and benches write millions of rows in one statement)', async () => {
      const db = await openDatabase({ databaseUrl: url() });
      try {
        const { rows } = await db.query<{ statement_timeout: string }>('SHOW statement_timeout');
        expect(rows[0]!.statement_timeout).toBe('0');
      } finally {
        await db.close();
      }
    });

    it.each(['0', 'ten', '-5', '1.5'])(
      'refuses DATABASE_POOL_SIZE=%s and STATEMENT_TIMEOUT_MS=%s, naming the variable',
      async (value) => {
        process.env.DATABASE_POOL_SIZE = value;
        await expect(openDatabase({ databaseUrl: url() })).rejects.toThrow('DATABASE_POOL_SIZE');
        expect(() => statementTimeoutFrom({ STATEMENT_TIMEOUT_MS: value })).toThrow('STATEMENT_TIMEOUT_MS');
      },
    );
  });
});

describe('npm start with a bad STATEMENT_TIMEOUT_MS', () => {
  it('stops before serving, naming the variable', async () => {
    // A server that starts anyway is stopped at once, so a failing run leaves no process behind.
    const served = startServerProcess({ STATEMENT_TIMEOUT_MS: 'soon' }).then(async (server) => {
      await server.stop();
      return 'served';
    });
    await expect(served).rejects.toThrow(/STATEMENT_TIMEOUT_MS must be a whole number above 0, got soon/);
  }, 60_000);
});

describe.each(testDatabaseKinds())('a failed query on $name (decision 0122)', (kind) => {
  it('keeps its class, code and message but not its statement, parameters or detail, so no log can print them', async () => {
    const db = await kind.open();
    const secret = 'PT50003300004567890123437 Leonor Vasconcelos';
    try {
      // Not TEMP: the pool's transaction runs on another connection than the plain query.
      await db.query('CREATE TABLE failing (holder text UNIQUE)');
      await db.query('INSERT INTO failing (holder) VALUES ($1)', [secret]);
      for (const run of [
        () => db.query('INSERT INTO failing (holder) VALUES ($1)', [secret]),
        () => db.transaction((tx) => tx.query('INSERT INTO failing (holder) VALUES ($1)', [secret])),
      ]) {
        const error = (await run().catch((caught: unknown) => caught)) as Error & Record<string, unknown>;
        expect(error).toBeInstanceOf(Error);
        expect(error.code).toBe('23505');
        expect(error.message).toMatch(/unique/);
        for (const field of ['query', 'params', 'queryOptions', 'detail', 'where', 'internalQuery'])
          expect(error).not.toHaveProperty(field);
        expect(inspect(error, { depth: 5 })).not.toContain('Leonor');
        expect(errorClassOf(error)).toMatch(/^\w+ 23505$/);
      }
    } finally {
      await db.query('DROP TABLE IF EXISTS failing');
      await db.close();
    }
  });
});
