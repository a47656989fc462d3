// The month close (decision 0155) and its missing sides at 1,000,000 statement lines and settlements.
//   npx tsx bench/month-close.ts [--url postgres://…] [--db bench_lists_load] [--iterations 30]
// Reads the kept database of bench/lists-under-load.ts (1,000,000 statement lines, 1,000,000 settlements;
// created there, never here). That database holds no payouts or invoices, so inside ONE transaction that is
// rolled back at the end the bench adds what an installation would have: an invoice for nine settlements in
// ten of the measured month, 5,000 invoices billing nothing, and a weekly payout per week of the year, so
// nothing is left behind in the shared database. Each read: a warm-up, then `iterations` timed in a row.
// Migration 0046 (the two home counters kept) is applied inside that transaction when the database has not
// got it, and the month's invoices are written once without its triggers (rolled back to a savepoint) and
// once with them, as an import writes them: one statement each, timed.
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { readDashboard } from '../server/dashboard/dashboard';
import { openDatabase, type Queryable } from '../server/db/client';
import { listMigrations, splitStatements } from '../server/db/migrate';
import { INVOICE_MATCHED, SETTLEMENT_INVOICED } from '../server/db/provider-sides';
import { monthCloseIn } from '../server/finance/month-close';
import { listProviderDocuments } from '../server/finance/provider-documents';
import { listSettlements } from '../server/finance/settlements';
import { percentile } from './banking-report';

const { values } = parseArgs({
  options: {
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    db: { type: 'string', default: 'bench_lists_load' },
    iterations: { type: 'string', default: '30' },
  },
});
const iterations = Number(values.iterations);
const url = new URL(values.url);
url.pathname = `/${values.db}`;
const db = await openDatabase({ databaseUrl: url.toString() });

async function time(name: string, read: () => Promise<unknown>) {
  const first = performance.now();
  await read();
  const firstMs = performance.now() - first;
  const ms: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await read();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1);
  console.log(
    `| ${name} | ${f(firstMs)} | ${f(percentile(ms, 50))} | ${f(percentile(ms, 95))} | ${f(ms.at(-1)!)} |`,
  );
}

class RolledBack extends Error {}

const counts = await db.query<{ lines: string; settlements: string; month: string; month_lines: string }>(
  `SELECT (SELECT count(*) FROM statement_lines)::text AS lines, (SELECT count(*) FROM settlements)::text AS settlements,
          m.month, m.n::text AS month_lines
     FROM (SELECT to_char(bank_date, 'YYYY-MM') AS month, count(*) AS n FROM statement_lines
            GROUP BY 1 ORDER BY 2 DESC, 1 DESC LIMIT 1) m`,
);
const { lines, settlements, month, month_lines } = counts.rows[0]!;
console.log(
  `database ${values.db}: ${lines} statement lines, ${settlements} settlements; month ${month}: ${month_lines} lines`,
);
console.log(`load before: ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`);

try {
  await db.transaction(async (tx: Queryable) => {
    // `run` in the invoices' numbers: the second write's keys are not the first's (rolled back, still in the
    // unique index as dead entries that each insert would have to step over).
    const writeInvoices = async (run: string) => {
      const started = performance.now();
      const added = await tx.query<{ invoices: string; settlements: string }>(
        `WITH month AS (SELECT id, gross_cents, row_number() OVER (ORDER BY id) AS n FROM settlements WHERE reference_month = $1),
         billed AS (
           INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date, settlement_id)
           SELECT 'FR BENCH' || $2 || '/' || n, gross_cents, ($1 || '-15')::date, id FROM month WHERE n % 10 <> 0 RETURNING 1)
         SELECT (SELECT count(*) FROM billed)::text AS invoices, (SELECT count(*) FROM month)::text AS settlements`,
        [month, run],
      );
      const billedMs = performance.now() - started;
      const strayStarted = performance.now();
      await tx.query(
        `INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date)
         SELECT 'FR BENCH' || $2 || '/STRAY/' || i, 1000 + i, ($1 || '-01')::date + (i % 28) FROM generate_series(1, 100000) i`,
        [month, run],
      );
      const strayMs = performance.now() - strayStarted;
      return { added: added.rows[0]!, billedMs, strayMs };
    };
    const kept = await tx.query(`SELECT 1 FROM schema_migrations WHERE id = '0046_provider_side_totals'`);
    if (kept.rows.length === 0) {
      await tx.query('SAVEPOINT before_kept_totals');
      const bare = await writeInvoices('A');
      console.log(
        `without migration 0046's triggers: ${bare.added.invoices} invoices billing settlements in one statement ${bare.billedMs.toFixed(0)} ms, 100,000 billing nothing ${bare.strayMs.toFixed(0)} ms`,
      );
      await tx.query('ROLLBACK TO SAVEPOINT before_kept_totals');
      const migration = listMigrations().find((m) => m.id === '0046_provider_side_totals')!;
      const started = performance.now();
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      console.log(
        `migration 0046 applied (its first count) in ${(performance.now() - started).toFixed(0)} ms`,
      );
    }
    const withTriggers = await writeInvoices('B');
    console.log(
      `with them: the same ${withTriggers.billedMs.toFixed(0)} ms and ${withTriggers.strayMs.toFixed(0)} ms`,
    );
    const added = { rows: [withTriggers.added] };
    await tx.query(
      `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date)
       SELECT 'po_bench_' || w, 100000 + w, ($1 || '-01')::date - 180 + 7 * w FROM generate_series(0, 52) w`,
      [month],
    );
    // Migration 0045's index (the date index covering status and amount) beside the old one, rolled back
    // with the rest: dropping the old one here would lock the shared table against every other reader.
    await tx.query(
      'CREATE INDEX statement_lines_date_bench_idx ON statement_lines (bank_date, id) INCLUDE (status, bank_amount_cents)',
    );
    // Migration 0052 (a month's settlements in the list's orders), when the database has not got it: in this
    // transaction, so the first reads below are the list's before it and the ones after are with it.
    const sorted = await tx.query(
      `SELECT 1 FROM schema_migrations WHERE id = '0052_settlements_month_sorted'`,
    );
    const monthSorted =
      sorted.rows.length === 0
        ? listMigrations().find((m) => m.id === '0052_settlements_month_sorted')!
        : null;
    await tx.query('ANALYZE provider_invoices, provider_payouts, statement_lines');
    const a = added.rows[0]!;
    console.log(
      `added (rolled back at the end): ${a.invoices} invoices for ${a.settlements} settlements of ${month}, 100,000 billing nothing, 53 payouts`,
    );
    console.log('\n| read | first ms | p50 ms | p95 ms | max ms |\n|---|---:|---:|---:|---:|');
    // As the route reads it (readMonthClose: JIT off for its one statement), inside this transaction.
    await tx.query('SET LOCAL jit = off');
    await time(`month close ${month}`, () => monthCloseIn(tx, month));
    await time('month close, a month with no lines (2030-01)', () => monthCloseIn(tx, '2030-01'));
    await tx.query('SET LOCAL jit = on');
    // The list's own cost of a month sorted by creation or by amount, for comparison: the month's filter alone.
    const monthLists = async (when: string) => {
      await time(`settlements of ${month}, first page, newest first (${when})`, () =>
        listSettlements(tx, { referenceMonth: month, sort: 'created', order: 'desc', limit: 50 }),
      );
      await time(`settlements of ${month}, first page, largest payable first (${when})`, () =>
        listSettlements(tx, { referenceMonth: month, sort: 'payable', order: 'desc', limit: 50 }),
      );
    };
    if (monthSorted) {
      await monthLists('without migration 0052');
      const started = performance.now();
      for (const statement of splitStatements(monthSorted.sql)) await tx.query(statement);
      console.log(`| migration 0052 applied in ${(performance.now() - started).toFixed(0)} ms | | | | |`);
    }
    await monthLists('with migration 0052');
    await time(`settlements of ${month} not invoiced, first page`, () =>
      listSettlements(tx, {
        referenceMonth: month,
        customerInvoiced: false,
        sort: 'created',
        order: 'desc',
        limit: 50,
      }),
    );
    await time(`invoices of ${month} with no paid settlement, first page`, () =>
      listProviderDocuments(tx, { kind: 'INVOICE', month, matched: false, limit: 100 }),
    );
    await time(
      'the two home counters recounted (settlements not invoiced, invoices with no paid settlement)',
      () =>
        tx.query(
          `SELECT (SELECT count(*) FROM settlements s WHERE NOT ${SETTLEMENT_INVOICED}),
                (SELECT count(*) FROM provider_invoices i WHERE NOT ${INVOICE_MATCHED})`,
        ),
    );
    await time('the two home counters kept (migration 0046)', () =>
      tx.query('SELECT side, sum(items), sum(amount_cents) FROM provider_side_totals GROUP BY side'),
    );
    await time('home dashboard (with both new counters)', () =>
      readDashboard(tx, new Date(`${month}-20T12:00:00Z`), '00000000-0000-0000-0000-000000000000'),
    );
    throw new RolledBack();
  });
} catch (error) {
  if (!(error instanceof RolledBack)) throw error;
}
console.log(`\nload after: ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`);
await db.close();
