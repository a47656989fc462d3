// /customers in Chromium over a large users table on PostgreSQL: time from navigation to the first
// rows on screen, and the most row elements the DOM ever holds while scrolling far down the list.
//   npx vite build && npx tsx bench/console-table.ts --users 1000000 [--template bench_users_1000000] [--keep]
// --template clones an already seeded database (CREATE DATABASE … TEMPLATE) instead of seeding anew.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createApp } from '../server/app';
import { readConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { listen } from '../server/http/listen';
import { prepareDatabase } from '../server/services/bootstrap';
import { createSession } from '../server/services/sessions';
import { launchBrowser } from '../tests/support/browser';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '1000000' },
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:55432/postgres' },
    template: { type: 'string' },
    runs: { type: 'string', default: '10' },
    scrolls: { type: 'string', default: '150' },
    keep: { type: 'boolean', default: false },
  },
});
const users = Number(values.users);
const dbName = `console_table_bench_${users}`;
const databaseUrl = Object.assign(new URL(values.url), { pathname: `/${dbName}` }).toString();

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: values.url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
const prepared = Date.now();
await admin(
  values.template ? `CREATE DATABASE ${dbName} TEMPLATE ${values.template}` : `CREATE DATABASE ${dbName}`,
);
const distDir = fileURLToPath(new URL('../dist/', import.meta.url));
if (!existsSync(join(distDir, 'index.html'))) throw new Error('build the console first: npx vite build');
const dataDir = mkdtempSync(join(tmpdir(), 'console-table-bench-'));
const config = readConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' });
const db = await openDatabase({ databaseUrl });
await prepareDatabase(db, config, users);
const listening = await listen(createApp({ db, config, staticDir: distDir }), { host: '127.0.0.1', port: 0 });
const server = { url: listening.url, db };
console.log(
  `database ready in ${((Date.now() - prepared) / 1000).toFixed(1)} s (${values.template ? 'cloned' : 'seeded'})`,
);
const browser = await launchBrowser();
try {
  const { rows } = await server.db.query<{ id: string; customers: number }>(
    `SELECT (SELECT id FROM users WHERE admin_data IS NOT NULL ORDER BY created_at LIMIT 1) AS id,
            (SELECT count(*)::int FROM users WHERE role = 'CUSTOMER') AS customers`,
  );
  const token = await createSession(server.db, rows[0]!.id, new Date());
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addCookies([{ name: 'authorization', value: token, url: server.url }]);
  const page = await context.newPage();

  // Navigation start → the frame after the first body row is attached, recorded inside the page
  // (performance.now() counts from navigation start), so the harness's polling adds nothing.
  await page.addInitScript(() => {
    const w = window as unknown as { __firstRows?: number };
    new MutationObserver((_, observer) => {
      if (w.__firstRows === undefined && document.querySelector('.data-table-body-row')) {
        observer.disconnect();
        requestAnimationFrame(() => {
          w.__firstRows = performance.now();
        });
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const firsts: number[] = [];
  for (let i = 0; i < Number(values.runs); i++) {
    await page.goto(`${server.url}/customers`, { waitUntil: 'commit' });
    await page.waitForFunction(
      () => (window as unknown as { __firstRows?: number }).__firstRows !== undefined,
    );
    firsts.push(await page.evaluate(() => (window as unknown as { __firstRows: number }).__firstRows));
  }
  const total = await page.getByTestId('customers-total').textContent();
  if (process.env.BENCH_TRACE)
    console.log(
      await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => e as PerformanceResourceTiming)
          .map(
            (e) =>
              `${Math.round(e.startTime)}-${Math.round(e.responseEnd)} ${e.name.replace(location.origin, '')}`,
          )
          .join('\n'),
      ),
    );

  let maxRows = 0;
  let deepest = 0;
  const scroller = page.locator('.data-table-scroll');
  for (let i = 0; i < Number(values.scrolls); i++) {
    await scroller.evaluate((el) => {
      el.scrollTop += el.clientHeight * 3;
    });
    await page.waitForTimeout(30);
    const stats = await page.evaluate(() => {
      const found = [...document.querySelectorAll('.data-table-body-row')];
      return { count: found.length, last: Number(found.at(-1)?.getAttribute('aria-rowindex') ?? 0) - 1 };
    });
    maxRows = Math.max(maxRows, stats.count);
    deepest = Math.max(deepest, stats.last);
  }

  const sorted = [...firsts].sort((a, b) => a - b);
  console.log(
    JSON.stringify(
      {
        users,
        customers: rows[0]!.customers,
        totalShown: total,
        firstRowsMs: firsts.map((ms) => Math.round(ms)),
        firstRowsColdMs: Math.round(firsts[0]!),
        firstRowsMedianMs: Math.round(percentile(sorted, 50)),
        firstRowsP95Ms: Math.round(percentile(sorted, 95)),
        scrollSteps: Number(values.scrolls),
        deepestRowReached: deepest,
        maxDomRows: maxRows,
      },
      null,
      2,
    ),
  );
} finally {
  await browser.close();
  await listening.close();
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (!values.keep) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
}
