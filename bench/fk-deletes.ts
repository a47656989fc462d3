// What deleting a SEPA file costs through its foreign keys, with and without the indexes of migration
// 0028 (tests/db/foreign-key-indexes.test.ts):
//   npx tsx bench/fk-deletes.ts [--url postgres://…] [--transfers 10000] [--links 100000]
//                               [--matches 200000] [--runs 3]
// A fresh database, migrated; one GENERATED SEPA file of `--transfers` transfers carrying `--links`
// settlements, and `--matches` statement-line matches of payouts (the rows a year of statements leaves).
// The seed is written with `session_replication_role = replica`, which skips triggers and key checks, so
// its references point at nothing: only the size of the tables matters to the lookups timed here. Each
// run deletes the file (cascading to its transfers and their links) in a transaction and rolls it back;
// then the 0028 indexes are dropped and the same is timed once more. The database is dropped at the end.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../server/db/client';
import { migrate } from '../server/db/migrate';

const { values } = parseArgs({
  options: {
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    transfers: { type: 'string', default: '10000' },
    links: { type: 'string', default: '100000' },
    matches: { type: 'string', default: '200000' },
    runs: { type: 'string', default: '3' },
  },
});
const TRANSFERS = Number(values.transfers);
const LINKS = Number(values.links);
const MATCHES = Number(values.matches);
const RUNS = Number(values.runs);

/** The indexes migration 0028 adds that a SEPA file's deletion reaches. */
const INDEXES_0028 = [
  'statement_line_matches_sepa_file_idx',
  'statement_line_matches_sepa_transaction_idx',
  'statement_effects_sepa_file_idx',
  'statement_effects_sepa_transaction_idx',
  'payout_blocks_sepa_transaction_idx',
];

const name = `bench_fk_${process.pid}`;
const admin = new pg.Client({ connectionString: values.url });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const target = new URL(values.url);
target.pathname = `/${name}`;
const db = await openDatabase({ databaseUrl: target.toString() });
try {
  await migrate(db);
  const fileId = await seed();
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
  console.log(
    `${TRANSFERS} transfers, ${LINKS} settlement links, ${MATCHES} statement-line matches; load ${load()}`,
  );
  const timeDelete = async () => {
    const client = new pg.Client({ connectionString: target.toString() });
    await client.connect();
    await client.query('BEGIN');
    const started = performance.now();
    await client.query('DELETE FROM sepa_files WHERE id = $1', [fileId]);
    const ms = performance.now() - started;
    await client.query('ROLLBACK');
    await client.end();
    return ms;
  };
  for (let run = 1; run <= RUNS; run++)
    console.log(`with the 0028 indexes, run ${run}: ${(await timeDelete()).toFixed(0)} ms (load ${load()})`);
  for (const index of INDEXES_0028) await db.query(`DROP INDEX ${index}`);
  console.log(`without them: ${(await timeDelete()).toFixed(0)} ms (load ${load()})`);
} finally {
  await db.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

async function seed(): Promise<string> {
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SET LOCAL session_replication_role = replica');
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO sepa_files (msg_id, payment_info_id, amount_cents, transaction_count, reference_month,
                             execution_date, debtor_name, debtor_iban)
     VALUES ('BENCH-MSG', 'BENCH-PMT', $1, $2, '2026-05', '2026-06-01', 'Bench', 'PT50000201231234567890154')
     RETURNING id`,
    [LINKS * 5_000, TRANSFERS],
  );
  const fileId = rows[0]!.id;
  await client.query(
    `INSERT INTO sepa_transactions (sepa_file_id, end_to_end_id, professional_id, amount_cents,
                                    creditor_name, creditor_iban, remittance_information)
     SELECT $1, 'BENCH-E2E-' || n, gen_random_uuid(), 5000 * ($2::int / $3::int), 'Dr. ' || n,
            'PT50000201231234567890154', 'Honorarios 2026-05'
       FROM generate_series(1, $3::int) n`,
    [fileId, LINKS, TRANSFERS],
  );
  await client.query(
    `INSERT INTO sepa_transaction_settlements (sepa_transaction_id, sepa_file_id, settlement_id, amount_cents)
     SELECT t.id, $1, gen_random_uuid(), 5000
       FROM sepa_transactions t, generate_series(1, $2::int / $3::int)`,
    [fileId, LINKS, TRANSFERS],
  );
  await client.query(
    `INSERT INTO statement_line_matches (statement_line_id, kind, payout_id, state, allocated_cents)
     SELECT gen_random_uuid(), 'PAYOUT', gen_random_uuid(), 'MATCHED', 1000 + n % 20 * 500
       FROM generate_series(1, $1::int) n`,
    [MATCHES],
  );
  await client.query('COMMIT');
  await client.query('VACUUM ANALYZE');
  await client.end();
  return fileId;
}
