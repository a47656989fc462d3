// A month's 100,000 payout rows (Stripe's itemized report) and 100,000 invoices (its SAF-T, gzip) imported over
// HTTP into a real server process on PostgreSQL, as `npm start` runs it: the time from the upload to the job
// DONE (read again off the event loop, deduplicated, inserted, linked and audited in one transaction), and
// the server's peak RSS. Issue 31: "100,000 payout rows and 100,000 invoices imported ≤ 10 s each on
// PostgreSQL". Decisions 0152, 0162. The month is `month-of-cases.ts`'s, its cases and settlements seeded
// first: every payout row and every invoice bills a settlement, as in a real month.
//   npx tsx bench/sources-import.ts [--url postgres://…] [--cases 100000] [--out bench/results/sources-import.md]
import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
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
import { MIN_SEED_USERS } from '../server/seed/seed';
import { createPostgresDatabase } from '../tests/support/databases';
import { startArguments, startServerProcess } from '../tests/support/server-process';
import { cpuLoopMs } from './banking-report';
import { type CaseMonth, generateMonth, seedMonth } from './month-of-cases';

const { values } = parseArgs({
  options: {
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    cases: { type: 'string', default: '100000' },
    out: { type: 'string' },
  },
});
const N = Number(values.cases);
const MiB = 1_048_576;

const rssOf = (pid: number): number =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

interface Upload {
  kind: SourceKind;
  name: string;
  bytes: Uint8Array;
  rows: number;
  totalCents: number;
}

/** The month's two files as the console uploads them, with the preview's count and total of each. */
function uploads(month: CaseMonth): Upload[] {
  const stripeRead = readStripePayoutReport(new TextDecoder().decode(month.stripe));
  if (!stripeRead.ok) throw new Error(JSON.stringify(stripeRead.refusal));
  const stripeEntries = sourceEntries('STRIPE_PAYOUTS', stripeRead.value);
  const saft = gzipSync(month.saft, { level: 6 });
  const saftRead = readSaftFile(saft, { maxBytes: 1 << 29, maxRatio: 100 });
  if (!saftRead.ok) throw new Error(JSON.stringify(saftRead.refusal));
  const saftEntries = sourceEntries('SAFT_INVOICES', saftRead.value);
  return [
    { kind: 'STRIPE_PAYOUTS', name: 'stripe-itemized.csv', bytes: month.stripe, ...count(stripeEntries) },
    { kind: 'SAFT_INVOICES', name: 'saft-2031-01.xml.gz', bytes: saft, ...count(saftEntries) },
  ];
}

const count = (entries: { rows: number; totalCents: number }) => ({
  rows: entries.rows,
  totalCents: entries.totalCents,
});

async function main() {
  const month = generateMonth(N);
  const files = uploads(month);
  const database = await createPostgresDatabase(values.url!);
  const db = await openDatabase({ databaseUrl: database.url });
  const env = { DATABASE_URL: database.url, FILES_BACKEND: 'postgres', NODE_ENV: 'production' };
  await prepareDatabase(db, readConfig(env), MIN_SEED_USERS, new PostgresFileStorage(db));
  await db.transaction((tx) => seedMonth(tx, month));
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
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const section = `
## ${new Date().toISOString().slice(0, 16)}Z · commit ${commit} · a month whose rows bill settlements

Command: \`npx tsx bench/sources-import.ts --cases ${N}\`. Server: \`node ${startArguments().join(' ')}\` (as \`npm start\`),
NODE_ENV=production, FILES_BACKEND=postgres, PostgreSQL on the same machine. Node ${process.version}; ${cpus().length} cores,
${(totalmem() / 1024 ** 3).toFixed(0)} GiB; the machine is shared with other sessions, so the load is recorded per file.

The month of \`bench/month-of-cases.ts\` (the three-way bench's): ${N.toLocaleString('en-GB')} paid cases and their settlements
seeded first, Stripe's itemized report of its ${month.payouts.length} payouts and its SAF-T month as gzip (one payment in 250
never invoiced, a credit note per refund, a cancelled document) — every payout row and invoice bills a
settlement (its payment intent or reference found at insert, the kept totals' trigger of migrations
0046/0047/0050 locking and counting the settlements billed). Timed from the first byte sent to the job read
back DONE; "answered" is when the 202 came back (the bytes read again in the worker thread, checked against the
preview's count and total, the known rows looked up).

| kind | rows | size | answered | upload → DONE | new / payouts or documents / credit notes / linked | server RSS before → peak | load (1/5/15 min) | CPU loop (\`cpuLoopMs\`) |
|---|---|---|---|---|---|---|---|---|
${results.join('\n')}
`;
  console.log(section);
  if (values.out) appendFileSync(values.out, section);
}

await main();
