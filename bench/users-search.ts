// User search latency over the HTTP API with a warm server (loopback, one request at a time).
//   npx tsx bench/users-search.ts --target postgres --users 1000000 [--url postgres://…] [--keep] [--reuse]
//   npx tsx bench/users-search.ts --target pglite --users 100000
// --reuse: measure an already seeded bench database (from an earlier --keep) without seeding again.
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
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    iterations: { type: 'string', default: '200' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
  },
});
const users = Number(values.users);
const iterations = Number(values.iterations);
const dataDir = mkdtempSync(join(tmpdir(), 'users-search-bench-'));
const dbName = `bench_users_${users}`;

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
      now: new Date('2026-03-15T00:00:00Z'),
    });
    console.log(`seeded ${users} users in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  // What autovacuum would do after a bulk load; PGlite has no autovacuum at all.
  await db.query('VACUUM ANALYZE users');
  await db.query('ANALYZE professional_interest_areas');

  // Real values to search for, picked from the middle of the table. ORDER BY id: without it a
  // synchronized sequential scan starts anywhere and each run searched for another name.
  const { rows } = await db.query<{
    email: string;
    name: string;
    phone: string;
    tax: string;
    college: string;
  }>(
    `SELECT email, name, phone_number AS phone, tax_number AS tax,
            (SELECT college_number FROM users WHERE college_number IS NOT NULL ORDER BY id OFFSET $1 LIMIT 1) AS college
       FROM users WHERE tax_number IS NOT NULL AND role = 'CUSTOMER' ORDER BY id OFFSET $1 LIMIT 1`,
    [Math.floor(users / 10)],
  );
  const sample = rows[0]!;
  const admin = await db.query<{ id: string }>("SELECT id FROM users WHERE email = 'admin@demo.pt'");
  const token = await createSession(db, admin.rows[0]!.id, new Date());
  const server = await listen(
    createApp({ db, config: readConfig({ NODE_ENV: 'production', DATA_DIR: dataDir }) }),
    {
      host: '127.0.0.1',
      port: 0,
    },
  );
  const [first, last] = sample.name.split(' ') as [string, string];
  const groups: Record<string, Record<string, string>> = {
    'first page': {
      'no filter': '',
      'customers (role)': 'role=CUSTOMER',
      'role + status': 'role=PROFESSIONAL&status=EMAIL_VERIFIED',
      'role + two statuses + country': 'role=CUSTOMER&status=NEW_USER&status=DISABLED&country=BR',
      'q name prefix (3 letters)': `role=CUSTOMER&q=${encodeURIComponent(first.slice(0, 3))}`,
      'q first + last name': `q=${encodeURIComponent(`${first} ${last.slice(0, 4)}`)}`,
      'q e-mail (whole)': `q=${encodeURIComponent(sample.email)}`,
      'q e-mail prefix': `q=${encodeURIComponent(sample.email.split('@')[0]!.slice(0, 12))}`,
      'q phone (spaced)': `q=${encodeURIComponent(`${sample.phone.slice(0, 3)} ${sample.phone.slice(3)}`)}`,
      'q tax number': `q=${sample.tax}`,
      'q college number': `q=${sample.college}`,
      'created range + role': 'role=CUSTOMER&createdFrom=2025-06-01&createdTo=2025-06-30',
    },
    'sort change': {
      'customers by name': 'role=CUSTOMER&sort=name&order=asc',
      'customers by e-mail desc': 'role=CUSTOMER&sort=email&order=desc',
      'customers by last active': 'role=CUSTOMER&sort=lastActive&order=desc',
      'everyone by name': 'sort=name',
      'verified doctors by name': 'role=PROFESSIONAL&status=PROFESSIONAL_VERIFIED&sort=name',
      'q name prefix by name': `role=CUSTOMER&q=${encodeURIComponent(first.slice(0, 3))}&sort=name`,
      'q name prefix by e-mail': `role=CUSTOMER&q=${encodeURIComponent(first.slice(0, 3))}&sort=email`,
      'q 2 letters by name': `role=CUSTOMER&q=${encodeURIComponent(first.slice(0, 2))}&sort=name`,
      'q surname by name desc': `q=${encodeURIComponent(last)}&sort=name&order=desc`,
      'q prefix + status by name': `role=PROFESSIONAL&status=EMAIL_VERIFIED&q=${encodeURIComponent(first.slice(0, 3))}&sort=name`,
      'q prefix + country by name': `role=CUSTOMER&country=PT&q=${encodeURIComponent(first.slice(0, 3))}&sort=name`,
      'q prefix + created range by name': `role=CUSTOMER&createdFrom=2025-06-01&createdTo=2025-06-30&q=${encodeURIComponent(first.slice(0, 3))}&sort=name`,
      'q prefix + a year by e-mail': `role=CUSTOMER&createdFrom=2025-01-01&createdTo=2025-12-31&q=${encodeURIComponent(first.slice(0, 3))}&sort=email`,
      'q first + last name by name': `q=${encodeURIComponent(`${first} ${last.slice(0, 4)}`)}&sort=name`,
    },
  };
  const call = async (query: string) => {
    const response = await fetch(`${server.url}/v2/admin/users?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (response.status !== 200) throw new Error(`${query}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { items: unknown[]; total: number; totalEstimated?: boolean };
  };
  console.log(`\n${db.kind}, ${users.toLocaleString('en')} users, ${iterations} requests per query\n`);
  console.log(
    `searching for: ${sample.name}, ${sample.email}, ${sample.phone}, ${sample.tax}, ${sample.college}\n`,
  );
  console.log('| group | query | rows | total | p50 ms | p95 ms | max ms |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const [group, queries] of Object.entries(groups)) {
    for (const [label, query] of Object.entries(queries)) {
      for (let i = 0; i < 10; i++) await call(query);
      const times: number[] = [];
      let answer = await call(query);
      for (let i = 0; i < iterations; i++) {
        const started = performance.now();
        answer = await call(query);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const total = `${answer.totalEstimated ? '~' : ''}${answer.total}`;
      console.log(
        `| ${group} | ${label} | ${answer.items.length} | ${total} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ${times.at(-1)!.toFixed(1)} |`,
      );
    }
  }
  await server.close();
} finally {
  await db.close();
  await cleanup();
  rmSync(dataDir, { recursive: true, force: true });
}
