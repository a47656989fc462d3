// 100,000 payout rows (Stripe's itemized report) and 100,000 invoices (a SAF-T month, gzip) imported over
// HTTP into a real server process on PostgreSQL, as `npm start` runs it: the time from the upload to the job
// DONE (read again off the event loop, deduplicated, inserted, linked and audited in one transaction), and
// the server's peak RSS. Issue 31: "100,000 payout rows and 100,000 invoices imported ≤ 10 s each on
// PostgreSQL". Decision 0152.
//   npx tsx bench/sources-import.ts [--url postgres://…] [--rows 100000] [--out bench/results/sources-import.md]
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { gzipSync } from 'fflate';
import type { SourceImportJob, SourceKind } from '../contract/source-import';
import { readSaftFile } from '../domain/sources/saft-pt';
import { sourceEntries } from '../domain/sources/source-ids';
import { readStripePayoutReport } from '../domain/sources/stripe-payouts';
import { readConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { prepareDatabase } from '../server/platform/bootstrap';
import { PostgresFileStorage } from '../server/platform/files/postgres-storage';
import { createSession } from '../server/platform/sessions';
import { type DemoPayment, weeklyPayouts } from '../server/seed/demo-payments';
import { MIN_SEED_USERS } from '../server/seed/seed';
import { writeDemoSaft, writeDemoStripeReport } from '../server/seed/source-files';
import { createPostgresDatabase } from '../tests/support/databases';
import { startArguments, startServerProcess } from '../tests/support/server-process';
import { cpuLoopMs } from './banking-report';

const { values } = parseArgs({
  options: {
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    rows: { type: 'string', default: '100000' },
    out: { type: 'string' },
  },
});
const N = Number(values.rows);
const MONTH = '2031-01';
const MiB = 1_048_576;

const rssOf = (pid: number): number =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** N payments of one month: six prices, one customer in three without a NIF, one in 50 refunded. */
function payments(count: number): DemoPayment[] {
  return Array.from({ length: count }, (_, i) => ({
    reference: `${String(i).padStart(8, '0')}-4e3b-4a7c-9d2e-${String((i * 7919) % 1e12).padStart(12, '0')}`,
    kind: i % 4 === 0 ? 'subscription' : 'case',
    customerId: `u${i % 20_000}`,
    customerName: `Cliente ${i % 20_000}`,
    customerTaxId: i % 3 === 0 ? null : String(200_000_000 + (i % 20_000)),
    grossCents: [1500, 2500, 3500, 4500, 1990, 2990][i % 6]!,
    paidOn: `${MONTH}-${String(1 + (i % 28)).padStart(2, '0')}`,
    paymentIntentId: i % 4 === 0 ? `pi_${String(i).padStart(24, '0')}` : null,
    refunded: i % 50 === 0,
  }));
}

interface Upload {
  kind: SourceKind;
  name: string;
  bytes: Uint8Array;
  rows: number;
  totalCents: number;
}

function uploads(): Upload[] {
  const all = payments(N);
  // Charges and refunds together are N rows: the refunds' rows take the place of as many payments.
  const charged = all.slice(0, Math.round(N / 1.02));
  const payouts = weeklyPayouts(charged, [
    '2031-01-08',
    '2031-01-15',
    '2031-01-22',
    '2031-01-29',
    '2031-02-05',
  ]).map((p, k) => ({ ...p, id: `po_bench${k}` }));
  const stripe = new TextEncoder().encode(writeDemoStripeReport(payouts));
  const stripeRead = readStripePayoutReport(new TextDecoder().decode(stripe));
  if (!stripeRead.ok) throw new Error(JSON.stringify(stripeRead.refusal));
  const stripeEntries = sourceEntries('STRIPE_PAYOUTS', stripeRead.value);
  // N documents: invoices and their credit notes, the cancelled first one aside.
  const invoiced = all.slice(0, Math.round(N / 1.02));
  const xml = new TextEncoder().encode(writeDemoSaft(MONTH, invoiced, '2031-02-01'));
  const saft = gzipSync(xml, { level: 6 });
  const saftRead = readSaftFile(saft, { maxBytes: 1 << 29, maxRatio: 100 });
  if (!saftRead.ok) throw new Error(JSON.stringify(saftRead.refusal));
  const saftEntries = sourceEntries('SAFT_INVOICES', saftRead.value);
  return [
    { kind: 'STRIPE_PAYOUTS', name: 'stripe-itemized.csv', bytes: stripe, ...count(stripeEntries) },
    { kind: 'SAFT_INVOICES', name: 'saft-2031-01.xml.gz', bytes: saft, ...count(saftEntries) },
  ];
}

const count = (entries: { rows: number; totalCents: number }) => ({
  rows: entries.rows,
  totalCents: entries.totalCents,
});

async function main() {
  const files = uploads();
  const database = await createPostgresDatabase(values.url!);
  const db = await openDatabase({ databaseUrl: database.url });
  const env = { DATABASE_URL: database.url, FILES_BACKEND: 'postgres', NODE_ENV: 'production' };
  await prepareDatabase(db, readConfig(env), MIN_SEED_USERS, new PostgresFileStorage(db));
  const { rows: admins } = await db.query<{ id: string }>(
    `SELECT id FROM users WHERE role = 'ADMIN' LIMIT 1`,
  );
  const token = await createSession(db, admins[0]!.id, new Date());
  const server = await startServerProcess(env);
  const results: string[] = [];
  try {
    for (const upload of files) {
      await db.query('VACUUM ANALYZE');
      const query = new URLSearchParams({
        kind: upload.kind,
        fileName: upload.name,
        expectedRows: String(upload.rows),
        expectedTotalCents: String(upload.totalCents),
      });
      const load = loadavg()
        .map((n) => n.toFixed(2))
        .join(' / ');
      const loopMs = cpuLoopMs();
      const before = rssOf(server.pid);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssOf(server.pid));
      }, 10);
      const started = performance.now();
      let accepted: number;
      let total: number;
      let job: SourceImportJob;
      try {
        const response = await fetch(`${server.url}/v2/admin/sources/imports?${query}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
          body: upload.bytes as Uint8Array<ArrayBuffer>,
        });
        if (response.status !== 202)
          throw new Error(`upload answered ${response.status}: ${await response.text()}`);
        accepted = performance.now() - started;
        job = ((await response.json()) as { job: SourceImportJob }).job;
        while (job.status === 'RUNNING') {
          await new Promise((resolve) => setTimeout(resolve, 50));
          job = (await (
            await fetch(`${server.url}/v2/admin/sources/imports/${job.id}`, {
              headers: { authorization: `Bearer ${token}` },
            })
          ).json()) as SourceImportJob;
        }
        total = performance.now() - started;
      } finally {
        clearInterval(sampler);
      }
      if (job.status !== 'DONE') throw new Error(`import ${job.status}: ${job.errorCode}`);
      const r = job.result!;
      const line = `| ${upload.kind} | ${upload.rows.toLocaleString('en-GB')} | ${(upload.bytes.byteLength / MiB).toFixed(1)} MiB | ${accepted.toFixed(0)} ms | **${(total / 1000).toFixed(2)} s** | ${r.newRows} / ${r.payouts ?? r.documents} / ${r.creditNotes ?? '–'} / ${r.linked} | ${(before / MiB).toFixed(0)} → ${(peak / MiB).toFixed(0)} MiB (+${((peak - before) / MiB).toFixed(0)}) | ${load} | ${loopMs} ms |`;
      console.log(line);
      results.push(line);
    }
  } finally {
    console.log(server.output().slice(-3000));
    await server.stop();
    await db.close();
    await database.drop();
  }
  const report = `# Payouts and invoices imports on PostgreSQL (issue 31, decision 0152)

Budget (issue 31): 100,000 payout rows and 100,000 invoices imported ≤ 10 s each on PostgreSQL.

Command: \`npx tsx bench/sources-import.ts --rows ${N}\`
Server: \`node ${startArguments().join(' ')}\` (as \`npm start\`), NODE_ENV=production, FILES_BACKEND=postgres,
PostgreSQL on the same machine. Node ${process.version}; ${cpus().length} cores, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB; the machine is
shared with other sessions, so the load is recorded per run.

The files are the demo's writers (\`server/seed/source-files.ts\`) over ${N.toLocaleString('en-GB')} generated payments of one
month: Stripe's itemized report (weekly payouts, a refund row per fiftieth payment) and the SAF-T month as gzip (a
fatura-recibo per payment, a credit note per refund, one cancelled document). The database is the minimal seed:
the payments name no seeded settlement, so every link rule runs (payment intent, reference, amount + day +
customer) and finds nothing — the cost of writing the links themselves is not in these figures. Timed from the
first byte sent to the job read back DONE; "answered" is when the 202 came back (the bytes read again in the
worker thread, checked against the preview's count and total, the known rows looked up).

| kind | rows | size | answered | upload → DONE | new / payouts or documents / credit notes / linked | server RSS before → peak | load (1/5/15 min) | CPU loop (\`cpuLoopMs\`) |
|---|---|---|---|---|---|---|---|---|
${results.join('\n')}
`;
  if (values.out) writeFileSync(values.out, report);
  else console.log(report);
}

await main();
