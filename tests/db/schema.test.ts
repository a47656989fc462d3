import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { listMigrations, migrate } from '../../server/db/migrate';
import { testDatabaseKinds } from '../support/databases';

const UNIQUE_VIOLATION = '23505';
const CHECK_VIOLATION = '23514';

describe.each(testDatabaseKinds())('schema on $name', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  });
  afterAll(async () => {
    await db.close();
  });

  const insertUser = (email: string, role = 'CUSTOMER') =>
    db.query<{ id: string }>('INSERT INTO users (role, email) VALUES ($1, $2) RETURNING id', [role, email]);

  it('records every migration and applies none twice', async () => {
    const { rows } = await db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual(listMigrations().map((m) => m.id));
    expect(await migrate(db)).toEqual([]);
  });

  it('rejects a second e-mail that differs only in case', async () => {
    await insertUser('Rita.Sousa@example.com');
    await expect(insertUser('rita.sousa@EXAMPLE.com')).rejects.toMatchObject({ code: UNIQUE_VIOLATION });
  });

  it('rejects values outside an enumeration', async () => {
    await expect(insertUser('root@example.com', 'ROOT')).rejects.toMatchObject({ code: CHECK_VIOLATION });
    const customer = (await insertUser('c@example.com')).rows[0]!.id;
    const professional = (await insertUser('p@example.com', 'PROFESSIONAL')).rows[0]!.id;
    await expect(
      db.query(
        `INSERT INTO cases (customer_id, professional_id, status, type, price_cents) VALUES ($1, $2, 'OPEN', 'SINGLE_CASE', 1500)`,
        [customer, professional],
      ),
    ).rejects.toMatchObject({ code: CHECK_VIOLATION });
    const { rows } = await db.query<{ closed: boolean }>(
      `INSERT INTO cases (customer_id, professional_id, status, type, price_cents)
       VALUES ($1, $2, 'CLOSED_EXPIRED', 'SINGLE_CASE', 1500) RETURNING closed`,
      [customer, professional],
    );
    expect(rows[0]!.closed).toBe(true);
  });

  it('treats area names equal after trimming, case folding and space collapsing as duplicates', async () => {
    await db.query(`INSERT INTO interest_areas (name) VALUES ('Medicina Geral')`);
    await expect(
      db.query(`INSERT INTO interest_areas (name) VALUES ('  medicina   GERAL ')`),
    ).rejects.toMatchObject({
      code: UNIQUE_VIOLATION,
    });
  });

  it('never lets a settlement be in two live SEPA files, but frees it when its file becomes UNAVAILABLE', async () => {
    const professional = (await insertUser('sepa.pro@example.com', 'PROFESSIONAL')).rows[0]!.id;
    const customer = (await insertUser('sepa.customer@example.com')).rows[0]!.id;
    const caseId = (
      await db.query<{ id: string }>(
        `INSERT INTO cases (customer_id, professional_id, status, type, price_cents)
         VALUES ($1, $2, 'CLOSED_BY_PROFESSIONAL', 'SINGLE_CASE', 2000) RETURNING id`,
        [customer, professional],
      )
    ).rows[0]!.id;
    const settlement = (
      await db.query<{ id: string }>(
        `INSERT INTO settlements (professional_id, case_id, reference_month, gross_cents, fee_cents, net_cents, status)
         VALUES ($1, $2, '2026-01', 2000, 320, 1680, 'SETTLED') RETURNING id`,
        [professional, caseId],
      )
    ).rows[0]!.id;
    const include = async (msgId: string) => {
      const file = (
        await db.query<{ id: string }>(
          `INSERT INTO sepa_files (msg_id, payment_info_id, amount_cents, transaction_count, reference_month, execution_date, debtor_name, debtor_iban)
           VALUES ($1, $1 || '-L1', 1680, 1, '2026-01', '2026-02-03', 'Debtor', 'PT50003506510000123456714') RETURNING id`,
          [msgId],
        )
      ).rows[0]!.id;
      const transaction = (
        await db.query<{ id: string }>(
          `INSERT INTO sepa_transactions (sepa_file_id, end_to_end_id, professional_id, amount_cents, creditor_name, creditor_iban, remittance_information)
           VALUES ($1, $2 || '-1', $3, 1680, 'Pro', 'PT50003506510000123456714', 'Consultas') RETURNING id`,
          [file, msgId, professional],
        )
      ).rows[0]!.id;
      await db.query(
        `INSERT INTO sepa_transaction_settlements (sepa_transaction_id, sepa_file_id, settlement_id, amount_cents) VALUES ($1, $2, $3, 1680)`,
        [transaction, file, settlement],
      );
      return file;
    };
    const first = await include('MSG-A');
    await expect(include('MSG-B')).rejects.toMatchObject({ code: UNIQUE_VIOLATION });
    await db.query(`UPDATE sepa_files SET status = 'UNAVAILABLE' WHERE id = $1`, [first]);
    await include('MSG-C');
    const { rows } = await db.query<{ live: number }>(
      'SELECT count(*)::int AS live FROM sepa_transaction_settlements WHERE settlement_id = $1 AND live',
      [settlement],
    );
    expect(rows[0]!.live).toBe(1);
  });

  it('imports a statement file once (its content hash is unique); a line key is not, and a MATCHED line has a link', async () => {
    const file = (
      await db.query<{ id: string }>(
        `INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
         VALUES ('x.csv', 'text/csv', 1, repeat('a', 64), 'aa/' || repeat('a', 64)) RETURNING id`,
      )
    ).rows[0]!.id;
    const statement = (
      await db.query<{ id: string }>(
        `INSERT INTO statement_files (file_id, format, sha256) VALUES ($1, 'CSV', repeat('a', 64)) RETURNING id`,
        [file],
      )
    ).rows[0]!.id;
    await expect(
      db.query(`INSERT INTO statement_files (file_id, format, sha256) VALUES ($1, 'CSV', repeat('a', 64))`, [
        file,
      ]),
    ).rejects.toMatchObject({ code: UNIQUE_VIOLATION });
    const line = (n: number) =>
      db.query(
        `INSERT INTO statement_lines (statement_file_id, line_number, dedup_key, bank_amount_cents, bank_date)
         VALUES ($1, $2, 'same-entry', -1234, '2026-01-05')`,
        [statement, n],
      );
    // Two identical payments in two statements of one account that do not overlap share a content key
    // (docs/decisions/0121): the import keeps each line once, by its rules, not the schema.
    await line(1);
    await line(2);
    await expect(
      db.query(
        `INSERT INTO statement_lines (statement_file_id, line_number, dedup_key, bank_amount_cents, bank_date, status)
         VALUES ($1, 3, 'matched-to-nothing', 10, '2026-01-05', 'MATCHED')`,
        [statement],
      ),
    ).rejects.toMatchObject({ code: CHECK_VIOLATION });
  });
});
