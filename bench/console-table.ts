// A list screen (/customers by default) in Chromium over a large database on PostgreSQL: time from
// navigation to the first rows on screen, from the list's API answer (`--api`, its response's end in the
// page's resource timings) to those rows, and the most row elements the DOM ever holds while scrolling.
//   npx vite build && npx tsx bench/console-table.ts --users 1000000 [--template bench_users_1000000] [--keep]
//   npx tsx bench/console-table.ts --template bench_lists_load --path /settlement \
//     --api /v2/admin/settlement/professional --scrolls 0   (issue 29: first rows ≤ 300 ms after the API)
// --template clones an already seeded database (CREATE DATABASE … TEMPLATE) instead of seeding anew.
// Prints a breakdown of the first (cold) navigation: document and resource timings, long tasks, and each
// request and SQL statement the server handled meanwhile, all in ms from navigation start.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createApp } from '../server/app';
import { readConfig } from '../server/config';
import { type Database, openDatabase, SERVER_WARM_CONNECTIONS } from '../server/db/client';
import { listen } from '../server/http/listen';
import { prepareDatabase } from '../server/platform/bootstrap';
import { createSession } from '../server/platform/sessions';
import { launchBrowser } from '../tests/support/browser';
import { percentile } from './banking-report';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '1000000' },
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:55432/postgres' },
    template: { type: 'string' },
    runs: { type: 'string', default: '10' },
    scrolls: { type: 'string', default: '150' },
    keep: { type: 'boolean', default: false },
    path: { type: 'string', default: '/customers' },
    api: { type: 'string', default: '/v2/admin/users' },
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

await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
const prepared = Date.now();
await admin(
  values.template ? `CREATE DATABASE ${dbName} TEMPLATE ${values.template}` : `CREATE DATABASE ${dbName}`,
);
const distDir = fileURLToPath(new URL('../dist/', import.meta.url));
if (!existsSync(join(distDir, 'index.html'))) throw new Error('build the console first: npx vite build');
const dataDir = mkdtempSync(join(tmpdir(), 'console-table-bench-'));
const config = readConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' });
// As server/main.ts opens it.
const db = await openDatabase({ databaseUrl, warmConnections: SERVER_WARM_CONNECTIONS });
await prepareDatabase(db, config, users);

// What the server did during the cold navigation: wall-clock (epoch ms) so it lines up with the page's
// performance.timeOrigin. Recording stops after the first navigation.
interface ServerEvent {
  kind: 'request' | 'sql';
  what: string;
  start: number;
  end: number;
}
const serverEvents: ServerEvent[] = [];
let recording = false;
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
const now = () => performance.timeOrigin + performance.now();
const timedDb: Database = {
  ...db,
  async query(text, params) {
    const start = now();
    try {
      return await db.query(text, params);
    } finally {
      if (recording)
        serverEvents.push({ kind: 'sql', what: text.replace(/\s+/g, ' ').slice(0, 90), start, end: now() });
    }
  },
};
const app = createApp({ db: timedDb, config, staticDir: distDir });
const appFetch = app.fetch;
app.fetch = async (request, ...rest) => {
  const start = now();
  try {
    return await appFetch(request, ...rest);
  } finally {
    if (recording)
      serverEvents.push({ kind: 'request', what: new URL(request.url).pathname, start, end: now() });
  }
};
const listening = await listen(app, { host: '127.0.0.1', port: 0 });
const server = { url: listening.url, db };
// Cloning writes the whole database (~2 GB at 1,000,000 users) through the WAL; without a checkpoint
// here the server flushes it during the measured navigation (session lookups of 70 ms instead of 4,
// cold loads of ~1,050 ms instead of ~650 ms in back-to-back runs). The clone's pages stay out of
// shared buffers either way, so the first navigation still meets a cold database.
await admin('CHECKPOINT');
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
    const w = window as unknown as { __firstRows?: number; __longTasks?: string[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        w.__longTasks?.push(`${Math.round(e.startTime)}+${Math.round(e.duration)}`);
    }).observe({ type: 'longtask', buffered: true });
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
  const afterApi: number[] = [];
  let coldBreakdown = '';
  for (let i = 0; i < Number(values.runs); i++) {
    recording = i === 0;
    if (recording) loopDelay.enable();
    await page.goto(`${server.url}${values.path}`, { waitUntil: 'commit' });
    await page.waitForFunction(
      () => (window as unknown as { __firstRows?: number }).__firstRows !== undefined,
    );
    const timings = await page.evaluate((api) => {
      const listAnswered = performance
        .getEntriesByType('resource')
        .find((entry) => new URL(entry.name).pathname === api) as PerformanceResourceTiming | undefined;
      return {
        firstRows: (window as unknown as { __firstRows: number }).__firstRows,
        listAnswered: listAnswered?.responseEnd ?? null,
      };
    }, values.api);
    firsts.push(timings.firstRows);
    if (timings.listAnswered === null) throw new Error(`no request to ${values.api} during ${values.path}`);
    afterApi.push(timings.firstRows - timings.listAnswered);
    if (i === 0) {
      recording = false;
      loopDelay.disable();
      coldBreakdown = await describeColdRun(page, serverEvents);
      // The server shares this process's event loop with the Playwright driver.
      coldBreakdown += `\nbench process event-loop delay during it: mean ${(loopDelay.mean / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms`;
    }
  }
  const total = await page.locator('[data-testid$="-total"]').first().textContent();
  console.log(coldBreakdown);
  if (process.env.BENCH_TRACE)
    console.log(
      `last navigation:\n${((await page.evaluate(`(${browserTimeline.toString()})()`)) as string[]).join('\n')}`,
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
        path: values.path,
        afterApiMs: afterApi.map((ms) => Math.round(ms)),
        afterApiMedianMs: Math.round(
          percentile(
            [...afterApi].sort((a, b) => a - b),
            50,
          ),
        ),
        afterApiMaxMs: Math.round(Math.max(...afterApi)),
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

/**
 * In-page: the document and every resource as `start first-byte end`, in ms from navigation start.
 * Passed to the page as source, so it declares no named inner functions (tsx would wrap them in `__name`).
 */
function browserTimeline(): string[] {
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
  const paints = performance.getEntriesByType('paint').map((e) => `${e.name} ${Math.round(e.startTime)}`);
  const w = window as unknown as { __firstRows?: number; __longTasks?: string[] };
  return [
    [nav.startTime, nav.responseStart, nav.responseEnd]
      .map((n) => String(Math.round(n)).padStart(5))
      .join(' ')
      .concat(
        `  document (domInteractive ${Math.round(nav.domInteractive)}, DOMContentLoaded ${Math.round(nav.domContentLoadedEventEnd)})`,
      ),
    ...performance
      .getEntriesByType('resource')
      .map((e) => e as PerformanceResourceTiming)
      .map((e) =>
        [e.startTime, e.responseStart, e.responseEnd]
          .map((n) => String(Math.round(n)).padStart(5))
          .join(' ')
          .concat(
            `  ${e.name.replace(location.origin, '')} (${e.initiatorType}, ${Math.round(e.encodedBodySize / 1024)} kB)`,
          ),
      ),
    `paint: ${paints.join(', ') || 'none'}; long tasks (start+ms): ${w.__longTasks?.join(' ') || 'none'}`,
    `first rows: ${Math.round(w.__firstRows ?? Number.NaN)}`,
  ];
}

async function describeColdRun(page: import('playwright-core').Page, events: ServerEvent[]): Promise<string> {
  const origin = await page.evaluate(() => performance.timeOrigin);
  const lines = await page.evaluate(`(${browserTimeline.toString()})()`);
  const ms = (n: number) => String(Math.round(n - origin)).padStart(5);
  return [
    'cold navigation, browser (start, first byte, end ms from navigation start):',
    ...(lines as string[]),
    'cold navigation, server (start, end ms from navigation start):',
    ...events
      .sort((a, b) => a.start - b.start)
      .map((e) => `${ms(e.start)} ${ms(e.end)}  ${e.kind === 'sql' ? '  sql ' : ''}${e.what}`),
  ].join('\n');
}
