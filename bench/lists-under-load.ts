// Lists under many admins (issue 28 point 7): one real server process (`npm start`'s command, on
// PostgreSQL) and 50 concurrent clients in this process, each asking one list after another
// over loopback for a fixed time — every list route of the console and the dashboard, first pages as the
// console asks them. Per route: p50/p95/p99, max and errors; the machine's load and speed beside them.
//   npx tsx bench/lists-under-load.ts [--url postgres://…] [--db bench_lists_load] [--clients 50]
//                                     [--seconds 60] [--label "before"] [--pool 10]
// The database (1,000,000 users, settlements and statement lines: bench/lists-under-load-seed.ts, ~10 min
// on the shared machine) is made once and kept; later runs apply newer migrations and reuse it. Each run
// appends its section to bench/results/lists-under-load.md.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import { createSession } from '../server/platform/sessions';
import { startServerProcess } from '../tests/support/server-process';
import { cpuLoopMs, machine, percentile } from './banking-report';
import { OPEN_MONTH, SCALE, SEPA_MONTH, seedListsUnderLoad } from './lists-under-load-seed';

const { values } = parseArgs({
  options: {
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    db: { type: 'string', default: 'bench_lists_load' },
    clients: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '60' },
    label: { type: 'string', default: 'run' },
    /** DATABASE_POOL_SIZE for the server; unset: the server's default. */
    pool: { type: 'string' },
    /** Routes left out (repeatable), e.g. one being fixed elsewhere whose cost would hide the others'. */
    without: { type: 'string', multiple: true, default: [] },
  },
});
const CLIENTS = Number(values.clients);
const SECONDS = Number(values.seconds);
const dbName = values.db;
if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) throw new Error(`--db must be a plain identifier: ${dbName}`);

/** Every list the console shows and the dashboard, each as its screen asks for its first page. */
const ROUTES: Record<string, string> = {
  users: '/v2/admin/users?limit=50',
  customers: '/v2/admin/users?role=CUSTOMER&limit=50',
  professionals: '/v2/admin/users?role=PROFESSIONAL&limit=50',
  cases: '/v2/admin/cases?limit=50',
  settlements: '/v2/admin/settlement/?limit=50',
  'cases to process': `/v2/admin/settlement/professional?referenceMonth=${OPEN_MONTH}`,
  'SEPA to process': `/v2/admin/settlement/sepa/to-process?referenceMonth=${SEPA_MONTH}&limit=50`,
  'SEPA files': '/v2/admin/settlement/sepa/?limit=50',
  'statement files': '/v2/admin/statements/files',
  'statement lines': '/v2/admin/statements/lines?limit=50',
  'statement lines to check': '/v2/admin/statements/lines?limit=50&status=UNMATCHED',
  'audit log': '/v2/admin/audit?limit=50',
  dashboard: '/v2/admin/dashboard',
};

for (const name of values.without) {
  if (!(name in ROUTES)) throw new Error(`--without: no route named ${name}`);
  delete ROUTES[name];
}

const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

/** The kept database: created, migrated and seeded the first time; migrated only afterwards. */
async function prepareDatabase(): Promise<{ url: string; adminId: string }> {
  const admin = new pg.Client({ connectionString: values.url });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName])).rowCount === 1;
  if (!exists) await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = new URL(values.url);
  url.pathname = `/${dbName}`;
  const db = await openDatabase({ databaseUrl: url.toString() });
  try {
    await migrate(db);
    if (await seedListsUnderLoad(db)) {
      // What autovacuum would have done by the time anyone reads: statistics and the visibility map.
      await db.query('VACUUM ANALYZE');
    }
    const adminId = (await db.query<{ id: string }>(`SELECT id FROM users WHERE email = 'admin@demo.pt'`))
      .rows[0]!.id;
    return { url: url.toString(), adminId };
  } finally {
    await db.close();
  }
}

interface RouteTimes {
  ms: number[];
  errors: number;
  firstError?: string;
}

async function hammer(baseUrl: string, tokens: string[]): Promise<Map<string, RouteTimes>> {
  const names = Object.keys(ROUTES);
  const times = new Map(names.map((name) => [name, { ms: [], errors: 0 } as RouteTimes]));
  const deadline = performance.now() + SECONDS * 1000;
  // Each client walks the routes in order from its own starting point, so every route is asked at every moment.
  const client = async (index: number) => {
    const headers = { authorization: `Bearer ${tokens[index]}` };
    for (let n = index; performance.now() < deadline; n++) {
      const name = names[n % names.length]!;
      const record = times.get(name)!;
      const started = performance.now();
      try {
        const response = await fetch(`${baseUrl}${ROUTES[name]}`, { headers });
        const body = await response.text();
        if (response.status !== 200) {
          record.errors++;
          record.firstError ??= `${response.status} ${body.slice(0, 200)}`;
          continue;
        }
      } catch (error) {
        record.errors++;
        record.firstError ??= String(error);
        continue;
      }
      record.ms.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  return times;
}

const { url: databaseUrl, adminId } = await prepareDatabase();
const setupDb = await openDatabase({ databaseUrl });
// A session per client, as each admin at a console has their own.
const tokens = await Promise.all(
  Array.from({ length: CLIENTS }, () => createSession(setupDb, adminId, new Date())),
);
await setupDb.close();
// `npm start` itself (its flags, server/main.ts), as production runs it.
const server = await startServerProcess({
  NODE_ENV: 'production',
  DATABASE_URL: databaseUrl,
  ...(values.pool ? { DATABASE_POOL_SIZE: values.pool } : {}),
});
try {
  // Each route alone first, one request at a time (the first pays for connections and plan caches): what
  // a request costs without a queue, so the concurrent figures can be told apart from waiting.
  const alone = new Map<string, number>();
  for (const [name, path] of Object.entries(ROUTES)) {
    const ms: number[] = [];
    for (let i = 0; i < 4; i++) {
      const started = performance.now();
      await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${tokens[0]}` } }).then((r) =>
        r.text(),
      );
      if (i > 0) ms.push(performance.now() - started);
    }
    alone.set(name, ms.sort((a, b) => a - b)[1]!);
  }
  const cpuBefore = cpuLoopMs();
  const uptimeBefore = uptime();
  const started = performance.now();
  const times = await hammer(server.url, tokens);
  const elapsed = (performance.now() - started) / 1000;
  const uptimeAfter = uptime();
  const cpuAfter = cpuLoopMs();

  const rows = [...times].map(([name, record]) => {
    const sorted = record.ms.sort((a, b) => a - b);
    const f = (ms: number) => Math.round(ms).toLocaleString('en');
    const p95 = percentile(sorted, 95);
    return `| ${name} | ${f(alone.get(name)!)} | ${sorted.length} | ${f(percentile(sorted, 50))} | ${f(p95)} | ${f(percentile(sorted, 99))} | ${f(sorted.at(-1) ?? Number.NaN)} | ${record.errors}${record.firstError ? ` (${record.firstError.replaceAll('|', '/')})` : ''} | ${p95 <= 300 ? 'yes' : 'no'} |`;
  });
  const all = [...times.values()].flatMap((r) => r.ms).sort((a, b) => a - b);
  const section = [
    `## ${values.label} — ${new Date().toISOString().slice(0, 16)}Z`,
    '',
    `Command: \`npx tsx bench/lists-under-load.ts --clients ${CLIENTS} --seconds ${SECONDS} --label "${values.label}"${values.pool ? ` --pool ${values.pool}` : ''}${values.without.map((name) => ` --without "${name}"`).join('')}\``,
    '',
    `Machine: ${machine()}`,
    '',
    `\`uptime\` before: \`${uptimeBefore}\`; after: \`${uptimeAfter}\`. \`cpuLoopMs\` (bench/banking-report.ts) before ${cpuBefore} ms, after ${cpuAfter} ms.`,
    '',
    `${CLIENTS} clients, ${elapsed.toFixed(0)} s, ${all.length} answers (${(all.length / elapsed).toFixed(0)}/s); all routes p50 ${Math.round(percentile(all, 50))} ms, p95 ${Math.round(percentile(all, 95))} ms.`,
    '',
    '| route | alone ms (median of 3) | answers | p50 ms | p95 ms | p99 ms | max ms | errors | p95 ≤ 300 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
  ].join('\n');
  const resultPath = new URL('./results/lists-under-load.md', import.meta.url).pathname;
  if (!existsSync(resultPath))
    writeFileSync(
      resultPath,
      `# Lists under load (issue 28 point 7, docs/decisions/0130)\n\nPostgreSQL with ${SCALE.users.toLocaleString('en')} users (${SCALE.doctors.toLocaleString('en')} doctors), ${SCALE.settlements.toLocaleString('en')} cases with a settlement each, ${SCALE.statementLines.toLocaleString('en')} statement lines in ${SCALE.statementFiles} files and ${SCALE.auditRows.toLocaleString('en')} audit rows (bench/lists-under-load-seed.ts); one server process (\`server/main.ts\` with \`npm start\`'s flags, NODE_ENV=production); the clients in the bench process over loopback, each asking the routes one after another. The machine is shared with other developers' work, so every figure here is pessimistic: read them beside \`uptime\` and \`cpuLoopMs\`.\n\n`,
    );
  appendFileSync(resultPath, `${section}\n`);
  process.stdout.write(`${section}\n`);
  console.error(
    `load average now ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
  );
} finally {
  if (process.env.BENCH_SERVER_OUTPUT) console.error(server.output());
  await server.stop();
}
