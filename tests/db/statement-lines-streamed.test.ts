import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementLineKeys } from '../../domain/statements/line-key';
import type { StatementEntry } from '../../domain/statements/types';
import type { Database, Queryable } from '../../server/db/client';
import { insertStreamedLines } from '../../server/statements/import-lines';
import { type KnownEntry, lineFactsOf, type PlannedStatement } from '../../server/statements/import-plan';
import { keysInMemory } from '../../server/statements/known-lines';
import { lineRowsOf } from '../../server/statements/line-rows';
import { PackedKeys } from '../../server/statements/packed-keys';
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

const keys = statementLineKeys(ACCOUNT, entries);
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
  keys: PackedKeys.packing([...keys]),
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
        keysOf: () => keysInMemory(keys),
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
            (index) => keys[start + index]!,
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

  it('stores every cell exactly as read, whatever its characters: the literals travel as UTF-8 bytes (decision 0150)', async () => {
    // What a literal must survive: its own quotes, escapes, separators and NULL, and characters of 1 to 4 bytes.
    const tricky = fc.constantFrom('"', '\\', '{', '}', ',', ' ', 'NULL', 'é', '€', '😀', '\u00a0');
    const cell = fc.string({ unit: fc.oneof(tricky, fc.string({ unit: 'grapheme', maxLength: 1 })) });
    const lines = fc.array(fc.record({ description: cell, name: fc.option(cell) }), {
      minLength: 1,
      maxLength: 40,
    });
    // One cell far larger than any chunk before it, so the literals' buffer grows in the middle of a chunk.
    const huge = '€'.repeat(400_000);
    const rolledBack = new Error('rolled back');
    await fc.assert(
      fc.asyncProperty(lines, fc.boolean(), async (cells, withHuge) => {
        const written = cells.map((c, n) => ({
          ...entries[n]!,
          description: withHuge && n === 0 ? huge : c.description.replaceAll('\0', ''),
          counterpartyName: c.name === null ? null : c.name.replaceAll('\0', ''),
        }));
        const keys = statementLineKeys(ACCOUNT, written);
        const stored = db.transaction(async (tx) => {
          const statementFileId = await statementFile(tx);
          const counters = Int32Array.from(written, (_, n) => n);
          const rows = lineRowsOf(
            written,
            (index) => keys[index]!,
            () => 0,
            0,
            { counters, now: Date.now() },
          );
          const handedOver = [rows];
          await insertStreamedLines(
            tx,
            { statementFileId, at: new Date() },
            [{ ...statement, entryCount: written.length, lines: lineFactsOf(written) }],
            [new Map()],
            {
              keysOf: () => keysInMemory(keys),
              next: async () => handedOver.pop() ?? null,
              close() {},
            },
            () => undefined,
          );
          const { rows: back } = await tx.query<{ description: string; counterparty_name: string | null }>(
            'SELECT description, counterparty_name FROM statement_lines WHERE statement_file_id = $1 ORDER BY id',
            [statementFileId],
          );
          expect(back).toEqual(
            written.map((e) => ({ description: e.description, counterparty_name: e.counterpartyName })),
          );
          throw rolledBack;
        });
        await expect(stored).rejects.toBe(rolledBack);
      }),
      { numRuns: 30 },
    );
  }, 120_000);
});
