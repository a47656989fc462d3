// Issue 31's last budget: "matching a month of 100,000 cases three ways ≤ 2 s" on PostgreSQL (decision 0158).
//   npx tsx bench/three-way-month.ts [--url postgres://…] [--template bench_lists_load] [--month 2025-08]
// A copy of bench/lists-under-load.ts's kept database (1,000,000 users, cases, settlements and statement
// lines; `CREATE DATABASE bench_three_way TEMPLATE …`, made again on every run, dropped at the end) brought
// to this checkout's migrations. Its month's 100,000 paid cases are the month's payments: the provider pays
// them out weekly (the demo's own payout plan, fees taken, one payment in 50 refunded), the invoicing
// program bills all but 100 of them (a credit note per refund), and the bank credits each payout.
// Each file goes through the product's route and job over HTTP (Stripe's itemized report, the SAF-T month
// gzipped, then the bank statement of the payouts' credits), the API in this process, each job's progress
// read every 20 ms, so each phase is timed as the job runs it:
// - payout rows → settlements and invoices → settlements: looked up as the rows are inserted (the
//   "importing" phase, decision 0158), then `linkSourceFile` for what needs the whole file (the "linking"
//   phase: amount + day + customer, credit notes → invoices);
// - bank credit → payout: the statement import's "matching" phase.
// "Matching three ways" is read as the three jobs' linking/matching phases; the whole imports beside it.
// Every link is checked against the generator's truth.
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { gzipSync } from 'fflate';
import pg from 'pg';
import { addDays } from '../domain/business-days';
import { openDatabase } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import type { DemoPayment } from '../server/seed/demo-payments';
import { weeklyPayouts } from '../server/seed/demo-payments';
import { writeDemoSaft, writeDemoStripeReport } from '../server/seed/source-files';
import { insertUser, issueToken, startApi } from '../tests/api/harness';
import { postSource } from '../tests/api/source-support';
import { importPath, previewOf, statementCsv, TEST_ACCOUNT } from '../tests/api/statement-support';

const { values } = parseArgs({
  options: {
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    template: { type: 'string', default: 'bench_lists_load' },
    month: { type: 'string', default: '2025-08' },
    out: { type: 'string', default: 'bench/results/three-way-month.md' },
    /** Leave the copy in place to read the plans after (`DROP DATABASE bench_three_way` then). */
    keep: { type: 'boolean', default: false },
  },
});
const month = values.month;
const COPY = 'bench_three_way';
const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim() !== '';
const loadBefore = uptime();

const admin = new pg.Client({ connectionString: values.url });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${COPY}`);
const started = performance.now();
await admin.query(`CREATE DATABASE ${COPY} TEMPLATE ${values.template}`);
console.log(`copied ${values.template} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
const url = new URL(values.url);
url.pathname = `/${COPY}`;
const db = await openDatabase({ databaseUrl: url.toString() });
await migrate(db);

// The month's payments: each paid case's settlement, paid the day it was created.
const { rows } = await db.query<{
  reference: string;
  customer_id: string;
  name: string;
  tax: string | null;
  gross: number;
  paid_on: string;
}>(
  `SELECT s.case_id::text AS reference, u.id::text AS customer_id, coalesce(u.full_name, u.name) AS name,
          u.tax_number AS tax, s.gross_cents AS gross, to_char(s.created_at, 'YYYY-MM-DD') AS paid_on
     FROM settlements s JOIN cases c ON c.id = s.case_id JOIN users u ON u.id = c.customer_id
    WHERE s.reference_month = $1 ORDER BY s.created_at, s.id`,
  [month],
);
const payments: DemoPayment[] = rows.map((r, i) => ({
  reference: r.reference,
  kind: 'case',
  customerId: r.customer_id,
  customerName: r.name,
  customerTaxId: r.tax,
  grossCents: Number(r.gross),
  paidOn: r.paid_on,
  paymentIntentId: null,
  refunded: i % 50 === 7,
}));
const payoutDays: string[] = [];
for (let day = `${month}-04`; day <= addDays(`${month}-28`, 10); day = addDays(day, 7)) payoutDays.push(day);
const payouts = weeklyPayouts(payments, payoutDays).map((p, k) => ({
  ...p,
  id: `po_threeway${month.replace('-', '')}${k}`,
}));
const uninvoiced = new Set(
  payments
    .filter((p) => !p.refunded)
    .slice(0, 100)
    .map((p) => p.reference),
);
const lastDay = addDays(`${month.slice(0, 4)}-${String(Number(month.slice(5)) + 1).padStart(2, '0')}-01`, -1);
const saft = gzipSync(
  new TextEncoder().encode(
    writeDemoSaft(
      month,
      payments.filter((p) => !uninvoiced.has(p.reference)),
      lastDay,
    ),
  ),
  { level: 6 },
);
const stripe = new TextEncoder().encode(writeDemoStripeReport(payouts));
const statement = statementCsv(
  payouts.map((p) => ({
    date: addDays(p.date, 1).split('-').reverse().join('-'),
    description: `TRF CRED SEPA STRIPE ${p.id}`,
    cents: p.netCents,
    counterparty: 'Stripe Technology Europe Ltd',
  })),
);
console.log(`${payments.length} payments, ${payouts.length} payouts, ${uninvoiced.size} left uninvoiced`);

const api = await startApi(db);
const token = await issueToken(
  db,
  await insertUser(db, { email: 'three-way-bench@example.pt', admin: true }),
);
const sourceApi = { db, api, token, close: async () => undefined };
type Phases = Record<string, number>;
/** A job followed to its end: each phase's duration (ms, 20 ms resolution), the whole, its last state. */
async function followJob(jobUrl: string, startedAt: number) {
  const phases: Phases = {};
  let phase = '';
  let since = startedAt;
  for (;;) {
    const response = await fetch(jobUrl, { headers: { authorization: `Bearer ${token}` } });
    const job = (await response.json()) as {
      status: string;
      phase: string;
      result: { sourceFileId?: string } | null;
      errorCode: string | null;
    };
    const now = performance.now();
    if (job.phase !== phase) {
      if (phase) phases[phase] = (phases[phase] ?? 0) + (now - since);
      phase = job.phase;
      since = now;
    }
    if (job.status !== 'RUNNING' && job.status !== 'QUEUED') return { phases, wholeMs: now - startedAt, job };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
async function importSourceFile(
  bytes: Uint8Array,
  kind: 'STRIPE_PAYOUTS' | 'SAFT_INVOICES',
  fileName: string,
) {
  const at = performance.now();
  const response = await postSource(sourceApi, bytes, { kind, fileName });
  const body = (await response.json()) as { job?: { id: string } };
  if (response.status !== 202) throw new Error(`${fileName}: ${response.status} ${JSON.stringify(body)}`);
  const answeredMs = performance.now() - at;
  const followed = await followJob(`${api.url}/v2/admin/sources/imports/${body.job!.id}`, at);
  if (followed.job.status !== 'DONE') throw new Error(`${fileName}: ${followed.job.errorCode}`);
  return { ...followed, answeredMs };
}
const stripeImport = await importSourceFile(stripe, 'STRIPE_PAYOUTS', `stripe-${month}.csv`);
const saftImport = await importSourceFile(saft, 'SAFT_INVOICES', `saft-${month}.xml.gz`);
const bankAt = performance.now();
const posted = await fetch(
  `${api.url}${importPath(`extrato-${month}.csv`, previewOf(statement), { accountIban: TEST_ACCOUNT })}`,
  {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    body: statement,
  },
);
const postedBody = (await posted.json()) as { job?: { id: string } };
if (posted.status !== 202) throw new Error(`statement: ${posted.status} ${JSON.stringify(postedBody)}`);
const bankImport = await followJob(`${api.url}/v2/admin/statements/imports/${postedBody.job!.id}`, bankAt);
if (bankImport.job.status !== 'DONE') throw new Error(`statement: ${bankImport.job.errorCode}`);
const stripeFile = stripeImport.job.result!.sourceFileId!;
const saftFile = saftImport.job.result!.sourceFileId!;

// The links the imports made, against the truth: a row or an invoice names its case, a credit note its invoice.
const truth = await db.query<{
  rows_right: string;
  rows_wrong: string;
  rows_total: string;
  inv_right: string;
  inv_wrong: string;
  inv_total: string;
  notes_right: string;
  notes_total: string;
  credits_matched: string;
  credits: string;
}>(
  `SELECT
     (SELECT count(*) FROM provider_payout_rows r JOIN settlements s ON s.id = r.settlement_id WHERE r.source_file_id = $1 AND s.case_id = r.case_reference) AS rows_right,
     (SELECT count(*) FROM provider_payout_rows r JOIN settlements s ON s.id = r.settlement_id WHERE r.source_file_id = $1 AND s.case_id IS DISTINCT FROM r.case_reference) AS rows_wrong,
     (SELECT count(*) FROM provider_payout_rows r WHERE r.source_file_id = $1) AS rows_total,
     (SELECT count(*) FROM provider_invoices i JOIN settlements s ON s.id = i.settlement_id WHERE i.source_file_id = $2 AND s.case_id = i.case_reference) AS inv_right,
     (SELECT count(*) FROM provider_invoices i JOIN settlements s ON s.id = i.settlement_id WHERE i.source_file_id = $2 AND s.case_id IS DISTINCT FROM i.case_reference) AS inv_wrong,
     (SELECT count(*) FROM provider_invoices i WHERE i.source_file_id = $2 AND i.credits_invoice_no IS NULL) AS inv_total,
     (SELECT count(*) FROM provider_invoices n JOIN provider_invoices i ON i.id = n.credited_invoice_id WHERE n.source_file_id = $2 AND i.invoice_no = n.credits_invoice_no) AS notes_right,
     (SELECT count(*) FROM provider_invoices n WHERE n.source_file_id = $2 AND n.credits_invoice_no IS NOT NULL) AS notes_total,
     (SELECT count(*) FROM statement_lines l JOIN statement_line_matches m ON m.statement_line_id = l.id AND m.state = 'MATCHED'
        JOIN provider_payouts p ON p.id = m.payout_id WHERE l.description = 'TRF CRED SEPA STRIPE ' || p.provider_payout_id) AS credits_matched,
     (SELECT count(*) FROM statement_lines l WHERE l.description LIKE 'TRF CRED SEPA STRIPE po_threeway%') AS credits`,
  [stripeFile, saftFile],
);
const t = truth.rows[0]!;
const rss = process.resourceUsage().maxRSS / 1024;
await api.stop();
await db.close();
if (!values.keep) await admin.query(`DROP DATABASE IF EXISTS ${COPY}`);
await admin.end();
const loadAfter = uptime();

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const phase = (run: { phases: Phases }, name: string) => run.phases[name] ?? 0;
const matchingMs =
  phase(stripeImport, 'linking') + phase(saftImport, 'linking') + phase(bankImport, 'matching');
const report = `
## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — ${commit}${dirty ? ' + uncommitted changes' : ''}

Command: \`npx tsx bench/three-way-month.ts --template ${values.template} --month ${month}\` · load before \`${loadBefore}\`, after \`${loadAfter}\` · bench process peak RSS ${rss.toFixed(0)} MiB (API in process)

Month ${month}: ${payments.length.toLocaleString('en')} paid cases, ${payouts.length} weekly payouts (${t.rows_total} rows), ${t.inv_total} invoices and ${t.notes_total} credit notes (${uninvoiced.size} payments not invoiced), ${t.credits} bank credits.

| job | answered (202) | waiting (read again, checked) | importing (insert, links by id) | linking / matching | upload → DONE | linked right / of | wrong |
|---|---:|---:|---:|---:|---:|---|---:|
| Stripe report → payouts, rows → settlements | ${s(stripeImport.answeredMs)} | ${s(phase(stripeImport, 'waiting'))} | ${s(phase(stripeImport, 'importing'))} | ${s(phase(stripeImport, 'linking'))} | ${s(stripeImport.wholeMs)} | ${t.rows_right} / ${t.rows_total} | ${t.rows_wrong} |
| SAF-T → invoices → settlements, credit notes → invoices | ${s(saftImport.answeredMs)} | ${s(phase(saftImport, 'waiting'))} | ${s(phase(saftImport, 'importing'))} | ${s(phase(saftImport, 'linking'))} | ${s(saftImport.wholeMs)} | ${t.inv_right} / ${t.inv_total}; notes ${t.notes_right} / ${t.notes_total} | ${t.inv_wrong} |
| bank statement → credits → payouts | – | ${s(phase(bankImport, 'waiting'))} | ${s(phase(bankImport, 'importing'))} | ${s(phase(bankImport, 'matching'))} | ${s(bankImport.wholeMs)} | ${t.credits_matched} / ${t.credits} | – |

Linking and matching phases together: **${s(matchingMs)}** (budget ≤ 2 s for a month's three-way matching). The links by id
are looked up inside the "importing" phase's inserts (decision 0158), so part of their cost is in that column.
`;
console.log(report);
appendFileSync(values.out, report);
