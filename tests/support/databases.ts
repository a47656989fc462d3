import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase, type Queryable } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';

export interface TestDatabaseKind {
  name: 'pglite' | 'postgres';
  /** A fresh, migrated, empty database; closing it drops it. */
  open(): Promise<Database>;
}

const serverUrl = process.env.TEST_DATABASE_URL;

/** PGlite always; the PostgreSQL server too when TEST_DATABASE_URL names one (CI starts it). */
export function testDatabaseKinds(): TestDatabaseKind[] {
  const kinds: TestDatabaseKind[] = [{ name: 'pglite', open: openMigratedPglite }];
  if (serverUrl) kinds.push({ name: 'postgres', open: () => openMigratedPostgres(serverUrl) });
  else if (!warned) {
    warned = true;
    console.warn(
      'TEST_DATABASE_URL is not set: suites run against PGlite only, not against a PostgreSQL server.',
    );
  }
  return kinds;
}
let warned = false;

async function openMigratedPglite(): Promise<Database> {
  const db = await openDatabase({});
  await migrate(db);
  return db;
}

async function openMigratedPostgres(url: string): Promise<Database> {
  const created = await createPostgresDatabase(url);
  const db = await openDatabase({ databaseUrl: created.url });
  await migrate(db);
  return {
    ...db,
    async close() {
      await db.close();
      await created.drop();
    },
  };
}

/** A new, empty database on the server `url` names (for tests that start servers of their own on it). */
export async function createPostgresDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/** Two connections to a new, migrated database on the server `url` names, for racing transactions. */
export interface TwoConnections {
  first: pg.Client;
  second: pg.Client;
  close(): Promise<void>;
}

export async function twoConnections(url: string): Promise<TwoConnections> {
  const created = await createPostgresDatabase(url);
  const db = await openDatabase({ databaseUrl: created.url });
  await migrate(db);
  await db.close();
  const first = new pg.Client({ connectionString: created.url });
  const second = new pg.Client({ connectionString: created.url });
  await first.connect();
  await second.connect();
  return {
    first,
    second,
    async close() {
      await first.end();
      await second.end();
      await created.drop();
    },
  };
}

/** One connection as the product's queries take it. */
export const queryableOf = (client: pg.Client): Queryable =>
  ({
    query: (sql: string, params?: readonly unknown[]) => client.query(sql, params as unknown[]),
  }) as Queryable;
