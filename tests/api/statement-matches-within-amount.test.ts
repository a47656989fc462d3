import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';

/**
 * The database refuses over-matching whatever the code does (migration 0026, decision 0101): the matched
 * parts of a payout or invoice never add up to more than its amount, nor one link more than a SEPA
 * transfer's or file's — checked once per statement over all the rows it wrote, under concurrency too.
 */
const CHECK_VIOLATION = '23514';

interface Link {
  lineId: string;
  kind: 'PAYOUT' | 'INVOICE' | 'SEPA_TRANSFER' | 'SEPA_FILE';
  id: string;
  cents: number;
  state?: 'MATCHED' | 'SUGGESTED';
}

/** Links written by ONE statement, as the reconciliation writes them. */
const insertLinks = (db: Queryable, links: Link[]) =>
  db.query(
    `INSERT INTO statement_line_matches (statement_line_id, kind, sepa_file_id, sepa_transaction_id, payout_id,
                                         invoice_id, state, allocated_cents)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::uuid[], $6::uuid[], $7::text[], $8::bigint[])`,
    [
      links.map((l) => l.lineId),
      links.map((l) => l.kind),
      links.map((l) => (l.kind === 'SEPA_FILE' ? l.id : null)),
      links.map((l) => (l.kind === 'SEPA_TRANSFER' ? l.id : null)),
      links.map((l) => (l.kind === 'PAYOUT' ? l.id : null)),
      links.map((l) => (l.kind === 'INVOICE' ? l.id : null)),
      links.map((l) => l.state ?? 'MATCHED'),
      links.map((l) => l.cents),
    ],
  );

/** Some transaction of this database waits for a row lock (PostgreSQL). */
const waitingOnALock = async (db: Queryable) =>
  (
    await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    )
  ).rows[0]!.n > 0;

describe.each(testDatabaseKinds())('statement links within their counterparts on $name', (kind) => {
  let db: Database;
  let statementFileId: string;
  let professionalId: string;
  beforeAll(async () => {
    db = await kind.open();
    const { rows: stored } = await db.query<{ id: string }>(
      `INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
       VALUES ('extrato.csv', 'text/csv', 1, repeat('a', 64), 'x/a') RETURNING id`,
    );
    const { rows: file } = await db.query<{ id: string }>(
      `INSERT INTO statement_files (file_id, file_name, format, sha256, account_iban)
       VALUES ($1, 'extrato.csv', 'CSV', repeat('b', 64), 'PT50000201231234567890154') RETURNING id`,
      [stored[0]!.id],
    );
    statementFileId = file[0]!.id;
    const { rows: doctor } = await db.query<{ id: string }>(
      `INSERT INTO users (role, email) VALUES ('PROFESSIONAL', 'medica.links@example.com') RETURNING id`,
    );
    professionalId = doctor[0]!.id;
  }, 60_000);
  afterAll(async () => db?.close());

  let lineNumber = 0;
  const line = async (cents: number) => {
    lineNumber += 1;
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO statement_lines (statement_file_id, line_number, dedup_key, bank_amount_cents, bank_date)
       VALUES ($1, $2, $3, $4, '2026-05-08') RETURNING id`,
      [statementFileId, lineNumber, randomUUID(), cents],
    );
    return rows[0]!.id;
  };
  const payout = async (cents: number) =>
    (
      await db.query<{ id: string }>(
        `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date) VALUES ($1, $2, '2026-05-01') RETURNING id`,
        [`po_${randomUUID()}`, cents],
      )
    ).rows[0]!.id;
  const invoice = async (cents: number) =>
    (
      await db.query<{ id: string }>(
        `INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date) VALUES ($1, $2, '2026-05-01') RETURNING id`,
        [`FT ${randomUUID()}`, cents],
      )
    ).rows[0]!.id;
  const sepaTransfer = async (cents: number) => {
    const tag = randomUUID().replace(/-/g, '').slice(0, 30);
    const { rows: file } = await db.query<{ id: string }>(
      `INSERT INTO sepa_files (msg_id, payment_info_id, amount_cents, transaction_count, reference_month, execution_date,
                               debtor_name, debtor_iban)
       VALUES ($1, $2, $3, 1, '2026-04', '2026-05-08', 'Plataforma', 'PT50000201231234567890154') RETURNING id`,
      [`M${tag}`, `P${tag}`, cents],
    );
    const { rows: transfer } = await db.query<{ id: string }>(
      `INSERT INTO sepa_transactions (sepa_file_id, end_to_end_id, professional_id, amount_cents, creditor_name,
                                      creditor_iban, remittance_information)
       VALUES ($1, $2, $3, $4, 'Dra. Ana', 'PT50000201231234567890154', 'Honorários') RETURNING id`,
      [file[0]!.id, `E${tag}`, professionalId, cents],
    );
    return { fileId: file[0]!.id, transferId: transfer[0]!.id };
  };
  const matchedOf = async (column: 'payout_id' | 'invoice_id', id: string) =>
    Number(
      (
        await db.query<{ cents: string }>(
          `SELECT coalesce(sum(allocated_cents), 0)::text AS cents FROM statement_line_matches
            WHERE ${column} = $1 AND state = 'MATCHED'`,
          [id],
        )
      ).rows[0]!.cents,
    );

  it('takes the parts of a payout and of an invoice written in one statement up to their amounts, not a cent more', async () => {
    const [p, i] = [await payout(10_000), await invoice(7_000)];
    const lines = [await line(6_000), await line(4_000), await line(-7_000), await line(1)];
    await insertLinks(db, [
      { lineId: lines[0]!, kind: 'PAYOUT', id: p, cents: 6_000 },
      { lineId: lines[1]!, kind: 'PAYOUT', id: p, cents: 4_000 },
      { lineId: lines[2]!, kind: 'INVOICE', id: i, cents: 7_000 },
    ]);
    expect([await matchedOf('payout_id', p), await matchedOf('invoice_id', i)]).toEqual([10_000, 7_000]);
    // one more cent, by a later statement or by several rows of one, is refused and writes nothing
    await expect(
      insertLinks(db, [{ lineId: lines[3]!, kind: 'PAYOUT', id: p, cents: 1 }]),
    ).rejects.toMatchObject({ code: CHECK_VIOLATION, constraint: 'statement_line_matches_within_amount' });
    const [q, j] = [await payout(5_000), await invoice(5_000)];
    await expect(
      insertLinks(db, [
        { lineId: lines[3]!, kind: 'PAYOUT', id: q, cents: 2_500 },
        { lineId: lines[3]!, kind: 'INVOICE', id: j, cents: 5_000 },
        { lineId: lines[0]!, kind: 'PAYOUT', id: q, cents: 2_501 },
      ]),
    ).rejects.toMatchObject({ code: CHECK_VIOLATION });
    expect([await matchedOf('payout_id', q), await matchedOf('invoice_id', j)]).toEqual([0, 0]);
  });

  it('lets suggestions exceed the amount (they take nothing) but not once they are matched', async () => {
    const p = await payout(3_000);
    const [a, b] = [await line(3_000), await line(3_000)];
    await insertLinks(db, [
      { lineId: a, kind: 'PAYOUT', id: p, cents: 3_000, state: 'SUGGESTED' },
      { lineId: b, kind: 'PAYOUT', id: p, cents: 3_000, state: 'SUGGESTED' },
    ]);
    await db.query(`UPDATE statement_line_matches SET state = 'MATCHED' WHERE statement_line_id = $1`, [a]);
    await expect(
      db.query(`UPDATE statement_line_matches SET state = 'MATCHED' WHERE statement_line_id = $1`, [b]),
    ).rejects.toMatchObject({ code: CHECK_VIOLATION });
    expect(await matchedOf('payout_id', p)).toBe(3_000);
  });

  it('refuses a link over a SEPA transfer’s or file’s amount', async () => {
    const { fileId, transferId } = await sepaTransfer(12_000);
    const [a, b] = [await line(-12_001), await line(-12_001)];
    await expect(
      insertLinks(db, [{ lineId: a, kind: 'SEPA_TRANSFER', id: transferId, cents: 12_001 }]),
    ).rejects.toMatchObject({ code: CHECK_VIOLATION });
    await expect(
      insertLinks(db, [{ lineId: b, kind: 'SEPA_FILE', id: fileId, cents: 12_001 }]),
    ).rejects.toMatchObject({ code: CHECK_VIOLATION });
    await insertLinks(db, [
      { lineId: a, kind: 'SEPA_TRANSFER', id: transferId, cents: 12_000 },
      { lineId: b, kind: 'SEPA_FILE', id: fileId, cents: 12_000 },
    ]);
  });

  // PGlite has one connection, so two transactions cannot overlap there: the test exists on PostgreSQL
  // only (defined, not skipped — CI fails a run with skipped tests).
  if (kind.name === 'postgres')
    it('two transactions matching the same payouts take turns: the second sees the first’s parts and is refused, or takes them once the first rolls back', async () => {
      const [p, q] = [await payout(10_000), await payout(10_000)];
      const lines = [await line(6_000), await line(6_000), await line(6_000), await line(6_000)];
      for (const firstCommits of [true, false]) {
        let firstWrote!: () => void;
        const wrote = new Promise<void>((resolve) => (firstWrote = resolve));
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        const first = db.transaction(async (tx) => {
          await insertLinks(tx, [
            { lineId: lines[0]!, kind: 'PAYOUT', id: p, cents: 6_000 },
            { lineId: lines[1]!, kind: 'PAYOUT', id: q, cents: 6_000 },
          ]);
          firstWrote();
          await released;
          if (!firstCommits) throw new Error('rolled back');
        });
        await wrote;
        // The second names the same payouts in the other order: locked in id order, it waits, never deadlocks.
        const second = db.transaction((tx) =>
          insertLinks(tx, [
            { lineId: lines[2]!, kind: 'PAYOUT', id: q, cents: 6_000 },
            { lineId: lines[3]!, kind: 'PAYOUT', id: p, cents: 6_000 },
          ]),
        );
        // It waits for the first's lock on a payout (seen by the server), and cannot finish before it.
        let settled = false;
        second.then(
          () => (settled = true),
          () => (settled = true),
        );
        while (!settled && !(await waitingOnALock(db)))
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(settled).toBe(false);
        release();
        if (firstCommits) {
          await first;
          await expect(second).rejects.toMatchObject({ code: CHECK_VIOLATION });
          expect([await matchedOf('payout_id', p), await matchedOf('payout_id', q)]).toEqual([6_000, 6_000]);
          await db.query('DELETE FROM statement_line_matches WHERE payout_id = ANY($1::uuid[])', [[p, q]]);
        } else {
          await expect(first).rejects.toThrow('rolled back');
          await second;
          expect([await matchedOf('payout_id', p), await matchedOf('payout_id', q)]).toEqual([6_000, 6_000]);
        }
      }
    });
});
