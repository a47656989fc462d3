import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementLineKeys } from '../../domain/statements/line-key';
import type { StatementEntry } from '../../domain/statements/types';
import type { Database, Queryable } from '../../server/db/client';
import { insertStreamedLines } from '../../server/statements/import-lines';
import { type KnownEntry, lineFactsOf, type PlannedStatement } from '../../server/statements/import-plan';
import { keysInMemory } from '../../server/statements/known-lines';
import { lineRowsOf } from '../../server/statements/line-rows';
import { ENTRIES_PER_CHUNK, type HeldLines } from '../../server/statements/statement-reader';
import { testDatabaseKinds } from '../support/databases';

/**
 * A statement's lines are written as they are read (decision 0144): each chunk the reader hands over is
 * inserted before the import asks for the one after the next, so the entries of the whole file are
 * never held at once. Counted inside the import's transaction when the last chunk is asked for; an
 * import that gathered every chunk before inserting (the shape before 0144) would count none.
 */

const ACCOUNT = 'PT50000201231234567890154';
const CHUNKS = 4;
const PER_CHUNK = ENTRIES_PER_CHUNK;
const hex = () => randomBytes(32).toString('hex');

/** Entries interleaving three days, so their ids (by day, then file order) are not their file order. */
const entries: StatementEntry[] = Array.from({ length: CHUNKS * PER_CHUNK }, (_, n) => ({
  bookingDate: `2026-05-0${3 - (n % 3)}`,
  valueDate: null,
  amountCents: -(100 + n),
  currency: 'EUR',
  description: `COMISSAO ${n}`,
  counterpartyName: null,
  counterpartyIban: null,
  bankReference: null,
  endToEndId: null,
  batchId: null,
  kind: 'fee',
  returnReason: null,
  lineNumber: n + 2,
}));

const statement: PlannedStatement = {
  number: 0,
  identity: {
    accountIban: ACCOUNT,
    statementId: null,
    sequence: null,
    periodStart: '2026-05-01',
    periodEnd: '2026-05-03',
    openingBalanceCents: null,
    closingBalanceCents: null,
  },
  currency: 'EUR',
  balance: null,
  firstEntry: 0,
  entryCount: entries.length,
  lines: lineFactsOf(entries),
  entriesSumCents: entries.reduce((total, e) => total + e.amountCents, 0),
  keys: statementLineKeys(ACCOUNT, entries),
  pending: 0,
};

async function statementFile(tx: Queryable): Promise<string> {
  const one = async (sql: string, params: unknown[]) =>
    (await tx.query<{ id: string }>(sql, params)).rows[0]!.id;
  const stored = await one(
    `INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
     VALUES ('extrato.csv', 'text/csv', 1, $1, 'x/' || $1) RETURNING id`,
    [hex()],
  );
  const file = await one(
    `INSERT INTO statement_files (file_id, format, sha256) VALUES ($1, 'CSV', $2) RETURNING id`,
    [stored, hex()],
  );
  await tx.query(
    `INSERT INTO bank_statements (statement_file_id, number, account_iban, period_start, period_end, entry_count, line_count)
     VALUES ($1, 0, $2, '2026-05-01', '2026-05-03', $3, $3)`,
    [file, ACCOUNT, entries.length],
  );
  return file;
}

describe.each(testDatabaseKinds())('a statement streamed into its inserts on $name', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('inserts each chunk before the last is read; ids by day then file order; known lines left out', async () => {
    // Thrown at the end so the transaction leaves nothing behind; any other error is the test's failure.
    const rolledBack = new Error('rolled back');
    const run = db.transaction(async (tx) => {
      const statementFileId = await statementFile(tx);
      const storedWhenAsked: number[] = [];
      let handedOut = 0;
      const chunks: HeldLines = {
        keysOf: () => keysInMemory(statement.keys),
        async next(plan) {
          const { rows } = await tx.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM statement_lines WHERE statement_file_id = $1',
            [statementFileId],
          );
          storedWhenAsked.push(rows[0]!.n);
          if (handedOut >= entries.length) return null;
          const start = handedOut;
          handedOut += plan.counters.length;
          return lineRowsOf(
            entries.slice(start, handedOut),
            statement.keys.slice(start, handedOut),
            () => 0,
            start,
            plan,
          );
        },
        close() {},
      };
      // The first line of each chunk was imported before.
      const known = new Map<number, KnownEntry>(
        Array.from({ length: CHUNKS }, (_, c) => [
          c * PER_CHUNK,
          { reason: 'SAME_CONTENT', statementFileId: null },
        ]),
      );
      const progress: number[] = [];
      const { inserted, asked } = await insertStreamedLines(
        tx,
        { statementFileId, at: new Date() },
        [statement],
        [known],
        chunks,
        (done) => progress.push(done),
      );
      const fresh = PER_CHUNK - 1;
      expect(inserted).toBe(CHUNKS * fresh);
      expect(asked.count).toBe(CHUNKS * fresh);
      expect(progress.at(-1)).toBe(CHUNKS * fresh);
      // Asked for the last chunk, every chunk but the one being inserted is stored.
      expect(storedWhenAsked).toHaveLength(CHUNKS);
      expect(storedWhenAsked[CHUNKS - 1]).toBeGreaterThanOrEqual((CHUNKS - 2) * fresh);
      const { rows } = await tx.query<{ id: string; line_number: number; bank_date: string; status: string }>(
        `SELECT id, line_number, bank_date::text AS bank_date, status FROM statement_lines
          WHERE statement_file_id = $1 ORDER BY id`,
        [statementFileId],
      );
      const expected = entries
        .filter((_, n) => !known.has(n))
        .sort((a, b) => a.bookingDate.localeCompare(b.bookingDate) || a.lineNumber - b.lineNumber);
      expect(rows.map((row) => [row.bank_date, row.line_number])).toEqual(
        expected.map((entry) => [entry.bookingDate, entry.lineNumber]),
      );
      expect(new Set(rows.map((row) => row.status))).toEqual(new Set(['UNMATCHED']));
      throw rolledBack;
    });
    await expect(run).rejects.toBe(rolledBack);
  });
});
