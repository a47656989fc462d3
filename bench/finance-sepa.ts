// SEPA and settlements at scale on PostgreSQL (issue 11, DESIGN §9):
//   npx tsx bench/finance-sepa.ts [--url postgres://…] [--doctors 10000] [--settlements 1000000] [--runs 30]
//                                 [--db bench_finance_sepa] [--keep] [--reuse] [--default-node]
// `--keep` leaves the database behind; `--reuse` measures on a database a `--keep` run left (the same
// scale) instead of seeding again: it applies any newer migrations, puts the SEPA month back as seeded
// (files deleted, their links' index rebuilt) and vacuums — the full scale takes ~18 min
// to seed.
// Seeds 1,000,000 settlements across 10,000 doctors with SQL (generate_series), starts the API as its
// own process, and measures over HTTP: the settlements list's first page, "cases to process" for a
// month (its first page and a page further down), SEPA "settlements to process" for a month, and generating one SEPA file for every doctor
// (100,000 settlements) end to end — then validates the file with xmllint. Peak server memory is the
// server process's VmHWM.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import { createSession } from '../server/platform/sessions';
import { portugueseIban } from '../server/seed/portugal';
import { Rng } from '../server/seed/random';
import { startApiProcess } from '../tests/support/api-processes';
import { percentile } from './banking-report';

const { values } = parseArgs({
  options: {
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    doctors: { type: 'string', default: '10000' },
    settlements: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '30' },
    db: { type: 'string', default: 'bench_finance_sepa' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
    /** Start the server without `npm start`'s V8 flags: a default Node, for comparison. */
    'default-node': { type: 'boolean', default: false },
  },
});
const DOCTORS = Number(values.doctors);
const SETTLEMENTS = Number(values.settlements);
const RUNS = Number(values.runs);
const MONTHS = 10;
/** The month paid by the SEPA file: SETTLED settlements, a tenth of all. */
const SEPA_MONTH = '2026-04';
/** The month whose cases wait to be settled (READY_TO_SETTLE / AVAILABLE). */
const OPEN_MONTH = '2026-05';
const dbName = values.db;
if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) throw new Error(`--db must be a plain identifier: ${dbName}`);

const admin = new pg.Client({ connectionString: values.url });
await admin.connect();
const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName])).rowCount === 1;
const reusing = values.reuse && exists;
if (!reusing) {
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${dbName}`);
}
await admin.end();
const url = new URL(values.url);
url.pathname = `/${dbName}`;
const db = await openDatabase({ databaseUrl: url.toString() });
const dataDir = mkdtempSync(join(tmpdir(), 'bench-sepa-'));
/**
 * The V8 flags `npm start` runs the server with (e.g. `--max-semi-space-size=4`), read from
 * package.json so the bench measures the server as it is started, not a default Node.
 */
const startFlags = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  }
).scripts.start
  .split(/\s+/)
  .filter((word) => !values['default-node'] && /^--max-[a-z-]+-size=\d+$/.test(word));

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function seed(): Promise<string> {
  const adminId = (
    await db.query<{ id: string }>(
      `INSERT INTO users (role, email, name, admin_data) VALUES ('ADMIN', 'admin@demo.pt', 'admin', '{"permissions":["all"]}') RETURNING id`,
    )
  ).rows[0]!.id;
  const customerId = (
    await db.query<{ id: string }>(
      `INSERT INTO users (role, email, name) VALUES ('CUSTOMER', 'c@demo.pt', 'c') RETURNING id`,
    )
  ).rows[0]!.id;
  const rng = new Rng(2026, 'bench-sepa');
  const ibans = Array.from({ length: DOCTORS }, () => portugueseIban(rng, '0035'));
  await db.query(
    `INSERT INTO users (role, email, name, full_name, tax_number, iban, college_number)
     SELECT 'PROFESSIONAL', 'doctor' || n || '@demo.pt', 'Doctor ' || n, 'Dra. Medica ' || n,
            lpad((200000000 + n)::text, 9, '0'), ibans[n], 'C-' || n
       FROM generate_series(1, $1::int) n, (SELECT $2::text[] AS ibans) i`,
    [DOCTORS, ibans],
  );
  // Consultation prices repeat; every settlement has its own closed paid case.
  await db.query(
    `CREATE TEMP TABLE doctor_ids AS SELECT row_number() OVER (ORDER BY id) AS n, id FROM users WHERE role = 'PROFESSIONAL'`,
  );
  await db.query(
    `INSERT INTO cases (id, customer_id, professional_id, status, type, price_cents, closed_at)
     SELECT overlay(overlay(md5('case' || g) placing '4' from 13) placing '8' from 17)::uuid, $1, d.id, 'CLOSED_BY_PROFESSIONAL', 'SINGLE_CASE',
            (ARRAY[2500, 3500, 4000, 5000, 6000, 8000])[1 + g % 6], now()
       FROM generate_series(0, $2::int - 1) g JOIN doctor_ids d ON d.n = 1 + g % $3::int`,
    [customerId, SETTLEMENTS, DOCTORS],
  );
  // Ten months of a tenth each: 2025-08 … 2026-03 paid, 2026-04 SETTLED (waiting for SEPA), 2026-05 waiting to be settled.
  await db.query(
    `INSERT INTO settlements (professional_id, case_id, reference_month, gross_cents, fee_cents, net_cents, status, available_on, created_at)
     SELECT c.professional_id, c.id, m.month, c.price_cents, round(c.price_cents * 0.16)::int,
            c.price_cents - round(c.price_cents * 0.16)::int,
            CASE WHEN m.month = $2 THEN 'SETTLED'
                 WHEN m.month = $3 THEN (ARRAY['READY_TO_SETTLE', 'AVAILABLE'])[1 + g % 2]
                 ELSE 'PAID' END,
            '2100-01-01'::date, now() - (g || ' seconds')::interval
       FROM generate_series(0, $1::int - 1) g
       JOIN cases c ON c.id = overlay(overlay(md5('case' || g) placing '4' from 13) placing '8' from 17)::uuid
       CROSS JOIN LATERAL (SELECT to_char(date '2025-08-01' + ((g / ($1::int / ${MONTHS})) || ' months')::interval, 'YYYY-MM') AS month) m`,
    [SETTLEMENTS, SEPA_MONTH, OPEN_MONTH],
  );
  // What autovacuum would have done by the time anyone reads: statistics, and the visibility map that
  // lets "cases to process" answer from its index alone.
  await db.query('VACUUM ANALYZE');
  return adminId;
}

/** A kept database back to its seeded state: the SEPA month's files gone, its settlements SETTLED. */
async function resetSeeded(): Promise<string> {
  const { rows } = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM settlements');
  if (Number(rows[0]!.n) !== SETTLEMENTS)
    throw new Error(`--reuse: ${dbName} holds ${rows[0]!.n} settlements, not ${SETTLEMENTS}`);
  await db.query(`DELETE FROM sepa_files WHERE reference_month = $1`, [SEPA_MONTH]);
  await db.query(
    `WITH gone AS (DELETE FROM audit_log WHERE action IN ('settlement.included-in-sepa', 'sepa.generated') RETURNING id)
     DELETE FROM audit_log_entities WHERE audit_id IN (SELECT id FROM gone)`,
  );
  // The claim writes no settlement row (decision 0119): deleting the file put the month back. Its
  // links' index is rebuilt so every run inserts into the index a seeded database has.
  await db.query('REINDEX TABLE sepa_transaction_settlements');
  await db.query('VACUUM ANALYZE');
  // The rebuild writes ~0.5 GB of WAL, the reset's own: without a checkpoint here, the one it calls for
  // started during the generation about every other run and moved it by 2–4 s (docs/decisions/0111).
  await db.query('CHECKPOINT');
  return (await db.query<{ id: string }>(`SELECT id FROM users WHERE email = 'admin@demo.pt'`)).rows[0]!.id;
}

try {
  await migrate(db);
  const seedStart = performance.now();
  const adminId = reusing ? await resetSeeded() : await seed();
  const seedMs = performance.now() - seedStart;
  const { rows: byStatus } = await db.query<{ reference_month: string; status: string; n: string }>(
    `SELECT reference_month, status, count(*) AS n FROM settlements GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  console.error(`${reusing ? 'reused and reset' : 'seeded'} in ${seconds(seedMs)}`);
  const token = await createSession(db, adminId, new Date());
  const server = await startApiProcess({
    DATABASE_URL: url.toString(),
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    NODE_OPTIONS: [process.env.NODE_OPTIONS ?? '', ...startFlags].join(' ').trim(),
  });
  try {
    const headers = { authorization: `Bearer ${token}` };
    const get = async (path: string) => {
      const started = performance.now();
      const response = await fetch(`${server.url}${path}`, { headers });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${body.slice(0, 300)}`);
      return performance.now() - started;
    };
    const p95 = async (path: string) => {
      await get(path); // the first call pays for the connection and plan caches
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await get(path));
      times.sort((a, b) => a - b);
      return { p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1)! };
    };
    console.error(`server at ${server.url}`);
    const list = await p95('/v2/admin/settlement/?limit=50');
    const casesPath = `/v2/admin/settlement/professional?referenceMonth=${OPEN_MONTH}`;
    const casesToProcess = await p95(casesPath);
    const firstCases = (await (await fetch(`${server.url}${casesPath}`, { headers })).json()) as {
      items: unknown[];
      nextCursor: string | null;
      total: number;
      totals: { settlementCount: number };
    };
    // A page further down (the 41st): keyset pages cost the same wherever they start.
    let cursor = firstCases.nextCursor;
    for (let i = 0; i < 39 && cursor; i++)
      cursor = (
        (await (await fetch(`${server.url}${casesPath}&cursor=${cursor}`, { headers })).json()) as {
          nextCursor: string | null;
        }
      ).nextCursor;
    const casesToProcessLaterPage = cursor ? await p95(`${casesPath}&cursor=${cursor}`) : null;
    const sepaToProcess = await p95(`/v2/admin/settlement/sepa/to-process?referenceMonth=${SEPA_MONTH}`);
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');

    const dryStart = performance.now();
    const dry = await fetch(`${server.url}/v2/admin/settlement/sepa/dry-run`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ referenceMonth: SEPA_MONTH }),
    });
    const dryBody = (await dry.json()) as { transferCount: number; settlementCount: number };
    const dryMs = performance.now() - dryStart;
    const genStart = performance.now();
    const generated = await fetch(`${server.url}/v2/admin/settlement/sepa/`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': `bench-${Date.now()}` },
      body: JSON.stringify({ referenceMonth: SEPA_MONTH }),
    });
    const genBody = (await generated.json()) as {
      file: { id: string; transferCount: number; settlementCount: number; amountCents: number };
    };
    const genMs = performance.now() - genStart;
    if (generated.status !== 200) throw new Error(`generate: ${generated.status} ${JSON.stringify(genBody)}`);
    const xml = await fetch(`${server.url}/v2/admin/settlement/sepa/${genBody.file.id}/download/xml`, {
      headers,
    });
    const xmlPath = join(dataDir, 'bench.xml');
    writeFileSync(xmlPath, new Uint8Array(await xml.arrayBuffer()));
    let xmllint = 'valid';
    try {
      execFileSync(
        'xmllint',
        ['--noout', '--schema', '/work/shared/fixtures/banking/xsd/pain.001.001.03.xsd', xmlPath],
        { stdio: 'pipe' },
      );
    } catch (error) {
      xmllint = `INVALID: ${String((error as { stderr?: Buffer }).stderr).slice(0, 300)}`;
    }
    const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1]);
    // What waiting for the bank costs the reads (decision 0119): PENDING_TRANSFER is derived from the
    // file's 100,000 live links, so telling SETTLED from it has to look at them.
    const afterGeneration = {
      listSettled: await p95('/v2/admin/settlement/?limit=50&status=SETTLED'),
      listSettledByMonth: await p95('/v2/admin/settlement/?limit=50&status=SETTLED&sort=referenceMonth'),
      listPendingTransfer: await p95('/v2/admin/settlement/?limit=50&status=PENDING_TRANSFER'),
      listPendingTransferByMonth: await p95(
        '/v2/admin/settlement/?limit=50&status=PENDING_TRANSFER&sort=referenceMonth',
      ),
      sepaToProcessMonth: await p95(`/v2/admin/settlement/sepa/to-process?referenceMonth=${SEPA_MONTH}`),
      report: await p95(`/v2/admin/settlement/reports/?month=${SEPA_MONTH}`),
    };

    const report = {
      doctors: DOCTORS,
      settlements: SETTLEMENTS,
      seed: reusing ? `reused (reset in ${seconds(seedMs)})` : seconds(seedMs),
      settlementsByMonthAndStatus: byStatus.map((r) => `${r.reference_month} ${r.status} ${r.n}`),
      settlementListFirstPage: list,
      casesToProcessMonth: {
        ...casesToProcess,
        pageItems: firstCases.items.length,
        doctorMonths: firstCases.total,
        settlementsInTotals: firstCases.totals.settlementCount,
      },
      casesToProcessLaterPage,
      serverNodeOptions: startFlags.join(' '),
      sepaToProcessMonth: sepaToProcess,
      dryRun: { ms: dryMs, ...dryBody },
      generate: {
        ms: genMs,
        transfers: genBody.file.transferCount,
        settlements: genBody.file.settlementCount,
        amountCents: genBody.file.amountCents,
      },
      xmllint,
      afterGeneration,
      serverPeakRssMb: Math.round(peakKb / 1024),
      loadAverageDuringReads: load,
      loadAverageAtEnd: loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
      node: process.version,
    };
    console.log(JSON.stringify(report, null, 2));
  } finally {
    await server.stop();
  }
} finally {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (!values.keep && !values.reuse) {
    const c = new pg.Client({ connectionString: values.url });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await c.end();
  }
}
