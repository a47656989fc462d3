import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, type Queryable } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { createPostgresDatabase, testDatabaseKinds } from '../support/databases';
import { linkFixture as fixture, link } from '../support/sepa-links';

/**
 * A SEPA link names its settlement and its transfer (in its file). Migration 0029 checks that once per
 * statement instead of by two foreign keys row by row (docs/decisions/0111); these are the keys' rules,
 * held by the triggers.
 */
const FOREIGN_KEY_VIOLATION = '23503';

const linkCount = async (db: Queryable, file: string) =>
  (
    await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM sepa_transaction_settlements WHERE sepa_file_id = $1',
      [file],
    )
  ).rows[0]!.n;

describe.each(testDatabaseKinds())('SEPA links on $name', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('refuses a statement whose links name a settlement that does not exist, and keeps none of it', async () => {
    const f = await fixture(db, 3);
    const missing = '00000000-0000-4000-8000-000000000001';
    await expect(link(db, f.transaction, f.file, [...f.settlements, missing])).rejects.toMatchObject({
      code: FOREIGN_KEY_VIOLATION,
    });
    expect(await linkCount(db, f.file)).toBe(0);
    await link(db, f.transaction, f.file, f.settlements);
    expect(await linkCount(db, f.file)).toBe(3);
  });

  it('refuses a link to a transfer of another file', async () => {
    const a = await fixture(db, 1);
    const b = await fixture(db, 1);
    await expect(link(db, a.transaction, b.file, b.settlements)).rejects.toMatchObject({
      code: FOREIGN_KEY_VIOLATION,
    });
    expect(await linkCount(db, b.file)).toBe(0);
  });

  it('never deletes a settlement a link names, and never changes what a link names', async () => {
    const f = await fixture(db, 2);
    await link(db, f.transaction, f.file, f.settlements);
    await expect(db.query('DELETE FROM settlements WHERE id = $1', [f.settlements[0]])).rejects.toMatchObject(
      {
        code: FOREIGN_KEY_VIOLATION,
      },
    );
    const other = await fixture(db, 1);
    await expect(
      db.query('UPDATE sepa_transaction_settlements SET settlement_id = $1 WHERE settlement_id = $2', [
        other.settlements[0],
        f.settlements[0],
      ]),
    ).rejects.toMatchObject({ code: FOREIGN_KEY_VIOLATION });
    await expect(
      db.query(`UPDATE settlements SET id = gen_random_uuid() WHERE id = $1`, [f.settlements[1]]),
    ).rejects.toMatchObject({ code: FOREIGN_KEY_VIOLATION });
    await expect(
      db.query('UPDATE sepa_transactions SET sepa_file_id = $1 WHERE id = $2', [other.file, f.transaction]),
    ).rejects.toMatchObject({ code: FOREIGN_KEY_VIOLATION });
    // Only `live` moves.
    await db.query('UPDATE sepa_transaction_settlements SET live = false WHERE sepa_file_id = $1', [f.file]);
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM settlements WHERE id = ANY($1)',
      [f.settlements],
    );
    expect(rows[0]!.n).toBe(2);
  });

  it('takes a transfer’s links with it, also when its whole file is deleted', async () => {
    const a = await fixture(db, 2);
    const b = await fixture(db, 2);
    await link(db, a.transaction, a.file, a.settlements);
    await link(db, b.transaction, b.file, b.settlements);
    await db.query('DELETE FROM sepa_transactions WHERE id = $1', [a.transaction]);
    expect(await linkCount(db, a.file)).toBe(0);
    await db.query('DELETE FROM sepa_files WHERE id = $1', [b.file]);
    expect(await linkCount(db, b.file)).toBe(0);
    // The settlements outlive their links, and can now be deleted.
    await db.query('DELETE FROM settlements WHERE id = ANY($1)', [[...a.settlements, ...b.settlements]]);
  });
});

// Two connections at once: what the keys' row locks guaranteed, the triggers' FOR KEY SHARE must too.
const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl)
  describe('SEPA links under concurrency on postgres', () => {
    let created: Awaited<ReturnType<typeof createPostgresDatabase>>;
    let linking: pg.Client;
    let deleting: pg.Client;
    beforeAll(async () => {
      created = await createPostgresDatabase(serverUrl);
      const db = await openDatabase({ databaseUrl: created.url });
      await migrate(db);
      await db.close();
      linking = new pg.Client({ connectionString: created.url });
      deleting = new pg.Client({ connectionString: created.url });
      await linking.connect();
      await deleting.connect();
    });
    afterAll(async () => {
      await linking.end();
      await deleting.end();
      await created.drop();
    });

    it('a settlement deleted while a link to it is uncommitted waits, then is refused', async () => {
      const q = {
        query: (sql: string, params?: readonly unknown[]) => linking.query(sql, params as unknown[]),
      } as Queryable;
      const f = await fixture(q, 1);
      await linking.query('BEGIN');
      await link(q, f.transaction, f.file, f.settlements);
      const deletion = deleting.query('DELETE FROM settlements WHERE id = $1', [f.settlements[0]]).then(
        () => 'deleted',
        (error: { code?: string }) => error.code,
      );
      // The deletion is blocked by the link's lock until the link commits (asked for up to ~10 s: a
      // wait for the other connection to arrive, not a measure of time).
      let waiting = 0;
      for (let attempt = 0; attempt < 100 && waiting === 0; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const { rows } = await linking.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE wait_event_type = 'Lock' AND query LIKE 'DELETE FROM settlements%'`,
        );
        waiting = rows[0]!.n;
      }
      expect(waiting).toBe(1);
      await linking.query('COMMIT');
      expect(await deletion).toBe(FOREIGN_KEY_VIOLATION);
      expect(await linkCount(q, f.file)).toBe(1);
    });
  });
