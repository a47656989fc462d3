// Statement reconciliation at scale on PostgreSQL (issue 12, DESIGN §9):
//   npx tsx bench/reconcile-accept.ts [--url postgres://…] [--lines 100000] [--accept 10000] [--runs 3]
//                                     [--db bench_reconcile_accept]
// Seeds `--lines` statement lines in ten files with SQL (generate_series) and `--accept` payouts, then
// imports one more statement of `--accept` lines through `POST /v2/admin/statements/imports`, whose
// matcher turns them into SUGGESTED lines. Over HTTP against the API in this process it measures the
// reconciliation table's reads over all the lines (first page, filters, a deep keyset page), then
// accepts the `--accept` suggestions in one `POST …/lines/accept` (budget: 10,000 ≤ 2 s), undoes it
// (`POST …/actions/{id}/undo`) and accepts again, `--runs` times; then ignores the same lines in bulk over
// a filter (decision 0161: `GET …/lines/ignorable`, `POST …/lines/ignore-filter`, its undo), `--runs`
// times (as fast as the accept: 10,000 ≤ 2 s). Peak memory is this process's VmHWM.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { StatementImportJob } from '../contract/statement-import';
import { createApp } from '../server/app';
import { readConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import { listen } from '../server/http/listen';
import { createSession } from '../server/platform/sessions';
import { cpuLoopMs } from './banking-report';

const { values } = parseArgs({
  options: {
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    lines: { type: 'string', default: '100000' },
    accept: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '3' },
    db: { type: 'string', default: 'bench_reconcile_accept' },
    /** Print every statement slower than this many ms (to find where time goes). */
    trace: { type: 'string' },
  },
});
const loopAtStart = cpuLoopMs();
const LINES = Number(values.lines);
const ACCEPT = Number(values.accept);
const RUNS = Number(values.runs);
const dbName = values.db;
if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) throw new Error(`--db must be a plain identifier: ${dbName}`);

const admin = new pg.Client({ connectionString: values.url });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
await admin.query(`CREATE DATABASE ${dbName}`);
const url = new URL(values.url);
url.pathname = `/${dbName}`;
const db = await openDatabase({ databaseUrl: url.toString() });
await migrate(db);
if (values.trace !== undefined) traceSlowQueries(Number(values.trace));

/** Wraps the database's and its transactions' `query` to print statements slower than `limit` ms. */
function traceSlowQueries(limit: number) {
  const wrap = (target: { query: (...args: never[]) => Promise<unknown> }) => {
    const query = target.query.bind(target);
    target.query = (async (...args: never[]) => {
      const t = performance.now();
      const result = await query(...args);
      const took = performance.now() - t;
      if (took > limit)
        process.stderr.write(
          `${Math.round(took)} ms: ${String(args[0]).replace(/\s+/g, ' ').slice(0, 160)}\n`,
        );
      return result;
    }) as typeof target.query;
  };
  wrap(db);
  const transaction = db.transaction.bind(db);
  db.transaction = (async (work: (tx: typeof db) => Promise<unknown>) => {
    const t = performance.now();
    let workDone = 0;
    const result = await transaction(async (tx) => {
      wrap(tx);
      const answer = await work(tx as typeof db);
      workDone = performance.now();
      return answer;
    });
    const end = performance.now();
    if (end - t > limit)
      process.stderr.write(
        `transaction ${Math.round(end - t)} ms (commit ${Math.round(end - workDone)} ms)\n`,
      );
    return result;
  }) as typeof db.transaction;
}

const step = (text: string) => process.stderr.write(`${new Date().toISOString()} ${text}\n`);
const ms = (start: number) => Math.round(performance.now() - start);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const peakKiB = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]);

const adminId = (
  await db.query<{ id: string }>(
    `INSERT INTO users (role, email, name, admin_data) VALUES ('ADMIN', 'admin@demo.pt', 'Admin', '{"permissions":["all"]}') RETURNING id`,
  )
).rows[0]!.id;

/** A statement file; its lines come from `linesSql` (a SELECT of the line columns given `$1` = file id). */
async function statementFile(name: string, linesSql: string, count: number): Promise<string> {
  const { rows: stored } = await db.query<{ id: string }>(
    `INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
     VALUES ($1, 'text/csv', 1, encode(sha256(convert_to($1::text, 'UTF8')), 'hex'), 'x/' || $1::text) RETURNING id`,
    [name],
  );
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO statement_files (file_id, file_name, format, sha256, opening_balance_cents, closing_balance_cents, line_count, uploaded_by)
     VALUES ($1, $2, 'CSV', encode(sha256(convert_to($2::text, 'UTF8')), 'hex'), 0, 0, $3, $4) RETURNING id`,
    [stored[0]!.id, name, count, adminId],
  );
  await db.query(
    `INSERT INTO statement_lines (statement_file_id, line_number, dedup_key, bank_amount_cents, bank_date, value_date,
                                  description, counterparty_name, counterparty_iban, kind, status)
     ${linesSql}`,
    [rows[0]!.id],
  );
  return rows[0]!.id;
}

let start = performance.now();
const perFile = Math.ceil(LINES / 10);
for (let f = 0; f < 10; f++)
  await statementFile(
    `extrato-${f}.csv`,
    `SELECT $1::uuid, g, md5('bg-${f}-' || g), ((g * 7919) % 200000) - 100000, DATE '2025-01-01' + (g % 365),
            DATE '2025-01-01' + (g % 365), 'TRF ' || g, 'Nome ' || (g % 5000), 'PT50' || lpad((g % 100000)::text, 21, '0'),
            (ARRAY['transfer','fee','other'])[1 + g % 3],
            (ARRAY['UNMATCHED','IGNORED','UNMATCHED','DISCREPANCY'])[1 + g % 4]
       FROM generate_series(1, ${perFile}) g`,
    perFile,
  );
await db.query(
  `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date)
   SELECT 'po_bench_' || g, 50000 + g, DATE '2026-02-01' + (g % 28) FROM generate_series(1, ${ACCEPT}) g`,
);
await db.query('ANALYZE');
const seedMs = ms(start);

const token = await createSession(db, adminId, new Date());
const server = await listen(
  createApp({ db, config: readConfig({ NODE_ENV: 'production', DATA_DIR: '/tmp' }) }),
  {
    host: '127.0.0.1',
    port: 0,
  },
);

/**
 * The statement whose lines the matcher suggests, imported as the console does (`POST
 * /v2/admin/statements/imports`, a Portuguese bank's CSV): each line the amount of one payout, a day
 * after it. The import's matcher (`matchInsertedLines`) decides inside the import's transaction.
 */
const payoutsCsv = [
  'Conta;PT50 0002 0123 1234 5678 9015 4',
  '',
  'Data Movimento;Data Valor;Descrição;Beneficiário;Montante',
  ...Array.from({ length: ACCEPT }, (_, i) => {
    const g = i + 1;
    const day = new Date(Date.UTC(2026, 1, 2 + (g % 28)));
    const date = `${String(day.getUTCDate()).padStart(2, '0')}-${String(day.getUTCMonth() + 1).padStart(2, '0')}-2026`;
    const cents = 50000 + g;
    return `${date};${date};"TRF CRED SEPA STRIPE";"Stripe Technology Europe";${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
  }),
  '',
].join('\r\n');
const payoutsTotal = Array.from({ length: ACCEPT }, (_, i) => 50001 + i).reduce((a, b) => a + b, 0);
start = performance.now();
const importQuery = new URLSearchParams({
  fileName: 'extrato-payouts.csv',
  expectedLines: String(ACCEPT),
  expectedTotalCents: String(payoutsTotal),
  accountIban: 'PT50000201231234567890154',
});
const posted = await fetch(`${server.url}/v2/admin/statements/imports?${importQuery}`, {
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
  body: payoutsCsv,
});
if (posted.status !== 202) throw new Error(`statement import: ${posted.status} ${await posted.text()}`);
let job = ((await posted.json()) as { job: StatementImportJob }).job;
while (job.status === 'RUNNING') {
  await new Promise((resolve) => setTimeout(resolve, 100));
  job = (await (
    await fetch(`${server.url}/v2/admin/statements/imports/${job.id}`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).json()) as StatementImportJob;
}
if (job.status !== 'DONE') throw new Error(`statement import ${job.status}: ${job.errorCode}`);
const { statementFileId: fileId, matched: linked, suggested, unmatched } = job.result!;
const matched = { matched: linked, suggested, unmatched };
const matchMs = ms(start);
step(`imported and matched in ${matchMs} ms`);
await db.query('ANALYZE');

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
};

const reads: [string, string][] = [
  ['first page, all lines', '/v2/admin/statements/lines?limit=200'],
  [
    'status=UNMATCHED&status=DISCREPANCY',
    '/v2/admin/statements/lines?status=UNMATCHED&status=DISCREPANCY&limit=200',
  ],
  ['one file, SUGGESTED', `/v2/admin/statements/lines?statementFileId=${fileId}&status=SUGGESTED&limit=200`],
  ['counterparty prefix "nome 12"', '/v2/admin/statements/lines?counterparty=nome%2012&limit=200'],
  ['amount range + kind', '/v2/admin/statements/lines?minCents=-1000&maxCents=1000&kind=fee&limit=200'],
  // Decision 0161: words anywhere in the text (no index), and the lines with no candidate (a probe per line).
  ['text "trf 12"', '/v2/admin/statements/lines?text=trf%2012&limit=200'],
  [
    'text "trf 12", its ignorable count over every page',
    '/v2/admin/statements/lines/ignorable?text=trf%2012',
  ],
  ['no candidate', '/v2/admin/statements/lines?noCandidate=true&limit=200'],
  [
    'no candidate, its ignorable count over every page',
    '/v2/admin/statements/lines/ignorable?noCandidate=true',
  ],
  [
    'date range, newest first',
    '/v2/admin/statements/lines?from=2025-06-01&to=2025-06-30&order=desc&limit=200',
  ],
];
step('reads');
const readResults: string[] = [];
for (const [label, path] of reads) {
  step(label);
  await call('GET', path);
  const times: number[] = [];
  for (let run = 0; run < 5; run++) {
    const t = performance.now();
    await call('GET', path);
    times.push(ms(t));
  }
  readResults.push(`| ${label} | ${median(times)} ms | ${Math.max(...times)} ms |`);
}
// A deep page: the 400th page of 200 through keyset cursors would take 400 calls; one cursor from the middle instead.
const deep: number[] = [];
{
  let cursor: string | null = null;
  for (let page = 0; page < 20; page++) {
    const t = performance.now();
    const body = await call(
      'GET',
      `/v2/admin/statements/lines?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    deep.push(ms(t));
    cursor = body.nextCursor as string | null;
  }
}

const { rows: suggestedRows } = await db.query<{ id: string }>(
  `SELECT id FROM statement_lines WHERE statement_file_id = $1 AND status = 'SUGGESTED' ORDER BY line_number`,
  [fileId],
);
const lineIds = suggestedRows.map((r) => r.id);
step('accepts');
const accepts: number[] = [];
const undos: number[] = [];
const rereads: number[] = [];
let accepted = 0;
for (let run = 0; run < RUNS; run++) {
  const t = performance.now();
  const result = await call(
    'POST',
    '/v2/admin/statements/lines/accept',
    { lineIds },
    { 'idempotency-key': `bench-${run}` },
  );
  accepts.push(ms(t));
  accepted = result.accepted as number;
  // What the console does next (decision 0108): read its first page again.
  const r = performance.now();
  await call('GET', '/v2/admin/statements/lines?limit=200');
  rereads.push(ms(r));
  const u = performance.now();
  await call('POST', `/v2/admin/statements/actions/${(result.action as { id: string }).id}/undo`);
  undos.push(ms(u));
}
step('ignores');
// `Shift+i` over the filter "this file, text STRIPE": its 10,000 open lines counted, ignored, undone.
const ignoreFilter = { statementFileId: fileId, text: 'STRIPE' };
const counts: number[] = [];
const ignores: number[] = [];
const ignoreUndos: number[] = [];
let ignored = 0;
for (let run = 0; run < RUNS; run++) {
  const c = performance.now();
  const totals = await call(
    'GET',
    `/v2/admin/statements/lines/ignorable?${new URLSearchParams(ignoreFilter)}`,
  );
  counts.push(ms(c));
  const t = performance.now();
  const result = await call(
    'POST',
    '/v2/admin/statements/lines/ignore-filter',
    { filter: ignoreFilter, asOf: totals.asOf, note: 'Bench: ignorar em massa' },
    { 'idempotency-key': `bench-ignore-${run}` },
  );
  ignores.push(ms(t));
  ignored = result.ignored as number;
  const u = performance.now();
  await call('POST', `/v2/admin/statements/actions/${(result.action as { id: string }).id}/undo`);
  ignoreUndos.push(ms(u));
}
await server.close();
await db.close();
// The admin connection kept the process alive after the results (it looked like a hang).
await admin.end();

console.log(`# reconcile-accept

Command: \`npx tsx bench/reconcile-accept.ts --lines ${LINES} --accept ${ACCEPT} --runs ${RUNS}\`

Node ${process.version}; CPU loop (\`cpuLoopMs\`) at the start ${loopAtStart} ms, at the end ${cpuLoopMs()} ms; load average at the end ${loadavg()
  .map((l) => l.toFixed(2))
  .join(
    ' / ',
  )}; peak RSS (VmHWM) of the process (API + bench) ${Math.round(peakKiB() / 1024)} MiB. Date: ${new Date().toISOString().slice(0, 10)}.

Seed: ${LINES} background lines in 10 files + ${ACCEPT} payouts in ${(seedMs / 1000).toFixed(1)} s. Importing the ${ACCEPT}-line statement over HTTP, matched by the import (matchInsertedLines, one transaction): ${matchMs} ms → ${JSON.stringify(matched)}.

| read over HTTP (${LINES + ACCEPT} lines) | median of 5 | max |
|---|---|---|
${readResults.join('\n')}
| keyset pages of 1,000, 20 in a row | ${median(deep)} ms | ${Math.max(...deep)} ms |

| bulk accept over HTTP | runs | median | max |
|---|---|---|---|
| \`POST /v2/admin/statements/lines/accept\` ${lineIds.length} suggestions (accepted ${accepted}), answer with counts | ${RUNS} | **${median(accepts)} ms** | ${Math.max(...accepts)} ms |
| then the console's reread of its first page (200 rows) | ${RUNS} | ${median(rereads)} ms | ${Math.max(...rereads)} ms |
| \`POST …/actions/{id}/undo\` of it (answer with a count) | ${RUNS} | ${median(undos)} ms | ${Math.max(...undos)} ms |

| bulk ignore over HTTP (decision 0161) | runs | median | max |
|---|---|---|---|
| \`GET …/lines/ignorable\` the filter's count and sum (file + text) | ${RUNS} | ${median(counts)} ms | ${Math.max(...counts)} ms |
| \`POST …/lines/ignore-filter\` its ${ignored} open lines, answer with counts | ${RUNS} | **${median(ignores)} ms** | ${Math.max(...ignores)} ms |
| \`POST …/actions/{id}/undo\` of it (answer with a count) | ${RUNS} | ${median(ignoreUndos)} ms | ${Math.max(...ignoreUndos)} ms |

Budget (issue 12): bulk accept of 10,000 suggestions ≤ 2 s on PostgreSQL; a bulk ignore of 10,000 lines as fast.`);
