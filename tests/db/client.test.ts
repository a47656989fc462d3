import { inspect } from 'node:util';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { errorClassOf, openDatabase } from '../../server/db/client';
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
