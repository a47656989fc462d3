// A 100,000-line bank statement (quoted CSV, amounts repeating) submitted to a real server process on
// PostgreSQL, as `npm start` runs it, against 100,000 open counterparts (provider payouts and invoices):
// the time from the upload to the job DONE (parsed again, imported and matched in one transaction), and
// the server's peak RSS while it ran (/proc/PID/status, sampled every 10 ms). Issue 12, DESIGN §9:
// "submitted, imported and matched on PostgreSQL ≤ 10 s".
//   npx tsx bench/statement-import.ts [--url postgres://…] [--lines 100000] [--runs 3] [--out bench/results/statement-import.md]
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import type { StatementImportJob } from '../contract/statement-import';
import { parseStatement } from '../domain/statements/detect';
import { readConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { prepareDatabase } from '../server/platform/bootstrap';
import { PostgresFileStorage } from '../server/platform/files/postgres-storage';
import { createSession } from '../server/platform/sessions';
import { MIN_SEED_USERS } from '../server/seed/seed';
import { createPostgresDatabase } from '../tests/support/databases';
import { startArguments, startServerProcess } from '../tests/support/server-process';
import { cpuLoopMs } from './banking-report';

const { values } = parseArgs({
  options: {
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    lines: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
    out: { type: 'string' },
  },
});
const lineCount = Number(values.lines);
const runs = Number(values.runs);
const MiB = 1_048_576;

/** What consultations and payouts cost: twenty amounts, repeated (DESIGN §9 "realistic data"). */
const AMOUNTS = Array.from({ length: 20 }, (_, i) => 2_500 + i * 250);

const rssOf = (pid: number): number =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

const euros = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;
const dayOf = (index: number) => new Date(Date.UTC(2032, 0, 1) + (index % 360) * 86_400_000);
const ptDate = (date: Date) =>
  `${String(date.getUTCDate()).padStart(2, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${date.getUTCFullYear()}`;

/**
 * Run `run`'s statement: every third line a provider payout named by its id in the reference, every
 * third an invoice paid without a reference (amount + date only), the rest fees and unrelated credits.
 * Quoted cells with `;` and accents, as the banks' exports have them.
 */
function statementOf(run: number): { bytes: Buffer; payouts: unknown[][]; invoices: unknown[][] } {
  const rows = [
    'Conta;PT50 0002 0123 1234 5678 9015 4',
    '',
    'Data Movimento;Data Valor;Descrição;Referência;Montante',
  ];
  const payouts: unknown[][] = [[], [], []];
  const invoices: unknown[][] = [[], [], []];
  for (let i = 0; i < lineCount; i++) {
    const date = dayOf(i);
    const cents = AMOUNTS[(i * 7 + run) % AMOUNTS.length]!;
    const day = date.toISOString().slice(0, 10);
    if (i % 3 === 0) {
      const id = `po_${run}_${i}`;
      (payouts[0] as string[]).push(id);
      (payouts[1] as number[]).push(cents);
      (payouts[2] as string[]).push(day);
      rows.push(`${ptDate(date)};${ptDate(date)};"TRF SEPA STRIPE PAYMENTS; ${id}";"${id}";${euros(cents)}`);
    } else if (i % 3 === 1) {
      (invoices[0] as string[]).push(`FT ${run}/${i}`);
      (invoices[1] as number[]).push(cents);
      (invoices[2] as string[]).push(day);
      rows.push(
        `${ptDate(date)};${ptDate(date)};"TRF Clínica São João, Lda; consulta ${run}/${i}";"";-${euros(cents)}`,
      );
    } else rows.push(`${ptDate(date)};${ptDate(date)};"COMISSÃO MANUTENÇÃO ${run}/${i}";"";-${euros(350)}`);
  }
  return { bytes: Buffer.from(`${rows.join('\r\n')}\r\n`, 'utf8'), payouts, invoices };
}

async function main() {
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
    for (let run = 0; run < runs; run++) {
      const { bytes, payouts, invoices } = statementOf(run);
      await db.query(
        `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::date[])`,
        payouts,
      );
      await db.query(
        `INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::date[])`,
        invoices,
      );
      await db.query('VACUUM ANALYZE');
      const { entries } = parseStatement(bytes);
      const query = new URLSearchParams({
        fileName: `extrato-${run}.csv`,
        expectedLines: String(entries.length),
        expectedTotalCents: String(entries.reduce((sum, entry) => sum + entry.amountCents, 0)),
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
      let job: StatementImportJob;
      // stopped however the run ends: left running after a failed run, it reads the stopped server's
      // /proc entry and throws from the timer, hiding the run's own error
      try {
        const response = await fetch(`${server.url}/v2/admin/statements/imports?${query}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
          body: new Uint8Array(bytes),
        });
        if (response.status !== 202)
          throw new Error(`upload answered ${response.status}: ${await response.text()}`);
        accepted = performance.now() - started;
        job = ((await response.json()) as { job: StatementImportJob }).job;
        while (job.status === 'RUNNING') {
          await new Promise((resolve) => setTimeout(resolve, 50));
          job = (await (
            await fetch(`${server.url}/v2/admin/statements/imports/${job.id}`, {
              headers: { authorization: `Bearer ${token}` },
            })
          ).json()) as StatementImportJob;
        }
        total = performance.now() - started;
      } finally {
        clearInterval(sampler);
      }
      if (job.status !== 'DONE') throw new Error(`import ${job.status}: ${job.errorCode}`);
      const r = job.result!;
      const line = `| ${run + 1} | ${entries.length.toLocaleString('en-GB')} | ${(bytes.byteLength / MiB).toFixed(1)} MiB | ${accepted.toFixed(0)} ms | **${(total / 1000).toFixed(2)} s** | ${r.newLines} / ${r.matched} / ${r.suggested} / ${r.unmatched} | ${(before / MiB).toFixed(0)} → ${(peak / MiB).toFixed(0)} MiB (+${((peak - before) / MiB).toFixed(0)}) | ${load} | ${loopMs} ms |`;
      console.log(line);
      results.push(line);
    }
  } finally {
    console.log(server.output().slice(-3000));
    await server.stop();
    await db.close();
    await database.drop();
  }
  const report = `# Statement import on PostgreSQL (issue 12)

Budget (DESIGN §9): a 100,000-line statement submitted, imported and matched on PostgreSQL ≤ 10 s.

Command: \`npx tsx bench/statement-import.ts --lines ${lineCount} --runs ${runs}\`
Server: \`node ${startArguments().join(' ')}\` (as \`npm start\`), NODE_ENV=production, FILES_BACKEND=postgres,
PostgreSQL 15 on the same machine (fsync off). Node ${process.version}; ${cpus().length} cores, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB; the
machine is shared with other sessions' tests and benches, so the load is recorded per run.

Each run: a fresh statement (quoted \`;\` CSV, accents, twenty amounts repeating), and beside it in the
database ${Math.round(lineCount / 3).toLocaleString('en-GB')} provider payouts (named in the lines' references) and
${Math.round(lineCount / 3).toLocaleString('en-GB')} invoices paid by us (amount + date only, debits) added to those of earlier runs; then
VACUUM ANALYZE. Timed from the first byte sent to the job read back DONE (the console polls the same way);
"answered" is when the 202 came back (the bytes received, parsed again and checked against the preview).

| run | lines | size | answered | upload → DONE | new / matched / suggested / unmatched | server RSS before → peak | load (1/5/15 min) | CPU loop (\`cpuLoopMs\`) |
|---|---|---|---|---|---|---|---|---|
${results.join('\n')}
`;
  if (values.out) writeFileSync(values.out, report);
  else console.log(report);
}

await main();
