import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../server/db/client';
import { listMigrations, splitStatements } from '../../server/db/migrate';
import { testDatabaseKinds } from '../support/databases';
import { link, linkFixture } from '../support/sepa-links';

/**
 * PENDING_TRANSFER is not stored (migration 0033, docs/decisions/0119): a settlement is PENDING_TRANSFER
 * while it is stored SETTLED and has a live SEPA link. The view `settlement_statuses` says so for tests
 * and ad-hoc SQL; the server's reads use the same rule (server/finance/settlement-status-sql.ts).
 */
const CHECK_VIOLATION = '23514';

const shown = async (db: Queryable, ids: readonly string[]) =>
  (
    await db.query<{ status: string }>(
      'SELECT status FROM settlement_statuses WHERE id = ANY($1::uuid[]) ORDER BY id',
      [ids],
    )
  ).rows.map((row) => row.status);

const stored = async (db: Queryable, ids: readonly string[]) =>
  (
    await db.query<{ status: string }>(
      'SELECT status FROM settlements WHERE id = ANY($1::uuid[]) ORDER BY id',
      [ids],
    )
  ).rows.map((row) => row.status);

/** Migration 0033's statements, run again on a database put back as it was before it. */
async function runMigration0033(db: Database): Promise<void> {
  const migration = listMigrations().find((m) => m.id.startsWith('0033_'))!;
  await db.transaction(async (tx) => {
    for (const statement of splitStatements(migration.sql)) await tx.query(statement);
  });
}

/** The schema as migration 0032 left it: PENDING_TRANSFER allowed in the column, no view. */
async function beforeMigration0033(db: Queryable): Promise<void> {
  await db.query('DROP VIEW settlement_statuses');
  await db.query('ALTER TABLE settlements DROP CONSTRAINT settlements_status_check');
  await db.query(`ALTER TABLE settlements ADD CONSTRAINT settlements_status_check CHECK (status IN (
    'READY_TO_SETTLE', 'AVAILABLE', 'SETTLED', 'PENDING_TRANSFER', 'PAID', 'REFUNDED', 'REFUNDED_PAID'))`);
}

describe.each(testDatabaseKinds())('PENDING_TRANSFER derived from live SEPA links on $name', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('refuses PENDING_TRANSFER as a stored status', async () => {
    const f = await linkFixture(db, 1);
    await expect(
      db.query(`UPDATE settlements SET status = 'PENDING_TRANSFER' WHERE id = $1`, [f.settlements[0]]),
    ).rejects.toMatchObject({ code: CHECK_VIOLATION });
    expect(await stored(db, f.settlements)).toEqual(['SETTLED']);
  });

  it('shows SETTLED with a live link as PENDING_TRANSFER; without one, or once it is not live, as stored', async () => {
    const f = await linkFixture(db, 3);
    const [linked, unlinked, paid] = [...f.settlements].sort();
    await db.query(`UPDATE settlements SET status = 'PAID' WHERE id = $1`, [paid]);
    await link(db, f.transaction, f.file, [linked!, paid!]);
    expect(await shown(db, [linked!, unlinked!, paid!])).toEqual(['PENDING_TRANSFER', 'SETTLED', 'PAID']);
    await db.query(`UPDATE sepa_files SET status = 'UNAVAILABLE' WHERE id = $1`, [f.file]);
    expect(await shown(db, [linked!, unlinked!, paid!])).toEqual(['SETTLED', 'SETTLED', 'PAID']);
  });

  it('migration 0033 stores PENDING_TRANSFER as SETTLED where a live link says so, and refuses a disagreement', async () => {
    const scratch = await kind.open();
    try {
      await beforeMigration0033(scratch);
      const f = await linkFixture(scratch, 2);
      await link(scratch, f.transaction, f.file, f.settlements);
      await scratch.query(`UPDATE settlements SET status = 'PENDING_TRANSFER' WHERE id = ANY($1::uuid[])`, [
        f.settlements,
      ]);
      // A PENDING_TRANSFER in no live file: the conversion would make it SETTLED, i.e. payable again.
      const orphan = await linkFixture(scratch, 1);
      await scratch.query(`UPDATE settlements SET status = 'PENDING_TRANSFER' WHERE id = $1`, [
        orphan.settlements[0],
      ]);
      await expect(runMigration0033(scratch)).rejects.toThrow(
        /1 PENDING_TRANSFER settlement\(s\) in no live SEPA file, 0 SETTLED/,
      );
      expect(await stored(scratch, orphan.settlements)).toEqual(['PENDING_TRANSFER']);
      await scratch.query(`UPDATE settlements SET status = 'SETTLED' WHERE id = $1`, [orphan.settlements[0]]);

      // A SETTLED settlement live in a PAID file: it would come out PENDING_TRANSFER in a file that is over.
      const over = await linkFixture(scratch, 1);
      await link(scratch, over.transaction, over.file, over.settlements);
      await scratch.query(`UPDATE sepa_files SET status = 'PAID' WHERE id = $1`, [over.file]);
      await expect(runMigration0033(scratch)).rejects.toThrow(
        /0 PENDING_TRANSFER settlement\(s\) in no live SEPA file, 1 SETTLED\/PENDING_TRANSFER settlement\(s\) live in a PAID/,
      );
      await scratch.query(`UPDATE settlements SET status = 'PAID' WHERE id = $1`, [over.settlements[0]]);
      await runMigration0033(scratch);
      expect(await stored(scratch, f.settlements)).toEqual(['SETTLED', 'SETTLED']);
      expect(await shown(scratch, f.settlements)).toEqual(['PENDING_TRANSFER', 'PENDING_TRANSFER']);
      expect(await shown(scratch, orphan.settlements)).toEqual(['SETTLED']);
      const { rows } = await scratch.query(
        `SELECT status FROM dashboard_settlement_months WHERE status = 'PENDING_TRANSFER'`,
      );
      expect(rows).toEqual([]);
    } finally {
      await scratch.close();
    }
  });
});
