// Audit log list latency (`GET /v2/admin/audit`) at millions of rows, on the dashboard bench's database.
//   npx tsx bench/audit-log.ts --rows 3000000 [--url postgres://…] [--iterations 50]
// Needs the database `bench_dashboard_1000000` (bench/dashboard.ts --keep). Adds audit rows in SQL until
// there are `--rows`: two years of actions by 20 admins over the users and cases, many sharing an instant.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp } from '../server/app';
import { readConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import { listen } from '../server/http/listen';
import { createSession } from '../server/platform/sessions';
import { percentile } from './banking-report';

const { values } = parseArgs({
  options: {
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    rows: { type: 'string', default: '3000000' },
    iterations: { type: 'string', default: '50' },
  },
});
const url = new URL(values.url);
url.pathname = '/bench_dashboard_1000000';
const db = await openDatabase({ databaseUrl: url.toString() });
const dataDir = mkdtempSync(join(tmpdir(), 'audit-bench-'));

try {
  await migrate(db);
  const have = Number(
    (await db.query<{ n: string }>('SELECT count(*)::text AS n FROM audit_log')).rows[0]!.n,
  );
  const missing = Number(values.rows) - have;
  if (missing > 0) {
    const started = performance.now();
    await db.query(`CREATE TEMP TABLE bench_admins AS
      SELECT row_number() OVER () AS n, id FROM users WHERE role <> 'ADMIN' ORDER BY id LIMIT 20`);
    await db.query(`CREATE TEMP TABLE bench_targets AS
      SELECT row_number() OVER () AS n, id FROM users WHERE role = 'PROFESSIONAL' LIMIT 100000`);
    for (let done = 0; done < missing; done += 500_000) {
      await db.query(
        `INSERT INTO audit_log (actor_id, action, entity_type, entity_id, before, after, created_at)
         SELECT a.id, (ARRAY['user.disable', 'user.enable', 'professional.verify', 'user.login', 'case.close'])[1 + g % 5],
                CASE WHEN g % 5 = 4 THEN 'case' ELSE 'user' END, t.id::text,
                '{"disabled": false}', '{"disabled": true}',
                date_trunc('second', now() - random() * interval '730 days')
           FROM generate_series(1, $1) g
           JOIN bench_admins a ON a.n = 1 + g % 20
           JOIN bench_targets t ON t.n = 1 + (g::bigint * 7919) % 100000`,
        [Math.min(500_000, missing - done)],
      );
      process.stdout.write('.');
    }
    await db.query('VACUUM ANALYZE audit_log');
    console.log(
      `\nadded ${missing.toLocaleString('en')} audit rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  const sample = (
    await db.query<{ actor_id: string; entity_id: string }>(
      `SELECT actor_id, entity_id FROM audit_log WHERE entity_type = 'user' AND actor_id IS NOT NULL ORDER BY id DESC LIMIT 1`,
    )
  ).rows[0]!;
  const admin = await db.query<{ id: string }>("SELECT id FROM users WHERE email = 'admin@demo.pt'");
  const token = await createSession(db, admin.rows[0]!.id, new Date());
  const server = await listen(
    createApp({ db, config: readConfig({ NODE_ENV: 'production', DATA_DIR: dataDir }) }),
    {
      host: '127.0.0.1',
      port: 0,
    },
  );
  const call = async (query: string) => {
    const response = await fetch(`${server.url}/v2/admin/audit?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (response.status !== 200) throw new Error(`${query}: ${response.status} ${await response.text()}`);
    return (await response.json()) as {
      items: unknown[];
      nextCursor: string | null;
      total: number;
      totalEstimated?: true;
    };
  };
  const shapes: Record<string, string> = {
    'no filter': '',
    'one actor': `actorId=${sample.actor_id}`,
    'one action': 'action=user.enable',
    'two actions': 'action=user.enable&action=case.close',
    'entity type case': 'entityType=case',
    'one entity': `entityType=user&entityId=${sample.entity_id}`,
    'a month': 'from=2025-06-01&to=2025-06-30',
    'actor + a month': `actorId=${sample.actor_id}&from=2025-06-01&to=2025-06-30`,
  };
  const total = (await db.query<{ n: string }>('SELECT count(*)::text AS n FROM audit_log')).rows[0]!.n;
  console.log(
    `\n${Number(total).toLocaleString('en')} audit rows, ${values.iterations} requests per shape (50 rows a page)\n`,
  );
  console.log('| filter | page | rows | total | p50 ms | p95 ms |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const [label, query] of Object.entries(shapes)) {
    // The first page, and the page after ten pages (the cursor of the tenth).
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) cursor = (await call(`${query}&cursor=${cursor ?? ''}`)).nextCursor;
    for (const [page, q] of [
      ['first', query],
      ['11th', `${query}&cursor=${encodeURIComponent(cursor ?? '')}`],
    ] as const) {
      const times: number[] = [];
      let answer = await call(q);
      for (let i = 0; i < Number(values.iterations); i++) {
        const started = performance.now();
        answer = await call(q);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      console.log(
        `| ${label} | ${page} | ${answer.items.length} | ${answer.totalEstimated ? '~' : ''}${answer.total} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} |`,
      );
    }
  }
  await server.close();
} finally {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
}
