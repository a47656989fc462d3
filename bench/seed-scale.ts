// Seeds N users into a fresh database and reports the time and throughput.
//   npx tsx bench/seed-scale.ts --target postgres --users 1000000 [--url postgres://…] [--keep]
//   npx tsx bench/seed-scale.ts --target pglite --users 200000
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { type Database, openDatabase } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import { LocalFileStorage } from '../server/platform/files/local-storage';
import { seedDatabase } from '../server/seed/seed';

const { values } = parseArgs({
  options: {
    target: { type: 'string', default: 'postgres' },
    users: { type: 'string', default: '1000000' },
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    keep: { type: 'boolean', default: false },
  },
});
const users = Number(values.users);
const dataDir = mkdtempSync(join(tmpdir(), 'seed-bench-'));
const dbName = `bench_seed_${users}`;

async function open(): Promise<{ db: Database; cleanup: () => Promise<void> }> {
  if (values.target === 'pglite') {
    // on disk, as `npm start` runs it
    const db = await openDatabase({ dataDir });
    return { db, cleanup: async () => {} };
  }
  const admin = new pg.Client({ connectionString: values.url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = new URL(values.url);
  url.pathname = `/${dbName}`;
  const db = await openDatabase({ databaseUrl: url.toString() });
  return {
    db,
    cleanup: async () => {
      if (values.keep) return console.log(`kept database ${url}`);
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
  const started = performance.now();
  const summary = await seedDatabase(db, {
    users,
    adminEmail: 'admin@demo.pt',
    adminPassword: 'admin-demo-2026',
    demoPassword: 'demo-pass-2026',
    storage: new LocalFileStorage(join(dataDir, 'files')),
    now: new Date('2026-03-15T00:00:00Z'),
  });
  const seconds = (performance.now() - started) / 1000;
  const { rows } = await db.query<{ total: number }>(
    `SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM professional_interest_areas) + (SELECT count(*) FROM cases)
       + (SELECT count(*) FROM case_messages) + (SELECT count(*) FROM share_link_occurrences) + (SELECT count(*) FROM settlements)
       + (SELECT count(*) FROM statement_lines) AS total`,
  );
  const total = rows[0]!.total;
  console.log(JSON.stringify(summary));
  console.log(
    `${db.kind}: ${users} users in ${seconds.toFixed(1)} s = ${Math.round(users / seconds)} users/s; ` +
      `${total} rows in the main tables = ${Math.round(total / seconds)} rows/s; peak RSS ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB`,
  );
} finally {
  await db.close();
  await cleanup();
  rmSync(dataDir, { recursive: true, force: true });
}
