import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceLineKey, type StatementLineKeyFields } from '../../domain/statements/line-key';
import type { Database, Queryable } from '../../server/db/client';
import { listMigrations, splitStatements } from '../../server/db/migrate';
import { testDatabaseKinds } from '../support/databases';

/**
 * Migration 0034 on a database with statements imported before it (docs/decisions/0121): every file becomes
 * one statement of its account, its lines name it, the lines with a bank reference of their own get the v2
 * key `referenceLineKey` computes (the SQL and the TypeScript agree), and the others keep theirs.
 */

/** The schema as migration 0033 left it. */
async function beforeMigration0034(db: Queryable): Promise<void> {
  for (const event of ['inserted', 'deleted', 'updated'])
    await db.query(`DROP TRIGGER statement_lines_counted_${event} ON statement_lines`);
  await db.query('DROP FUNCTION statement_lines_counted()');
  await db.query('DROP TABLE statement_file_line_counts');
  await db.query('ALTER TABLE statement_lines DROP CONSTRAINT statement_lines_statement_fkey');
  await db.query('ALTER TABLE statement_lines DROP COLUMN statement_number');
  await db.query('DROP TABLE bank_statements');
  await db.query('DROP INDEX statement_lines_dedup_key_idx');
  await db.query(
    'ALTER TABLE statement_lines ADD CONSTRAINT statement_lines_dedup_key_key UNIQUE (dedup_key)',
  );
}

async function runMigration0034(db: Database): Promise<void> {
  const migration = listMigrations().find((m) => m.id.startsWith('0034_'))!;
  await db.transaction(async (tx) => {
    for (const statement of splitStatements(migration.sql)) await tx.query(statement);
  });
}

const ACCOUNT = 'PT50003506510000123456714';

async function statementFile(db: Queryable, account: string | null, opening: number, closing: number) {
  const sha = `${account ?? 'none'}-${opening}`.padEnd(64, '0').replace(/[^0-9a-f]/g, 'a');
  const { rows } = await db.query<{ id: string }>(
    `WITH stored AS (INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
                     VALUES ('x.csv', 'text/csv', 1, $1, 'x/' || $1) RETURNING id)
     INSERT INTO statement_files (file_id, file_name, format, sha256, account_iban, opening_balance_cents,
                                  closing_balance_cents, line_count)
     SELECT id, 'x.csv', 'CSV', $1, $2, $3, $4, 0 FROM stored RETURNING id`,
    [sha, account, opening, closing],
  );
  return rows[0]!.id;
}

interface OldLine {
  n: number;
  key: string;
  day: string;
  cents: number;
  reference: string | null;
}

const insertLines = (db: Queryable, file: string, lines: readonly OldLine[]) =>
  db.query(
    `INSERT INTO statement_lines (statement_file_id, line_number, dedup_key, bank_amount_cents, bank_date, bank_reference)
     SELECT $1, n, k, c, d::date, r FROM unnest($2::int[], $3::text[], $4::bigint[], $5::text[], $6::text[]) AS t(n, k, c, d, r)`,
    [
      file,
      lines.map((l) => l.n),
      lines.map((l) => l.key),
      lines.map((l) => l.cents),
      lines.map((l) => l.day),
      lines.map((l) => l.reference),
    ],
  );

const fields = (line: OldLine): StatementLineKeyFields => ({
  bookingDate: line.day,
  valueDate: null,
  amountCents: line.cents,
  bankReference: line.reference,
  endToEndId: null,
  description: 'irrelevant to a reference key',
});

describe.each(testDatabaseKinds())('migration 0034 on $name', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('makes each file one statement, names it on every line, and re-keys the lines with a bank reference', async () => {
    await beforeMigration0034(db);
    const withAccount = await statementFile(db, 'PT50 0035 0651 0000 1234 5671 4', 1_000, 1_500);
    const lines: OldLine[] = [
      { n: 1, key: 'v1-a', day: '2026-03-02', cents: 250, reference: 'BR-1' },
      // the same reference, day and amount again: occurrence 1
      { n: 2, key: 'v1-b', day: '2026-03-02', cents: 250, reference: 'BR-1' },
      { n: 3, key: 'v1-c', day: '2026-03-03', cents: 100, reference: ' BR\t2 ' },
      { n: 4, key: 'v1-d', day: '2026-03-04', cents: -50, reference: 'NONREF' },
      { n: 5, key: 'v1-e', day: '2026-03-05', cents: -50, reference: null },
    ];
    await insertLines(db, withAccount, lines);
    const withoutAccount = await statementFile(db, null, 0, 7);
    await insertLines(db, withoutAccount, [
      { n: 1, key: 'v1-f', day: '2026-04-01', cents: 5, reference: null },
    ]);

    await runMigration0034(db);

    const { rows: statements } = await db.query(
      `SELECT statement_file_id AS file, number, account_iban AS account, period_start::text AS start,
              period_end::text AS end, balance_consistent AS consistent, line_count AS lines
         FROM bank_statements ORDER BY period_start`,
    );
    expect(statements).toEqual([
      {
        file: withAccount,
        number: 0,
        account: ACCOUNT,
        start: '2026-03-02',
        end: '2026-03-05',
        consistent: true,
        lines: 5,
      },
      {
        file: withoutAccount,
        number: 0,
        account: null,
        start: '2026-04-01',
        end: '2026-04-01',
        consistent: false,
        lines: 1,
      },
    ]);
    const { rows: keys } = await db.query<{ n: number; key: string; statement: number }>(
      `SELECT line_number AS n, dedup_key AS key, statement_number AS statement FROM statement_lines
        WHERE statement_file_id = $1 ORDER BY line_number`,
      [withAccount],
    );
    expect(keys).toEqual([
      { n: 1, key: referenceLineKey(ACCOUNT, fields(lines[0]!), 0), statement: 0 },
      { n: 2, key: referenceLineKey(ACCOUNT, fields(lines[1]!), 1), statement: 0 },
      { n: 3, key: referenceLineKey(ACCOUNT, fields(lines[2]!), 0), statement: 0 },
      { n: 4, key: 'v1-d', statement: 0 },
      { n: 5, key: 'v1-e', statement: 0 },
    ]);
    // The files list's stored counts start from the lines there are.
    const { rows: counts } = await db.query(
      `SELECT statement_file_id AS file, sum(lines)::int AS lines, sum(sum_cents)::int AS cents
         FROM statement_file_line_counts GROUP BY statement_file_id ORDER BY lines DESC`,
    );
    expect(counts).toEqual([
      { file: withAccount, lines: 5, cents: 500 },
      { file: withoutAccount, lines: 1, cents: 5 },
    ]);
  });
});
