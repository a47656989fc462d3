import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, type Queryable } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { createPostgresDatabase, testDatabaseKinds } from '../support/databases';

/**
 * A statement's lines name their file and last action, their links name the line and one counterpart,
 * their history the line and who acted. Migration 0030 checks that once per statement instead of by
 * foreign keys row by row (docs/decisions/0113); these are the keys' rules, held by the triggers.
 */
const FOREIGN_KEY_VIOLATION = '23503';
const FEATURE_NOT_SUPPORTED = '0A000';
const MISSING = '00000000-0000-4000-8000-00000000dead';

/** The references the triggers hold, as the foreign keys declared them. */
const REFERENCES = [
  ['statement_lines', 'statement_file_id', 'statement_files', 'CASCADE'],
  ['statement_lines', 'last_action_id', 'statement_actions', 'SET NULL'],
  ['statement_line_matches', 'statement_line_id', 'statement_lines', 'CASCADE'],
  ['statement_line_matches', 'sepa_file_id', 'sepa_files', 'CASCADE'],
  ['statement_line_matches', 'sepa_transaction_id', 'sepa_transactions', 'CASCADE'],
  ['statement_line_matches', 'payout_id', 'provider_payouts', 'CASCADE'],
  ['statement_line_matches', 'invoice_id', 'provider_invoices', 'CASCADE'],
  ['statement_line_history', 'statement_line_id', 'statement_lines', 'CASCADE'],
  ['statement_line_history', 'actor_id', 'users', 'NO ACTION'],
] as const;

const hex = () => randomBytes(32).toString('hex');
const one = async (db: Queryable, sql: string, params: readonly unknown[] = []) =>
  (await db.query<{ id: string }>(sql, params)).rows[0]!.id;
const count = async (db: Queryable, sql: string, params: readonly unknown[] = []) =>
  (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]!.n;

const user = (db: Queryable) =>
  one(db, `INSERT INTO users (role, email) VALUES ('ADMIN', $1) RETURNING id`, [`refs.${hex()}@example.com`]);

async function statementFile(db: Queryable): Promise<string> {
  const stored = await one(
    db,
    `INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
     VALUES ('extrato.csv', 'text/csv', 1, $1, 'x/' || $1) RETURNING id`,
    [hex()],
  );
  return one(
    db,
    `INSERT INTO statement_files (file_id, format, sha256) VALUES ($1, 'CSV', $2) RETURNING id`,
    [stored, hex()],
  );
}

const action = (db: Queryable, actor: string | null = null) =>
  one(db, `INSERT INTO statement_actions (kind, actor_id, lines) VALUES ('NOTE', $1, '[]') RETURNING id`, [
    actor,
  ]);

/** Lines written by ONE statement, the i-th naming files[i] and actions[i] (as the import writes them). */
async function insertLines(
  db: Queryable,
  files: readonly string[],
  actions: readonly (string | null)[] = files.map(() => null),
): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO statement_lines (statement_file_id, last_action_id, line_number, dedup_key, bank_amount_cents, bank_date)
     SELECT f, a, n::int, md5(random()::text || n), -1000, '2026-01-05'
       FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS t(f, a, n) RETURNING id`,
    [files, actions],
  );
  return rows.map((r) => r.id);
}

interface Counterparts {
  sepaFile: string;
  sepaTransaction: string;
  payout: string;
  invoice: string;
}

async function counterparts(db: Queryable): Promise<Counterparts> {
  const msg = `MSG-REFS-${hex().slice(0, 12)}`;
  const professional = await one(
    db,
    `INSERT INTO users (role, email) VALUES ('PROFESSIONAL', $1) RETURNING id`,
    [`refs.pro.${hex()}@example.com`],
  );
  const sepaFile = await one(
    db,
    `INSERT INTO sepa_files (msg_id, payment_info_id, amount_cents, transaction_count, reference_month, execution_date, debtor_name, debtor_iban)
     VALUES ($1, $1 || '-P1', 1000, 1, '2026-01', '2026-02-03', 'Debtor', 'PT50003506510000123456714') RETURNING id`,
    [msg],
  );
  const sepaTransaction = await one(
    db,
    `INSERT INTO sepa_transactions (sepa_file_id, end_to_end_id, professional_id, amount_cents, creditor_name, creditor_iban, remittance_information)
     VALUES ($1, $2, $3, 1000, 'Pro', 'PT50003506510000123456714', 'Consultas') RETURNING id`,
    [sepaFile, `${msg}-1`, professional],
  );
  const payout = await one(
    db,
    `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date) VALUES ($1, 1000, '2026-01-05') RETURNING id`,
    [`po_${hex()}`],
  );
  const invoice = await one(
    db,
    `INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date) VALUES ($1, 1000, '2026-01-05') RETURNING id`,
    [`in_${hex()}`],
  );
  return { sepaFile, sepaTransaction, payout, invoice };
}

type Kind = 'SEPA_FILE' | 'SEPA_TRANSFER' | 'PAYOUT' | 'INVOICE';
interface Link {
  line: string;
  kind: Kind;
  id: string;
}

/** Links written by ONE statement, as the reconciliation writes them (SUGGESTED: the amounts are not the point). */
const insertLinks = (db: Queryable, links: readonly Link[]) =>
  db.query(
    `INSERT INTO statement_line_matches (statement_line_id, kind, sepa_file_id, sepa_transaction_id, payout_id,
                                         invoice_id, state, allocated_cents)
     SELECT l, k, f, t, p, i, 'SUGGESTED', 1000
       FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::uuid[], $6::uuid[]) AS u(l, k, f, t, p, i)`,
    [
      links.map((l) => l.line),
      links.map((l) => l.kind),
      links.map((l) => (l.kind === 'SEPA_FILE' ? l.id : null)),
      links.map((l) => (l.kind === 'SEPA_TRANSFER' ? l.id : null)),
      links.map((l) => (l.kind === 'PAYOUT' ? l.id : null)),
      links.map((l) => (l.kind === 'INVOICE' ? l.id : null)),
    ],
  );

/** One link of each kind, to lines[0..3]. */
const linksTo = (lines: readonly string[], c: Counterparts): Link[] => [
  { line: lines[0]!, kind: 'SEPA_FILE', id: c.sepaFile },
  { line: lines[1]!, kind: 'SEPA_TRANSFER', id: c.sepaTransaction },
  { line: lines[2]!, kind: 'PAYOUT', id: c.payout },
  { line: lines[3]!, kind: 'INVOICE', id: c.invoice },
];

/** History rows written by ONE statement. */
const insertHistory = (db: Queryable, rows: readonly { line: string; actor: string | null }[]) =>
  db.query(
    `INSERT INTO statement_line_history (statement_line_id, actor_id, action)
     SELECT l, a, 'NOTE' FROM unnest($1::uuid[], $2::uuid[]) AS u(l, a)`,
    [rows.map((r) => r.line), rows.map((r) => r.actor)],
  );

const linesOf = (db: Queryable, file: string) =>
  count(db, 'statement_lines WHERE statement_file_id = $1', [file]);
const linksOf = (db: Queryable, lines: readonly string[]) =>
  count(db, 'statement_line_matches WHERE statement_line_id = ANY($1)', [lines]);
const historyOf = (db: Queryable, lines: readonly string[]) =>
  count(db, 'statement_line_history WHERE statement_line_id = ANY($1)', [lines]);
const refused = { code: FOREIGN_KEY_VIOLATION };

describe.each(testDatabaseKinds())('statement references on $name', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('holds exactly the foreign keys’ references, each checked on write and kept on delete and truncate', async () => {
    const { rows: keys } = await db.query<{ child: string; name: string }>(
      `SELECT conrelid::regclass::text AS child, conname AS name FROM pg_constraint
        WHERE contype = 'f' AND conrelid::regclass::text IN ('statement_lines', 'statement_line_matches', 'statement_line_history')`,
    );
    // The one native key: a line's statement within its file (migration 0034, docs/decisions/0121).
    expect(keys).toEqual([{ child: 'statement_lines', name: 'statement_lines_statement_fkey' }]);
    const { rows } = await db.query<{ on: string; definition: string }>(
      `SELECT tgrelid::regclass::text AS on, pg_get_triggerdef(oid) AS definition FROM pg_trigger
        WHERE tgfoid IN ('check_references'::regproc, 'references_deleted'::regproc)`,
    );
    const args = (definition: string) =>
      [...(definition.match(/\((.*)\)$/)?.[1] ?? '').matchAll(/'([^']*)'/g)].map((m) => m[1]!);
    const checked = rows
      .filter((r) => r.definition.includes('AFTER INSERT'))
      .flatMap((r) => {
        const a = args(r.definition);
        return a.flatMap((_, i) => (i % 3 === 0 ? [`${r.on}.${a[i]} → ${a[i + 1]}.${a[i + 2]}`] : []));
      });
    const kept = (event: string) =>
      rows
        .filter((r) => r.definition.includes(`AFTER ${event}`) && r.definition.includes('references_deleted'))
        .map((r) => {
          const [child, column, , action] = args(r.definition);
          return `${child}.${column} → ${r.on} ${action}`;
        });
    expect(checked.sort()).toEqual(REFERENCES.map(([c, col, p]) => `${c}.${col} → ${p}.id`).sort());
    // Of the referencing columns, only a line's last action is ever updated: re-checked when it changes.
    expect(
      rows
        .filter((r) => r.definition.includes('AFTER UPDATE'))
        .map((r) => `${r.on} ${args(r.definition).join(' ')}`),
    ).toEqual(['statement_lines last_action_id statement_actions id']);
    const expected = REFERENCES.map(([c, col, p, action]) => `${c}.${col} → ${p} ${action}`);
    expect(kept('DELETE').sort()).toEqual(expected.sort());
    expect(kept('TRUNCATE')).toEqual(expect.arrayContaining(expected));
  });

  it('refuses lines naming a statement file or an action that does not exist, and keeps none of them', async () => {
    const file = await statementFile(db);
    const act = await action(db);
    // The error names the key it stands for, as the foreign key's did. Its detail (the missing key's
    // value) never leaves the database client: errors lose it so no log carries bank data (decision 0122).
    await expect(insertLines(db, [file, file, MISSING])).rejects.toMatchObject({
      ...refused,
      constraint: 'statement_lines_statement_file_id_fkey',
    });
    await expect(insertLines(db, [file, file], [act, MISSING])).rejects.toMatchObject({
      ...refused,
      constraint: 'statement_lines_last_action_id_fkey',
    });
    expect(await linesOf(db, file)).toBe(0);
    // A line names no action until one changes it.
    expect(await insertLines(db, [file, file], [act, null])).toHaveLength(2);
    expect(await linesOf(db, file)).toBe(2);
  });

  it('re-checks a line’s last action when it changes, and never moves a line to another file', async () => {
    const file = await statementFile(db);
    const [line] = await insertLines(db, [file]);
    const [before, after] = [await action(db), await action(db)];
    await db.query('UPDATE statement_lines SET last_action_id = $2 WHERE id = $1', [line, before]);
    await expect(
      db.query('UPDATE statement_lines SET last_action_id = $2 WHERE id = ANY($1)', [[line], MISSING]),
    ).rejects.toMatchObject(refused);
    await db.query('UPDATE statement_lines SET last_action_id = $2 WHERE id = $1', [line, after]);
    await db.query('UPDATE statement_lines SET last_action_id = NULL WHERE id = $1', [line]);
    const other = await statementFile(db);
    await expect(
      db.query('UPDATE statement_lines SET statement_file_id = $2 WHERE id = $1', [line, other]),
    ).rejects.toMatchObject(refused);
    await expect(
      db.query('UPDATE statement_lines SET id = gen_random_uuid() WHERE id = $1', [line]),
    ).rejects.toMatchObject(refused);
    for (const table of ['statement_files', 'statement_actions'])
      await expect(
        db.query(`UPDATE ${table} SET id = gen_random_uuid() WHERE id = $1`, [
          table === 'statement_files' ? file : after,
        ]),
      ).rejects.toMatchObject(refused);
    expect(await linesOf(db, file)).toBe(1);
  });

  it('refuses links naming a line or a counterpart that does not exist, kind by kind, and keeps none of them', async () => {
    const file = await statementFile(db);
    const lines = await insertLines(db, [file, file, file, file]);
    const c = await counterparts(db);
    const good = linksTo(lines, c);
    for (const [i, bad] of good.entries()) {
      const withOneBad = good.map((link, j) => (j === i ? { ...link, id: MISSING } : link));
      await expect(insertLinks(db, withOneBad), bad.kind).rejects.toMatchObject(refused);
    }
    await expect(insertLinks(db, [...good, { ...good[2]!, line: MISSING }])).rejects.toMatchObject(refused);
    expect(await linksOf(db, lines)).toBe(0);
    await insertLinks(db, good);
    expect(await linksOf(db, lines)).toBe(4);
  });

  it('never changes what a link names; its state moves', async () => {
    const file = await statementFile(db);
    const lines = await insertLines(db, [file, file, file, file, file]);
    const [c, d] = [await counterparts(db), await counterparts(db)];
    await insertLinks(db, linksTo(lines, c));
    const changes: [string, string][] = [
      ['statement_line_id', lines[4]!],
      ['sepa_file_id', d.sepaFile],
      ['sepa_transaction_id', d.sepaTransaction],
      ['payout_id', d.payout],
      ['invoice_id', d.invoice],
    ];
    for (const [column, value] of changes)
      await expect(
        db.query(
          `UPDATE statement_line_matches SET ${column} = $2 WHERE ${column} IS NOT NULL AND statement_line_id = ANY($1)`,
          [lines, value],
        ),
        column,
      ).rejects.toMatchObject(refused);
    await db.query(`UPDATE statement_line_matches SET state = 'MATCHED' WHERE statement_line_id = $1`, [
      lines[2],
    ]);
    expect(
      await count(db, `statement_line_matches WHERE payout_id = $1 AND state = 'MATCHED'`, [c.payout]),
    ).toBe(1);
    const renamed = (table: string) =>
      db.query(`UPDATE ${table} SET id = gen_random_uuid() WHERE id = ANY($1)`, [Object.values(c)]);
    for (const table of ['sepa_transactions', 'provider_payouts', 'provider_invoices'])
      await expect(renamed(table), table).rejects.toMatchObject(refused);
    // A SEPA file's transfers have a key to it: without them, only what the links hold is left.
    await db.query('DELETE FROM sepa_transactions WHERE sepa_file_id = $1', [c.sepaFile]);
    await expect(renamed('sepa_files')).rejects.toMatchObject(refused);
  });

  it('refuses history naming a line or a user that does not exist, and keeps none of it; a null actor is the matcher', async () => {
    const file = await statementFile(db);
    const [line] = await insertLines(db, [file]);
    const admin = await user(db);
    await expect(
      insertHistory(db, [
        { line: line!, actor: admin },
        { line: MISSING, actor: null },
      ]),
    ).rejects.toMatchObject(refused);
    await expect(
      insertHistory(db, [
        { line: line!, actor: null },
        { line: line!, actor: MISSING },
      ]),
    ).rejects.toMatchObject(refused);
    expect(await historyOf(db, [line!])).toBe(0);
    await insertHistory(db, [
      { line: line!, actor: admin },
      { line: line!, actor: null },
    ]);
    expect(await historyOf(db, [line!])).toBe(2);
    await expect(
      db.query('UPDATE statement_line_history SET actor_id = $2 WHERE statement_line_id = $1', [
        line,
        await user(db),
      ]),
    ).rejects.toMatchObject(refused);
    await expect(
      db.query('UPDATE users SET id = gen_random_uuid() WHERE id = $1', [admin]),
    ).rejects.toMatchObject(refused);
  });

  it('a deleted statement file takes its lines, and their links and history, with it; a deleted action leaves its lines', async () => {
    const [file, kept] = [await statementFile(db), await statementFile(db)];
    const act = await action(db);
    const lines = await insertLines(db, [file, file, file, file], [act, act, null, null]);
    const keptLines = await insertLines(db, [kept, kept, kept, kept], [act, null, null, null]);
    const c = await counterparts(db);
    await insertLinks(db, [...linksTo(lines, c), ...linksTo(keptLines, c)]);
    await insertHistory(
      db,
      [...lines, ...keptLines].map((line) => ({ line, actor: null })),
    );
    await db.query('DELETE FROM statement_actions WHERE id = $1', [act]);
    expect(
      await count(db, 'statement_lines WHERE id = ANY($1) AND last_action_id IS NULL', [
        [...lines, ...keptLines],
      ]),
    ).toBe(8);
    await db.query('DELETE FROM statement_files WHERE id = $1', [file]);
    expect([await linesOf(db, file), await linksOf(db, lines), await historyOf(db, lines)]).toEqual([
      0, 0, 0,
    ]);
    expect([await linesOf(db, kept), await linksOf(db, keptLines), await historyOf(db, keptLines)]).toEqual([
      4, 4, 4,
    ]);
    await db.query('DELETE FROM statement_lines WHERE id = $1', [keptLines[0]]);
    expect([await linksOf(db, keptLines), await historyOf(db, keptLines)]).toEqual([3, 3]);
  });

  it('a deleted counterpart takes its links with it, a SEPA transfer’s also when its whole file is deleted', async () => {
    const file = await statementFile(db);
    const lines = await insertLines(db, [file, file, file, file]);
    const [c, d] = [await counterparts(db), await counterparts(db)];
    await insertLinks(db, [...linksTo(lines, c), ...linksTo(lines, d)]);
    const gone = async (kind: Kind) =>
      count(db, 'statement_line_matches WHERE statement_line_id = ANY($1) AND kind = $2', [lines, kind]);
    await db.query('DELETE FROM provider_payouts WHERE id = $1', [c.payout]);
    await db.query('DELETE FROM provider_invoices WHERE id = $1', [c.invoice]);
    await db.query('DELETE FROM sepa_transactions WHERE id = $1', [c.sepaTransaction]);
    expect([
      await gone('PAYOUT'),
      await gone('INVOICE'),
      await gone('SEPA_TRANSFER'),
      await gone('SEPA_FILE'),
    ]).toEqual([1, 1, 1, 2]);
    await db.query('DELETE FROM sepa_files WHERE id = $1', [c.sepaFile]);
    await db.query('DELETE FROM sepa_files WHERE id = $1', [d.sepaFile]);
    expect([
      await gone('PAYOUT'),
      await gone('INVOICE'),
      await gone('SEPA_TRANSFER'),
      await gone('SEPA_FILE'),
    ]).toEqual([1, 1, 0, 0]);
    expect(await linesOf(db, file)).toBe(4);
  });

  it('never deletes a user history names, unless the same statement deletes that history too', async () => {
    const file = await statementFile(db);
    const [line] = await insertLines(db, [file]);
    const [named, unnamed] = [await user(db), await user(db)];
    await insertHistory(db, [{ line: line!, actor: named }]);
    await expect(db.query('DELETE FROM users WHERE id = ANY($1)', [[named, unnamed]])).rejects.toMatchObject(
      refused,
    );
    expect(await count(db, 'users WHERE id = ANY($1)', [[named, unnamed]])).toBe(2);
    await db.query('DELETE FROM users WHERE id = $1', [unnamed]);
    // NO ACTION, not RESTRICT: what names the user is looked for once the whole statement is done.
    await db.query(
      `WITH h AS (DELETE FROM statement_line_history WHERE actor_id = $1) DELETE FROM users WHERE id = $1`,
      [named],
    );
    expect(await count(db, 'users WHERE id = $1', [named])).toBe(0);
  });

  // Last: it empties the tables.
  it('refuses to truncate a table rows name unless they are truncated with it', async () => {
    const refusedNaming = (child: string) => ({
      code: FEATURE_NOT_SUPPORTED,
      message: expect.stringContaining(`rows of "${child}" name it`),
    });
    // The lines name their statement by a native key (migration 0034), so a file is truncated only with
    // its statements and their lines (TRUNCATE … CASCADE empties them, as the file's key did before 0030).
    await expect(db.query('TRUNCATE statement_files')).rejects.toMatchObject({
      code: FEATURE_NOT_SUPPORTED,
      message: expect.stringContaining('referenced in a foreign key constraint'),
    });
    // A payout's rows (migration 0043) name it by a native key: they go with it, as the lines' matches must.
    await expect(db.query('TRUNCATE provider_payouts, provider_payout_rows')).rejects.toMatchObject(
      refusedNaming('statement_line_matches'),
    );
    expect(await count(db, 'statement_lines')).toBeGreaterThan(0);
    await db.query('TRUNCATE provider_payouts, provider_payout_rows, statement_line_matches');
    await db.query('TRUNCATE statement_files, statement_lines, statement_line_history CASCADE');
    expect(await count(db, 'statement_lines')).toBe(0);
  });
});

// Two connections at once: what the keys' row locks guaranteed, the triggers' FOR KEY SHARE must too.
const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl)
  describe('statement references under concurrency on postgres', () => {
    let created: Awaited<ReturnType<typeof createPostgresDatabase>>;
    let writing: pg.Client;
    let other: pg.Client;
    let watching: pg.Client;
    let q: Queryable;
    beforeAll(async () => {
      created = await createPostgresDatabase(serverUrl);
      const db = await openDatabase({ databaseUrl: created.url });
      await migrate(db);
      await db.close();
      writing = new pg.Client({ connectionString: created.url });
      other = new pg.Client({ connectionString: created.url });
      watching = new pg.Client({ connectionString: created.url });
      await writing.connect();
      await other.connect();
      await watching.connect();
      // a lock never released fails the test instead of hanging it
      await other.query(`SET lock_timeout = '20s'`);
      q = {
        query: (sql: string, params?: readonly unknown[]) => writing.query(sql, params as unknown[]),
      } as Queryable;
    });
    afterAll(async () => {
      await writing.end();
      await other.end();
      await watching.end();
      await created.drop();
    });

    /** `sql` run on the other connection: its outcome, 'done' or the error's SQLSTATE. */
    const onOther = (sql: string, params: unknown[]) =>
      other.query(sql, params).then(
        () => 'done',
        (error: { code?: string }) => error.code ?? String(error),
      );

    /** Whether a statement starting with `prefix` waits for a lock (asked for up to ~10 s: a wait for the
     * other connection to arrive, not a measure of time). */
    async function waitsForALock(prefix: string): Promise<boolean> {
      for (let attempt = 0; attempt < 100; attempt++) {
        const { rows } = await watching.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`,
          [`${prefix}%`],
        );
        if (rows[0]!.n > 0) return true;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return false;
    }

    it('a statement file deleted while lines to it are uncommitted waits, then takes them with it', async () => {
      const file = await statementFile(q);
      await writing.query('BEGIN');
      const lines = await insertLines(q, [file, file, file]);
      await insertHistory(
        q,
        lines.map((line) => ({ line, actor: null })),
      );
      const deletion = onOther('DELETE FROM statement_files WHERE id = $1', [file]);
      expect(await waitsForALock('DELETE FROM statement_files')).toBe(true);
      await writing.query('COMMIT');
      expect(await deletion).toBe('done');
      expect([await linesOf(q, file), await historyOf(q, lines)]).toEqual([0, 0]);
    });

    it('lines written while their file’s deletion is uncommitted wait, then are refused', async () => {
      const file = await statementFile(q);
      await other.query('BEGIN');
      await other.query('DELETE FROM statement_files WHERE id = $1', [file]);
      const insertion = insertLines(q, [file, file]).then(
        () => 'done',
        (error: { code?: string }) => error.code,
      );
      expect(await waitsForALock('INSERT INTO statement_lines')).toBe(true);
      await other.query('COMMIT');
      expect(await insertion).toBe(FOREIGN_KEY_VIOLATION);
      expect(await linesOf(q, file)).toBe(0);
    });

    it('a user deleted while history naming them is uncommitted waits, then is refused', async () => {
      const file = await statementFile(q);
      const [line] = await insertLines(q, [file]);
      const admin = await user(q);
      await writing.query('BEGIN');
      await insertHistory(q, [{ line: line!, actor: admin }]);
      const deletion = onOther('DELETE FROM users WHERE id = $1', [admin]);
      expect(await waitsForALock('DELETE FROM users')).toBe(true);
      await writing.query('COMMIT');
      expect(await deletion).toBe(FOREIGN_KEY_VIOLATION);
      expect(await count(q, 'users WHERE id = $1', [admin])).toBe(1);
    });

    it('a line’s action is locked only when the line comes to name it, as a key locks only a changed key', async () => {
      const file = await statementFile(q);
      const [line] = await insertLines(q, [file]);
      const [named, next] = [await action(q), await action(q)];
      await q.query('UPDATE statement_lines SET last_action_id = $2 WHERE id = $1', [line, named]);
      await writing.query('BEGIN');
      // An undo holds the actions it reverses FOR UPDATE.
      await writing.query('SELECT FROM statement_actions WHERE id = ANY($1) FOR UPDATE', [[named, next]]);
      // Another line change that keeps the action the line names does not wait for it …
      expect(
        await onOther(`UPDATE statement_lines SET notes = 'kept', last_action_id = $2 WHERE id = $1`, [
          line,
          named,
        ]),
      ).toBe('done');
      // … one that names another action does, until the undo is done.
      const renaming = onOther('UPDATE statement_lines SET last_action_id = $2 WHERE id = $1', [line, next]);
      expect(await waitsForALock('UPDATE statement_lines SET last_action_id')).toBe(true);
      await writing.query('COMMIT');
      expect(await renaming).toBe('done');
    });
  });
