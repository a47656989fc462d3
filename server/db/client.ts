import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
}

/** One SQL dialect (PostgreSQL) whether embedded (PGlite) or a server (pg). */
export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… — when set, the server is used instead of PGlite. */
  databaseUrl?: string | undefined;
  /** Folder for PGlite files; omitted means in memory (tests). */
  dataDir?: string | undefined;
  /**
   * PostgreSQL only: connections opened before the first request and kept open (the pool's minimum),
   * so the requests of a console's first page load do not each wait for a new server process.
   */
  warmConnections?: number | undefined;
}

// int8 counts and cents fit in a double; returning them as numbers keeps both drivers identical.
const INT8_OID = 20;
const parseInt8 = (value: string) => Number(value);

/** What the server keeps warm: a console's first page load asks a handful of questions at once. */
export const SERVER_WARM_CONNECTIONS = 4;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.warmConnections ?? 0)
    : openPglite(options.dataDir);
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  let location: string | undefined;
  if (dataDir) {
    location = join(dataDir, 'pglite');
    mkdirSync(location, { recursive: true });
  }
  const db = await PGlite.create(location, { parsers: { [INT8_OID]: parseInt8 } });
  const adapt = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<Row>(text: string, params?: readonly unknown[]) {
      const result = await q.query<Row>(text, params as unknown[] | undefined);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  });
  return {
    kind: 'pglite',
    ...adapt(db),
    transaction: (work) => db.transaction((tx) => work(adapt(tx))),
    close: () => db.close(),
  };
}

async function openPostgres(databaseUrl: string, warmConnections: number): Promise<Database> {
  const max = Number(process.env.DATABASE_POOL_SIZE ?? 10);
  const min = Math.min(warmConnections, max);
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    // Idle connections above this are closed after 10 s; the warm ones stay.
    min,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8_OID
          ? parseInt8
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection the server ends (restart, failover, pg_terminate_backend) must not crash the
  // process: the pool drops it and opens a new one for the next query.
  pool.on('error', (error) => console.warn(`PostgreSQL closed an idle connection: ${error.message}`));
  if (min > 0) {
    const clients: pg.PoolClient[] = [];
    try {
      clients.push(...(await Promise.all(Array.from({ length: min }, () => pool.connect()))));
      await Promise.all(clients.map((client) => client.query('SELECT 1')));
    } catch (error) {
      for (const client of clients.splice(0)) client.release();
      await pool.end();
      throw error;
    } finally {
      for (const client of clients) client.release();
    }
  }
  const adapt = (q: pg.Pool | pg.PoolClient): Queryable => ({
    async query<Row>(text: string, params?: readonly unknown[]) {
      const result = await q.query(text, params as unknown[] | undefined);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
    },
  });
  return {
    kind: 'postgres',
    ...adapt(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(adapt(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
