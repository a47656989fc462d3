// The reconciliation table's "payout without invoice" filter (decision 0156) at 1,000,000 statement lines:
// its first page, as the console asks it (`GET /v2/admin/statements/lines?payoutWithoutInvoice=true&limit=50`),
// read through the product's `listLines` with the route's own query schema. Decision 0158.
//   npx tsx bench/payout-without-invoice-1m.ts [--url postgres://…] [--template bench_lists_load] [--iterations 30]
// The kept database of bench/lists-under-load.ts holds no payouts or invoices and no MATCHED line, so it is
// copied (CREATE DATABASE … TEMPLATE, never written itself) and the copy given what an installation would
// have: two payouts a day over the lines' year, each MATCHED to one credit line, 100 charges per payout
// linked to settlements and an invoice for every such settlement but one in 500; and every other credit
// line MATCHED to a payout whose charges are all invoiced (a reconciled bank the filter must walk past). The copy is dropped at the end.
// The copy is brought to the branch's migrations first (the kept one may be older): the payouts then keep
// their settlements without invoice (migration 0056, decision 0167) through the seed's own inserts.
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { statementLineListQuerySchema } from '../contract/reconciliation';
import { openDatabase } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import { listLines } from '../server/statements/lines';
import { cpuLoopMs, percentile } from './banking-report';
import { copyOfKeptDatabase } from './kept-database';

const { values } = parseArgs({
  options: {
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    template: { type: 'string', default: 'bench_lists_load' },
    iterations: { type: 'string', default: '30' },
    out: { type: 'string' },
    /** Keep the copy (for EXPLAIN); drop it by hand. */
    keep: { type: 'boolean', default: false },
  },
});
const PAYOUTS = 720;
const CHARGES_PER_PAYOUT = 100;

const SEED = [
  `INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
   VALUES ('stripe.csv', 'text/csv', 1, md5('pwi') || md5('pwi2'), 'bench/pwi-stripe')`,
  `INSERT INTO source_files (kind, file_id, file_name, sha256, row_count, new_rows, duplicates_skipped, total_cents,
       control_totals_checked, summary, imported_at)
   SELECT 'STRIPE_PAYOUTS', id, 'stripe.csv', md5('pwif') || md5('pwif2'), 0, 0, 0, 0, true, '{}', now()
     FROM stored_files WHERE storage_key = 'bench/pwi-stripe'`,
  // one credit line per payout, the line's amount the payout's
  `CREATE TABLE bench_payout_lines AS
   SELECT row_number() OVER (ORDER BY bank_date, id) AS n, id AS line_id, bank_amount_cents, bank_date
     FROM (SELECT id, bank_amount_cents, bank_date, row_number() OVER (ORDER BY id) AS k
             FROM statement_lines WHERE status = 'UNMATCHED' AND bank_amount_cents > 0) l
    WHERE k % ${Math.floor(666_666 / 2 / PAYOUTS)} = 0
    LIMIT ${PAYOUTS}`,
  `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date, source, source_file_id)
   SELECT 'po_pwi' || n, bank_amount_cents, bank_date - 1, 'STRIPE_PAYOUTS', (SELECT id FROM source_files LIMIT 1)
     FROM bench_payout_lines`,
  `INSERT INTO provider_payout_rows (source_id, source_file_id, payout_id, category, row_kind, gross_cents, fee_cents,
       net_cents, settlement_id, link_method)
   SELECT 'po_pwi/txn_' || s.k, (SELECT id FROM source_files LIMIT 1), p.id, 'charge', 'charge', s.gross_cents, 25,
          s.gross_cents - 25, s.id, 'REFERENCE'
     FROM (SELECT id, gross_cents, row_number() OVER (ORDER BY id) AS k FROM settlements) s
     JOIN provider_payouts p ON p.provider_payout_id = 'po_pwi' || (1 + s.k % ${PAYOUTS})
    WHERE s.k <= ${PAYOUTS * CHARGES_PER_PAYOUT}`,
  `INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date, document_type, invoice_no,
       gross_cents, settlement_id, link_method, source_file_id)
   SELECT 'FR PWI/' || r.k, r.gross_cents, date '2025-06-01', 'FR', 'FR PWI/' || r.k, r.gross_cents, r.settlement_id,
          'REFERENCE', NULL
     FROM (SELECT settlement_id, gross_cents, row_number() OVER (ORDER BY source_id) AS k
             FROM provider_payout_rows WHERE source_id LIKE 'po_pwi/%') r
    WHERE r.k % 500 <> 0`,
  // every other credit line MATCHED too, to a payout whose charges are all invoiced: the filter probes each
  `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date, source, source_file_id)
   VALUES ('po_pwi_invoiced', 1000000000000, date '2025-01-01', 'STRIPE_PAYOUTS', (SELECT id FROM source_files LIMIT 1))`,
  `INSERT INTO provider_payout_rows (source_id, source_file_id, payout_id, category, row_kind, gross_cents, fee_cents,
       net_cents, settlement_id, link_method)
   SELECT 'po_pwi_invoiced/' || r.source_id, r.source_file_id, (SELECT id FROM provider_payouts WHERE provider_payout_id = 'po_pwi_invoiced'),
          'charge', 'charge', r.gross_cents, r.fee_cents, r.net_cents, r.settlement_id, 'REFERENCE'
     FROM provider_payout_rows r
    WHERE EXISTS (SELECT 1 FROM provider_invoices i WHERE i.settlement_id = r.settlement_id)
    ORDER BY r.source_id LIMIT 3`,
  `INSERT INTO statement_line_matches (statement_line_id, kind, role, state, allocated_cents, payout_id)
   SELECT l.id, 'PAYOUT', 'PAYMENT', 'MATCHED', l.bank_amount_cents,
          coalesce(p.id, (SELECT id FROM provider_payouts WHERE provider_payout_id = 'po_pwi_invoiced'))
     FROM statement_lines l
     LEFT JOIN bench_payout_lines b ON b.line_id = l.id
     LEFT JOIN provider_payouts p ON p.provider_payout_id = 'po_pwi' || b.n
    WHERE l.status = 'UNMATCHED' AND l.bank_amount_cents > 0`,
  `UPDATE statement_lines SET status = 'MATCHED', match_method = 'REFERENCE'
    WHERE status = 'UNMATCHED' AND bank_amount_cents > 0`,
  'DROP TABLE bench_payout_lines',
];

async function main() {
  const uptime = execFileSync('uptime', { encoding: 'utf8' }).trim();
  const copy = await copyOfKeptDatabase(values.url!, values.template!, 'pwi');
  const db = await openDatabase({ databaseUrl: copy.url });
  const rows: string[] = [];
  try {
    const migrated = await migrate(db);
    await db.transaction(async (tx) => {
      for (const sql of SEED) await tx.query(sql);
    });
    await db.query('VACUUM ANALYZE');
    const facts = await db.query<{ lines: string; matched: string; without: string }>(
      `SELECT (SELECT count(*) FROM statement_lines)::text AS lines,
              (SELECT count(*) FROM statement_lines WHERE status = 'MATCHED')::text AS matched,
              (SELECT count(DISTINCT m.statement_line_id) FROM statement_line_matches m
                 JOIN provider_payout_rows r ON r.payout_id = m.payout_id
                WHERE m.state = 'MATCHED' AND r.settlement_id IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM provider_invoices i WHERE i.settlement_id = r.settlement_id))::text AS without`,
    );
    const loopMs = cpuLoopMs();
    for (const order of ['asc', 'desc']) {
      const query = statementLineListQuerySchema.parse({ payoutWithoutInvoice: 'true', limit: '50', order });
      const first = performance.now();
      const page = await listLines(db, query);
      const firstMs = performance.now() - first;
      const ms: number[] = [];
      for (let i = 0; i < Number(values.iterations); i++) {
        const started = performance.now();
        await listLines(db, query);
        ms.push(performance.now() - started);
      }
      ms.sort((a, b) => a - b);
      const f = (n: number) => n.toFixed(1);
      rows.push(
        `| first page, ${order} | ${page.items.length} of ${page.total} | ${f(firstMs)} | ${f(percentile(ms, 50))} | **${f(percentile(ms, 95))}** | ${f(ms.at(-1)!)} |`,
      );
    }
    const f0 = facts.rows[0]!;
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const section = `
## Payout without invoice at 1M lines · ${new Date().toISOString().slice(0, 16)}Z · commit ${commit}

Command: \`npx tsx bench/payout-without-invoice-1m.ts --iterations ${values.iterations}\` · load: \`${uptime}\` · CPU loop ${loopMs} ms
Copy of \`${values.template}\` (migrations applied to the copy: ${migrated.join(', ') || 'none'}): ${Number(f0.lines).toLocaleString('en-GB')} lines, ${Number(f0.matched).toLocaleString('en-GB')} MATCHED, ${PAYOUTS} payouts of ${CHARGES_PER_PAYOUT} charges, ${f0.without} lines whose payout has a settlement with no invoice. Quiet (one client); budget: first page ≤ 50 ms p95 (DESIGN §9).

| read | rows / total | first (cold) ms | p50 ms | p95 ms | max ms |
|---|---|---|---|---|---|
${rows.join('\n')}
`;
    console.log(section);
    if (values.out) appendFileSync(values.out, section);
  } finally {
    await db.close();
    if (values.keep) console.error(`kept: ${copy.name}`);
    else await copy.drop();
  }
}

await main();
