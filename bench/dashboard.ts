// Home dashboard latency (`GET /v2/admin/dashboard`) over HTTP with a warm server.
//   npx tsx bench/dashboard.ts --target postgres --users 1000000 --cases 1000000 [--keep] [--reuse] [--prepare-only]
//   npx tsx bench/dashboard.ts --target pglite --users 100000 --cases 100000
// The demo seed gives a million users only ~22,000 cases (bench/results/seed-scale.md), so the bench adds
// cases in SQL until there are `--cases` of them, spread over two years, with a settlement for each case
// that was paid and closed: the dashboard's heaviest reads are over cases and settlements.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createApp } from '../server/app';
import { readConfig } from '../server/config';
import { type Database, openDatabase } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import { listen } from '../server/http/listen';
import { LocalFileStorage } from '../server/platform/files/local-storage';
import { createSession } from '../server/platform/sessions';
import { hasSeedData, seedDatabase } from '../server/seed/seed';
import { percentile } from './banking-report';

const { values } = parseArgs({
  options: {
    target: { type: 'string', default: 'postgres' },
    users: { type: 'string', default: '1000000' },
    cases: { type: 'string', default: '1000000' },
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    iterations: { type: 'string', default: '100' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
    'prepare-only': { type: 'boolean', default: false },
  },
});
const users = Number(values.users);
const targetCases = Number(values.cases);
const iterations = Number(values.iterations);
const dataDir = mkdtempSync(join(tmpdir(), 'dashboard-bench-'));
const dbName = `bench_dashboard_${users}`;
const SEED_NOW = new Date('2026-03-15T00:00:00Z');

async function open(): Promise<{ db: Database; cleanup: () => Promise<void> }> {
  if (values.target === 'pglite') return { db: await openDatabase({ dataDir }), cleanup: async () => {} };
  const url = new URL(values.url);
  url.pathname = `/${dbName}`;
  const admin = new pg.Client({ connectionString: values.url });
  await admin.connect();
  if (!values.reuse) {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${dbName}`);
  }
  await admin.end();
  const db = await openDatabase({ databaseUrl: url.toString() });
  return {
    db,
    cleanup: async () => {
      if (values.keep || values.reuse) return console.log(`kept database ${url}`);
      const c = new pg.Client({ connectionString: values.url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * Cases up to `target`, in batches: created uniformly over the two years before the seed's today, a status
 * by weight (older cases closed, the last weeks' still open), price from the product's range; a
 * settlement for each paid closed case with the fee rule (DESIGN §6; half-up here, the bench only needs
 * the volume), PAID for reference months before the last, to process for the last.
 */
async function addCases(db: Database, target: number): Promise<void> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM cases');
  let missing = target - rows[0]!.n;
  if (missing <= 0) return;
  const started = performance.now();
  await db.query(`CREATE TEMP TABLE bench_customers AS
    SELECT row_number() OVER () AS n, id FROM users WHERE role = 'CUSTOMER'`);
  await db.query(`CREATE TEMP TABLE bench_professionals AS
    SELECT row_number() OVER () AS n, id FROM users WHERE role = 'PROFESSIONAL' AND status = 'PROFESSIONAL_VERIFIED'`);
  const counts = await db.query<{ c: number; p: number }>(
    'SELECT (SELECT count(*)::int FROM bench_customers) AS c, (SELECT count(*)::int FROM bench_professionals) AS p',
  );
  const { c, p } = counts.rows[0]!;
  const batch = 100_000;
  while (missing > 0) {
    const size = Math.min(batch, missing);
    await db.query(
      `WITH raw AS (
         SELECT g, $1::timestamptz - (random() * interval '730 days') AS created_at, random() AS r,
                (1 + floor(random() * $2))::int AS cn, (1 + floor(random() * $3))::int AS pn,
                (ARRAY[0, 500, 1000, 1500, 1500, 1500, 2000, 2500, 3000])[1 + floor(random() * 9)::int] AS price
           FROM generate_series(1, $4) g
       ), shaped AS (
         SELECT raw.*, CASE
             WHEN created_at > $1::timestamptz - interval '14 days' AND r < 0.5
               THEN (ARRAY['CREATED', 'ACCEPTED', 'WAITING_PAYMENT', 'PAID'])[1 + floor(r * 8)::int]
             WHEN price = 0 THEN 'FREE'
             WHEN r < 0.70 THEN 'CLOSED_BY_PROFESSIONAL'
             WHEN r < 0.78 THEN 'CLOSED_LIFETIME'
             WHEN r < 0.84 THEN 'CLOSED_EXPIRED'
             WHEN r < 0.90 THEN 'CLOSED_NOT_PAID'
             WHEN r < 0.94 THEN 'CLOSED_REJECTED'
             WHEN r < 0.97 THEN 'CLOSED_NOT_ANSWERED'
             ELSE 'CLOSED_BY_ADMIN' END AS status
           FROM raw
       ), inserted AS (
         INSERT INTO cases (customer_id, professional_id, status, type, start_date, end_date, closed_at,
                            price_cents, created_at, updated_at)
         SELECT cu.id, pr.id, s.status, 'SINGLE_CASE', s.created_at,
                CASE WHEN s.status LIKE 'CLOSED\\_%' THEN s.created_at + interval '2 days' END,
                CASE WHEN s.status LIKE 'CLOSED\\_%' THEN s.created_at + interval '2 days' END,
                s.price, s.created_at, s.created_at
           FROM shaped s
           JOIN bench_customers cu ON cu.n = s.cn
           JOIN bench_professionals pr ON pr.n = s.pn
         RETURNING id, professional_id, status, price_cents, closed_at
       )
       INSERT INTO settlements (professional_id, case_id, reference_month, gross_cents, fee_cents, net_cents,
                                payment_date, available_on, status, created_at, updated_at)
       SELECT i.professional_id, i.id, to_char(i.closed_at AT TIME ZONE 'Europe/Lisbon', 'YYYY-MM'),
              i.price_cents, f.fee, i.price_cents - f.fee, i.closed_at::date, (i.closed_at + interval '7 days')::date,
              CASE WHEN i.closed_at < date_trunc('month', $1::timestamptz) THEN 'PAID'
                   ELSE (ARRAY['READY_TO_SETTLE', 'AVAILABLE', 'SETTLED'])[1 + floor(random() * 3)::int] END,
              i.closed_at, i.closed_at
         FROM inserted i
         CROSS JOIN LATERAL (SELECT CASE WHEN i.price_cents < 1600 THEN 250
                                         ELSE round(i.price_cents * 0.16)::int END AS fee) f
        WHERE i.status IN ('CLOSED_BY_PROFESSIONAL', 'CLOSED_LIFETIME', 'CLOSED_EXPIRED') AND i.price_cents > 0`,
      [SEED_NOW, c, p, size],
    );
    missing -= size;
    process.stdout.write(`.`);
  }
  console.log(
    `\nadded ${target.toLocaleString('en')} cases in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

const { db, cleanup } = await open();
try {
  await migrate(db);
  if (!(await hasSeedData(db))) {
    const started = performance.now();
    await seedDatabase(db, {
      users,
      adminEmail: 'admin@demo.pt',
      adminPassword: 'admin-demo-2026',
      demoPassword: 'demo-pass-2026',
      storage: new LocalFileStorage(join(dataDir, 'files')),
      now: SEED_NOW,
    });
    console.log(`seeded ${users} users in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  await addCases(db, targetCases);
  // What autovacuum would do after a bulk load; PGlite has no autovacuum at all.
  for (const table of ['users', 'cases', 'settlements', 'sepa_files', 'statement_lines'])
    await db.query(`VACUUM ANALYZE ${table}`);
  if (values['prepare-only']) {
    console.log('prepared');
  } else {
    await measure(db);
  }
} finally {
  await db.close();
  await cleanup();
  rmSync(dataDir, { recursive: true, force: true });
}

async function measure(db: Database): Promise<void> {
  const admin = await db.query<{ id: string }>("SELECT id FROM users WHERE email = 'admin@demo.pt'");
  const token = await createSession(db, admin.rows[0]!.id, new Date());
  const server = await listen(
    createApp({
      db,
      config: readConfig({ NODE_ENV: 'production', DATA_DIR: dataDir }),
      storage: new LocalFileStorage(join(dataDir, 'files')),
      clock: () => SEED_NOW,
    }),
    { host: '127.0.0.1', port: 0 },
  );
  const sizes = await db.query<{ users: number; cases: number; settlements: number }>(
    `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM cases) AS cases,
            (SELECT count(*)::int FROM settlements) AS settlements`,
  );
  const call = async () => {
    const response = await fetch(`${server.url}/v2/admin/dashboard`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`);
    return response.json();
  };
  const cold = performance.now();
  await call();
  const coldMs = performance.now() - cold;
  for (let i = 0; i < 5; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const s = sizes.rows[0]!;
  console.log(
    `\n${db.kind}: ${s.users.toLocaleString('en')} users, ${s.cases.toLocaleString('en')} cases, ${s.settlements.toLocaleString('en')} settlements; ${iterations} requests`,
  );
  console.log('| first request ms | p50 ms | p95 ms | max ms | peak RSS MiB |');
  console.log('|---:|---:|---:|---:|---:|');
  console.log(
    `| ${coldMs.toFixed(1)} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ${times.at(-1)!.toFixed(1)} | ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} |`,
  );
  await server.close();
}
