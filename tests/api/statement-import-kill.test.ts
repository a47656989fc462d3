import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatementImportJob } from '../../contract/statement-import';
import { parseStatement } from '../../domain/statements/detect';
import { readConfig } from '../../server/config';
import { type Database, openDatabase } from '../../server/db/client';
import { prepareDatabase } from '../../server/platform/bootstrap';
import { PostgresFileStorage } from '../../server/platform/files/postgres-storage';
import { MIN_SEED_USERS } from '../../server/seed/seed';
import { IMPORT_LEASE_MS } from '../../server/statements/import';
import { createPostgresDatabase } from '../support/databases';
import { type ServerProcess, startServerProcess } from '../support/server-process';
import { count, issueToken } from './harness';
import { type CsvLine, finishedJob, postStatement, statementCsv } from './statement-support';

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl)
  console.warn('TEST_DATABASE_URL is not set: the killed-import suite needs a PostgreSQL server.');

/** Polls what another process will make true; the bound only turns a hang into a failure. */
async function eventually<T>(what: string, attempt: () => Promise<T | null>): Promise<T> {
  for (let tries = 0; tries < 600; tries++) {
    const value = await attempt();
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}

/** The payout the first movement pays: matching it locks the payout, where the import is held. */
const PAYOUT = 'po_KILL2031';

/** 20,000 movements of 2031 (dates no seeded line has), consultation prices repeating; the first names a payout. */
const LINES: CsvLine[] = Array.from({ length: 20_000 }, (_, i) => ({
  date: `${String((i % 28) + 1).padStart(2, '0')}-${String((Math.floor(i / 28) % 12) + 1).padStart(2, '0')}-2031`,
  description: i === 0 ? `TRF STRIPE PAYMENTS ${PAYOUT}` : `TRF SEPA CONSULTA ${i}`,
  cents: [25_00, 30_00, 45_00, -3_50][i % 4]!,
  counterparty: 'Clínica Médica do Porto, Lda',
}));

/**
 * Issue 12: a server killed (-9) in the middle of an import leaves nothing half-written, and the same
 * upload afterwards imports everything. PostgreSQL only: it is the path of several processes on one
 * database (a PGlite directory belongs to one process, which the API tests cover).
 */
describe.skipIf(!serverUrl)('a statement import killed in the middle', () => {
  let database: { url: string; drop(): Promise<void> };
  let db: Database;
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;
  let token: string;

  beforeAll(async () => {
    database = await createPostgresDatabase(serverUrl!);
    db = await openDatabase({ databaseUrl: database.url });
    const env = { DATABASE_URL: database.url, FILES_BACKEND: 'postgres', NODE_ENV: 'test' };
    await prepareDatabase(db, readConfig(env), MIN_SEED_USERS, new PostgresFileStorage(db));
    const { rows } = await db.query<{ id: string }>(`SELECT id FROM users WHERE role = 'ADMIN'`);
    token = await issueToken(db, rows[0]!.id);
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  }, 240_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.close();
    await database?.drop();
  });

  it('nothing of it is written, its job ends FAILED, and the same upload then imports every line', async () => {
    const bytes = statementCsv(LINES);
    expect(parseStatement(bytes).entries).toHaveLength(LINES.length);
    await db.query(
      `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date) VALUES ($1, 2500, '2031-01-01')`,
      [PAYOUT],
    );
    const before = {
      files: await count(db, 'statement_files'),
      lines: await count(db, 'statement_lines'),
      history: await count(db, 'statement_line_history'),
      stored: await count(db, 'stored_files'),
    };

    // Another transaction holds the payout the first line pays: once every line is written in the
    // import's transaction, linking that line waits for the payout's lock (its over-match check).
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    await holder.query('BEGIN');
    const { rows: held } = await holder.query<{ id: string }>(
      'SELECT id FROM provider_payouts WHERE provider_payout_id = $1 FOR UPDATE',
      [PAYOUT],
    );
    expect(held).toHaveLength(1);

    const started = await postStatement({ url: a!.url, token }, bytes, 'extrato-2031.csv');
    expect(started.status).toBe(202);
    const { job } = (await started.json()) as { job: StatementImportJob };
    const waitingInsert = `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO statement_line_matches%'`;
    await eventually('the import waiting at the held payout', async () =>
      (await db.query<{ n: number }>(waitingInsert)).rows[0]!.n > 0 ? true : null,
    );
    // Every line is written in the import's transaction (its heartbeat says so); it waits while matching.
    const progress = await eventually('a heartbeat with every line written', async () => {
      const { rows } = await db.query<{ done: number; phase: string }>(
        `SELECT done, phase FROM statement_import_jobs WHERE id = $1 AND status = 'RUNNING' AND done = $2`,
        [job.id, LINES.length],
      );
      return rows[0] ?? null;
    });
    expect(progress).toEqual({ done: LINES.length, phase: 'matching' });

    await a!.killHard();
    a = undefined;
    await holder.query('ROLLBACK');
    await holder.end();
    await eventually('the killed import rolled back', async () =>
      (await db.query<{ n: number }>(waitingInsert)).rows[0]!.n === 0 ? true : null,
    );
    expect({
      files: await count(db, 'statement_files'),
      lines: await count(db, 'statement_lines'),
      history: await count(db, 'statement_line_history'),
      stored: await count(db, 'stored_files'),
    }).toEqual(before);
    expect(await count(db, `statement_lines WHERE bank_date >= '2031-01-01'`)).toBe(0);

    // Until its lease runs out the dead job still counts as importing this content; then it is failed.
    const other = { url: b!.url, token };
    const retried = await eventually('the same upload accepted again', async () => {
      const response = await postStatement(other, bytes, 'extrato-2031.csv');
      const body = (await response.json()) as { job?: StatementImportJob; code?: string };
      if (response.status === 409 && body.code === 'STATEMENT_ALREADY_IMPORTED') {
        await new Promise((resolve) => setTimeout(resolve, IMPORT_LEASE_MS / 4));
        return null;
      }
      expect(response.status).toBe(202);
      return body.job!;
    });
    expect(await finishedJob(other, job.id)).toMatchObject({
      status: 'FAILED',
      errorCode: 'STATEMENT_IMPORT_INTERRUPTED',
    });
    expect(await finishedJob(other, retried.id)).toMatchObject({
      status: 'DONE',
      result: { newLines: LINES.length, duplicatesSkipped: 0 },
    });
    expect(await count(db, `statement_lines WHERE bank_date >= '2031-01-01'`)).toBe(LINES.length);
  }, 300_000);
});
