// Export jobs end to end at 1,000,000 users on PostgreSQL: POST admin/users/export → the runner claims
// the job → keyset batches from PostgreSQL (CSV: COPY's output finished on the API thread, decision
// 0090; XLSX: the sheet rows built by PostgreSQL, deflated by zlib, decision 0105) → the file storage. The API
// and the runner live in one process, started with the node flags of `npm start` (its heap settings
// change the RSS), so its RSS is the server's. Meanwhile a client searches users one request at a time
// (p95 while exporting vs. idle).
//   npx tsx bench/exports.ts                 each format RUNS times (default 3), a fresh process each
//                                            run, writes bench/results/exports.md
//   npx tsx bench/exports.ts csv|xlsx        one format in this process, prints a JSON line
//   SEARCH=0 …                               no searches meanwhile: the export's own CPU and speed
// Needs the kept 1,000,000-user database of `npx tsx bench/seed-scale.ts --users 1000000 --keep`
// (bench_seed_1000000; BENCH_DB names another). Migrations are applied first (0019 adds two indexes);
// run `VACUUM ANALYZE users` once after seeding, as autovacuum would (the results say what else was done).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../server/app';
import { readConfig } from '../server/config';
import { type Database, openDatabase } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import { createExportRunner } from '../server/exports/runner';
import { listen } from '../server/http/listen';
import { openFileStorage } from '../server/platform/files/open-storage';
import { createSession } from '../server/platform/sessions';
import { startArguments } from '../tests/support/server-process';
import { mib, percentile, writeResult } from './banking-report';

const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres';
const dbName = process.env.BENCH_DB ?? 'bench_seed_1000000';
const RANGE = { startDate: process.env.EXPORT_FROM ?? '2023-03-01', endDate: '2026-03-15' };
/** SEARCH=0: no searches during the export (the export's own CPU; the p95 columns are then empty). */
const SEARCHING = process.env.SEARCH !== '0';
const SEARCHES = [
  'role=CUSTOMER&limit=50',
  'role=PROFESSIONAL&status=EMAIL_VERIFIED&limit=50',
  'q=mar&limit=20',
];

interface FormatResult {
  format: string;
  /** The load averages (1, 5, 15 min) as `uptime` shows them, before and after the export. */
  loadBefore: number[];
  loadAfter: number[];
  rows: number;
  estimatedTotal: number;
  runMs: number;
  wallMs: number;
  /** CPU of this process (API thread and zlib's threads) during the export, the searches included. */
  cpuMs: number;
  /** CPU of the PostgreSQL backends serving this process (its pool) during the export. */
  pgCpuMs: number;
  bytes: number;
  rssStart: number;
  rssPeak: number;
  rssSeries: number[];
  idleP50: number;
  idleP95: number;
  busyP50: number;
  busyP95: number;
  busyMax: number;
  searches: number;
}

/**
 * CPU milliseconds used so far by each PostgreSQL backend connected to `db`'s database (the server runs
 * on this machine, so its processes are in /proc; utime + stime in clock ticks of 10 ms).
 */
async function backendCpu(db: { query: Database['query'] }): Promise<Map<number, number>> {
  const { rows } = await db.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
  );
  const used = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      used.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // gone meanwhile, or not on this machine
    }
  }
  return used;
}

const cpuSince = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);

async function runFormat(format: 'CSV' | 'XLSX'): Promise<FormatResult> {
  const url = new URL(serverUrl);
  url.pathname = `/${dbName}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'exports-bench-'));
  const db = await openDatabase({ databaseUrl: url.toString(), warmConnections: 4 });
  try {
    await migrate(db);
    // A previous run's jobs would be claimed first.
    await db.query(`UPDATE export_jobs SET status = 'cancelled', runner_id = NULL, lease_expires_at = NULL
                     WHERE status IN ('queued', 'running')`);
    const config = readConfig({ NODE_ENV: 'production', DATA_DIR: dataDir });
    const storage = openFileStorage(config, db);
    const runner = createExportRunner({ db, storage, dataDir, publicUrl: config.publicUrl });
    const server = await listen(createApp({ db, config, storage, exportRunner: runner }), {
      host: '127.0.0.1',
      port: 0,
    });
    const admin = await db.query<{ id: string }>("SELECT id FROM users WHERE email = 'admin@demo.pt'");
    const token = await createSession(db, admin.rows[0]!.id, new Date());
    const headers = { authorization: `Bearer ${token}` };
    const search = async (i: number) => {
      const started = performance.now();
      const response = await fetch(`${server.url}/v2/admin/users?${SEARCHES[i % SEARCHES.length]}`, {
        headers,
      });
      if (response.status !== 200) throw new Error(`search: ${response.status}`);
      await response.arrayBuffer();
      return performance.now() - started;
    };
    // Warm up, then the idle latency of the same searches.
    for (let i = 0; i < 30; i++) await search(i);
    const idle: number[] = [];
    for (let i = 0; i < 90; i++) idle.push(await search(i));
    idle.sort((a, b) => a - b);

    globalThis.gc?.();
    const rssStart = process.memoryUsage().rss;
    let rssPeak = rssStart;
    const series: number[] = [];
    const sampler = setInterval(() => {
      const rss = process.memoryUsage().rss;
      rssPeak = Math.max(rssPeak, rss);
      series.push(rss);
    }, 100);

    const loadBefore = loadavg();
    const pgBefore = await backendCpu(db);
    const wall = performance.now();
    const cpu = process.cpuUsage();
    const started = await fetch(`${server.url}/v2/admin/users/export`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'USERS', dateField: 'CREATED', ...RANGE, format, locale: 'pt-PT' }),
    });
    if (started.status !== 202) throw new Error(`start: ${started.status} ${await started.text()}`);
    const job = (await started.json()) as { id: string; estimatedTotal: number };
    const busy: number[] = [];
    let status = 'queued';
    for (let i = 0; status === 'queued' || status === 'running'; i++) {
      if (SEARCHING) busy.push(await search(i));
      else await new Promise((resolve) => setTimeout(resolve, 20));
      if (i % 5 === 0) {
        const poll = await fetch(`${server.url}/v2/admin/exports/${job.id}`, { headers });
        status = ((await poll.json()) as { status: string }).status;
      }
    }
    const wallMs = performance.now() - wall;
    const used = process.cpuUsage(cpu);
    const pgCpuMs = cpuSince(pgBefore, await backendCpu(db));
    clearInterval(sampler);
    const { rows } = await db.query<{
      rows_written: number;
      size_bytes: number;
      ms: number;
      status: string;
      error_reason: string;
    }>(
      `SELECT rows_written, size_bytes, status, error_reason,
              extract(epoch FROM finished_at - started_at) * 1000 AS ms FROM export_jobs WHERE id = $1`,
      [job.id],
    );
    const done = rows[0]!;
    if (done.status !== 'done') throw new Error(`export ${done.status}: ${done.error_reason}`);
    busy.sort((a, b) => a - b);
    await runner.stop();
    await server.close();
    // Keep ten points of the RSS curve, evenly spaced.
    const step = Math.max(1, Math.floor(series.length / 10));
    return {
      format,
      loadBefore,
      loadAfter: loadavg(),
      rows: done.rows_written,
      estimatedTotal: job.estimatedTotal,
      runMs: Number(done.ms),
      wallMs,
      cpuMs: (used.user + used.system) / 1000,
      pgCpuMs,
      bytes: Number(done.size_bytes),
      rssStart,
      rssPeak,
      rssSeries: series.filter((_, i) => i % step === 0).slice(0, 10),
      idleP50: percentile(idle, 50),
      idleP95: percentile(idle, 95),
      busyP50: percentile(busy, 50),
      busyP95: percentile(busy, 95),
      busyMax: busy.at(-1) ?? Number.NaN,
      searches: busy.length,
    };
  } finally {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const script = fileURLToPath(import.meta.url);

/**
 * One format in a fresh process (its peak RSS is that export's alone), with the node flags `npm start`
 * gives the server (tests/support/server-process.ts reads the same script) and `--expose-gc`, so the
 * RSS baseline is taken after a collection.
 */
function runAsStarted(format: string): FormatResult {
  const startFlags = startArguments().slice(0, -1); // without server/main.ts
  const r = spawnSync(process.execPath, ['--expose-gc', ...startFlags, script, format], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`${format} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as FormatResult;
}
const only = process.argv[2];
if (only) {
  console.log(JSON.stringify(await runFormat(only.toUpperCase() as 'CSV' | 'XLSX')));
} else {
  const runs = Number(process.env.RUNS ?? 3);
  const formats = (process.env.FORMATS ?? 'csv,xlsx').split(',');
  const results = formats.flatMap((f) => Array.from({ length: runs }, () => runAsStarted(f)));
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  const rate = (r: FormatResult, ms = r.runMs) => Math.round(r.rows / (ms / 1000)).toLocaleString('en-GB');
  const lines = results.map(
    (r) =>
      `| ${r.format} | ${load(r.loadBefore)} → ${load(r.loadAfter)} | ${r.rows.toLocaleString('en-GB')} (est. ${r.estimatedTotal.toLocaleString('en-GB')}) | ${(r.runMs / 1000).toFixed(1)} s | ${rate(r)} | ${(r.cpuMs / 1000).toFixed(1)} s | ${rate(r, r.cpuMs)} | ${(r.pgCpuMs / 1000).toFixed(1)} s | ${rate(r, r.cpuMs + r.pgCpuMs)} | ${(r.wallMs / 1000).toFixed(1)} s | ${mib(r.bytes)} | ${mib(r.rssStart)} → ${mib(r.rssPeak)} (+${mib(r.rssPeak - r.rssStart)}) | ${r.rssSeries.map((x) => (x / 2 ** 20).toFixed(0)).join(' / ')} | ${r.idleP50.toFixed(1)} / ${r.idleP95.toFixed(1)} | ${r.busyP50.toFixed(1)} / ${r.busyP95.toFixed(1)} (max ${r.busyMax.toFixed(0)}, n=${r.searches}) |`,
  );
  writeResult(
    'exports',
    `npx tsx bench/exports.ts (RUNS=${runs}; each run: node ${['--expose-gc', ...startArguments().slice(0, -1)].join(' ')} bench/exports.ts FORMAT)`,
    [
      `Database \`${dbName}\` on PostgreSQL (1,000,000 users from \`bench/seed-scale.ts\`), users created ${RANGE.startDate} – ${RANGE.endDate} exported as type USERS (customers and professionals, every field of the specification: ${'33'} columns), pt-PT. The API and the export runner in one process, started with \`npm start\`'s node flags; CSV batches are PostgreSQL's \`COPY (SELECT …) TO STDOUT (FORMAT csv)\`, finished on the API thread by \`CopyCsvReader\` (decision 0090); XLSX batches are \`COPY (SELECT <row> XML …) TO STDOUT (FORMAT binary)\`, deflated by zlib (decision 0105). "PostgreSQL CPU" is the CPU of the backends of this process's pool (from /proc), during the export. "run" is the job's started → finished time as stored; "wall" is from the POST to the client seeing \`done\` (polling). RSS is the whole process (API and runner), sampled every 100 ms. Searches: ${SEARCHES.map((s) => `\`${s}\``).join(', ')} in turn, one at a time, over HTTP.`,
      '',
      '| format | load (uptime) before → after | rows | run | rows/s | server CPU | rows/s of server CPU | PostgreSQL CPU | rows/s of server + PostgreSQL CPU | wall | file | RSS start → peak (growth) | RSS MiB over the run | search p50 / p95 ms idle | search p50 / p95 ms during the export |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      ...lines,
      '',
      'Budgets (DESIGN.md §9): CSV ≥ 100,000 rows/s, XLSX ≥ 30,000 rows/s, server memory growth ≤ 100 MB.',
    ].join('\n'),
  );
}
