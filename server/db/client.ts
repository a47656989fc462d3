import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { type DataFolderLock, lockDataFolder } from './data-folder-lock';

export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
  /**
   * `COPY (select) TO STDOUT (options)`, its output handed to `sink` piece by piece as it arrives (pg:
   * a row a piece; PGlite, which writes COPY to `/dev/blob`: the whole output at the end). COPY takes
   * no parameters, so the select's values are literals (`sqlLiteral`). Both drivers provide it; a
   * stand-in made for a test may not (exports need it, decision 0090).
   */
  copyOut?(select: string, options: string, sink: (bytes: Uint8Array) => void): Promise<void>;
}

/** A value as an SQL literal, for statements that take no parameters (COPY): text escaped, E'' form. */
export function sqlLiteral(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') {
    if (value.includes('\0')) throw new RangeError('an SQL literal cannot hold a NUL character');
    return `E'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
  }
  throw new TypeError(`no SQL literal for ${typeof value}`);
}

/**
 * What a failed query's error carries beyond its class, code and message, and must never reach a log:
 * PGlite attaches the statement and every parameter (`query`, `params`, `queryOptions`); PostgreSQL's
 * `detail` repeats the failing row or key, `where` the PL/pgSQL context with its values. A statement
 * import's parameters are 5,000 bank lines' descriptions, names and IBANs (issue 27, decision 0122).
 */
const QUERY_ERROR_DATA = ['query', 'params', 'queryOptions', 'detail', 'where', 'internalQuery'] as const;

/** Drops QUERY_ERROR_DATA from a failed query's error, so no log line written from it can hold them. */
const rethrowWithoutQueryData = (error: unknown): never => {
  throw withoutQueryData(error);
};

function withoutQueryData(error: unknown): unknown {
  if (error instanceof Error)
    for (const field of QUERY_ERROR_DATA) delete (error as unknown as Record<string, unknown>)[field];
  return error;
}

/**
 * What a log line may say about a failed query: the error's class and SQLSTATE code. Not its message:
 * PostgreSQL quotes values there (`invalid input syntax for type date: "…"`), and a trigger's RAISE
 * says what it was written to say.
 */
export function errorClassOf(error: unknown): string {
  if (!(error instanceof Error)) return `non-error thrown (${typeof error})`;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${error.name} ${code}` : error.name;
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
  /**
   * PostgreSQL only: the milliseconds after which a statement outside a transaction is cancelled
   * (`statementTimeoutFrom`, what the server passes). Unset: none — benches, scripts and tests that
   * write millions of rows in one statement are not the server's reads.
   */
  statementTimeoutMs?: number | undefined;
}

// int8 counts and cents fit in a double; returning them as numbers keeps both drivers identical.
const INT8_OID = 20;
const parseInt8 = (value: string) => Number(value);

/** What the server keeps warm: a console's first page load asks a handful of questions at once. */
export const SERVER_WARM_CONNECTIONS = 4;

/** `DATABASE_POOL_SIZE`: connections one process opens at most (docs/decisions/0130). */
export const DEFAULT_POOL_SIZE = 10;
/**
 * `STATEMENT_TIMEOUT_MS`: how long one statement outside a transaction (a list, a count, the dashboard)
 * may run before PostgreSQL cancels it (57014), so a slow read gives its pooled connection back instead
 * of holding it while the other requests queue behind it (docs/decisions/0130).
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;

/** The server's statement timeout: `STATEMENT_TIMEOUT_MS`, or the default. */
export const statementTimeoutFrom = (env: NodeJS.ProcessEnv) =>
  positiveSetting(env, 'STATEMENT_TIMEOUT_MS', DEFAULT_STATEMENT_TIMEOUT_MS);

/** A positive whole number from the environment, or the default; anything else stops the start. */
function positiveSetting(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`${name} must be a whole number above 0, got ${raw}`);
  return value;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.warmConnections ?? 0, options.statementTimeoutMs)
    : openPglite(options.dataDir);
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  let location: string | undefined;
  let lock: DataFolderLock | undefined;
  if (dataDir) {
    location = join(dataDir, 'pglite');
    mkdirSync(location, { recursive: true });
    // Before PGlite reads a byte: a second process on the folder corrupts it (docs/decisions/0125).
    lock = await lockDataFolder(dataDir);
  }
  let db: PGlite;
  try {
    // pg_trgm: the statement lines' text filter's indexes (migration 0058).
    db = await PGlite.create(location, { parsers: { [INT8_OID]: parseInt8 }, extensions: { pg_trgm } });
  } catch (error) {
    await lock?.release();
    throw error;
  }
  const adapt = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<Row>(text: string, params?: readonly unknown[]) {
      const result = await q.query<Row>(text, params as unknown[] | undefined).catch(rethrowWithoutQueryData);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async copyOut(select, options, sink) {
      const { blob } = await q
        .query(`COPY (${select}) TO '/dev/blob' (${options})`)
        .catch(rethrowWithoutQueryData);
      if (blob) sink(new Uint8Array(await blob.arrayBuffer()));
    },
  });
  return {
    kind: 'pglite',
    ...adapt(db),
    transaction: (work) => db.transaction((tx) => work(adapt(tx))),
    async close() {
      await db.close();
      await lock?.release();
    },
  };
}

async function openPostgres(
  databaseUrl: string,
  warmConnections: number,
  statementTimeoutMs: number | undefined,
): Promise<Database> {
  const max = positiveSetting(process.env, 'DATABASE_POOL_SIZE', DEFAULT_POOL_SIZE);
  const min = Math.min(warmConnections, max);
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    // Idle connections above this are closed after 10 s; the warm ones stay.
    min,
    // Every connection's default; a transaction lifts it for itself (below).
    ...(statementTimeoutMs === undefined ? {} : { statement_timeout: statementTimeoutMs }),
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
      const result = await q.query(text, params as unknown[] | undefined).catch(rethrowWithoutQueryData);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
    },
    async copyOut(select, options, sink) {
      const client = q instanceof pg.Pool ? await q.connect() : q;
      try {
        await copyOutOn(client, `COPY (${select}) TO STDOUT (${options})`, sink).catch(
          rethrowWithoutQueryData,
        );
      } finally {
        if (client !== q) client.release();
      }
    },
  });
  return {
    kind: 'postgres',
    ...adapt(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        // A transaction is a mutation, an import, a SEPA file or an export: work sized by its own design,
        // which a timeout would only roll back to be asked again. Its statements run unbounded, as before.
        await client.query('BEGIN; SET LOCAL statement_timeout = 0');
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

/** pg's query, told what to do with COPY's data messages (its own Query drops them). */
class CopyOutQuery extends pg.Query {
  failure: unknown = null;
  constructor(
    text: string,
    private readonly sink: (bytes: Uint8Array) => void,
  ) {
    super(text);
  }
  /** Called by pg for each CopyData message; `chunk` is a view of the socket's buffer, read at once. */
  handleCopyData(message: { chunk: Uint8Array }): void {
    if (this.failure !== null) return;
    try {
      this.sink(message.chunk);
    } catch (error) {
      this.failure = error; // thrown here it would reach the connection's parser; reported at the end
    }
  }
}

function copyOutOn(client: pg.PoolClient, text: string, sink: (bytes: Uint8Array) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const query = new CopyOutQuery(text, sink);
    query.once('error', reject);
    query.once('end', () => (query.failure === null ? resolve() : reject(query.failure)));
    client.query(query);
  });
}
