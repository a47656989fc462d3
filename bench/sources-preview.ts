// /sources in Chromium: Stripe's itemized payout report of 100,000 charges chosen in the file picker →
// the preview's summary and the server's answer of which rows are new, with every main-thread long task
// (> 50 ms, PerformanceObserver 'longtask') from the choice until that answer (decision 0154's budget:
// no task over 100 ms). Measured here, never asserted in a test (decision 0154, 2026-11-28).
//   npx vite build && npx tsx bench/sources-preview.ts [--rows 100000] [--runs 3]
// The API runs in this process on PGlite (the preview asks it only which rows are known). Each run's
// figures are printed and appended to bench/results/sources-preview.md with the command, load and commit.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createApp } from '../server/app';
import { readConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { listen } from '../server/http/listen';
import { prepareDatabase } from '../server/platform/bootstrap';
import { createSession } from '../server/platform/sessions';
import { launchBrowser } from '../tests/support/browser';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
  },
});
const rowCount = Number(values.rows);

/** Stripe's itemized report with `rows` charges in one payout, on the test fixture's header. */
function stripeReport(rows: number): string {
  const fixture = readFileSync(
    fileURLToPath(
      new URL(
        '../tests/fixtures/sources/made-here-stripe-payout-reconciliation-itemized-5.csv',
        import.meta.url,
      ),
    ),
    'utf8',
  );
  const lines = [fixture.split('\n', 1)[0]];
  for (let i = 0; i < rows; i++)
    lines.push(
      `po_big,2026-01-05 00:00:00,txn_${i},2026-01-02 10:00:00,2026-01-02 10:00:00,2026-01-05 00:00:00,2026-01-05 00:00:00,eur,10.00,0.30,9.70,charge,ch_${i},Consulta ${i},10.00,eur,,ch_${i},pi_${i}`,
    );
  return `${lines.join('\n')}\n`;
}

const distDir = fileURLToPath(new URL('../dist/', import.meta.url));
if (!existsSync(join(distDir, 'index.html'))) throw new Error('build the console first: npx vite build');
const dataDir = mkdtempSync(join(tmpdir(), 'sources-preview-bench-'));
const path = join(dataDir, `stripe-${rowCount}.csv`);
writeFileSync(path, stripeReport(rowCount));

const config = readConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' });
const db = await openDatabase({});
await prepareDatabase(db, config, 60);
const app = createApp({ db, config, staticDir: distDir });
const listening = await listen(app, { host: '127.0.0.1', port: 0 });
const browser = await launchBrowser();

interface Run {
  /** The summary (kind, row count, total) shown. */
  previewDoneMs: number;
  /** The server's answer of which rows are new. */
  knownDoneMs: number;
  longTasks: number;
  longestTaskMs: number;
  /** The page's JS heap once the server has answered (Chromium's performance.memory). */
  pageHeapMb: number;
}

const loadAtStart = loadavg();
const runs: Run[] = [];
try {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM users WHERE admin_data IS NOT NULL ORDER BY created_at LIMIT 1',
  );
  const token = await createSession(db, rows[0]!.id, new Date());
  for (let run = 0; run < Number(values.runs); run++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addCookies([{ name: 'authorization', value: token, url: listening.url }]);
    const page = await context.newPage();
    // Inside the page: the moment the input hands the file over (`change`) and every long task.
    await page.addInitScript(() => {
      const w = window as unknown as { __chosen?: number; __longTasks: PerformanceEntry[] };
      w.__longTasks = [];
      new PerformanceObserver((list) => w.__longTasks.push(...list.getEntries())).observe({
        type: 'longtask',
        buffered: true,
      });
      document.addEventListener('change', () => (w.__chosen ??= performance.now()), true);
    });
    await page.goto(`${listening.url}/sources`);
    await page.getByTestId('source-file').waitFor({ state: 'attached' });
    await page.getByTestId('source-file').setInputFiles(path);
    await page.getByTestId('source-summary').waitFor({ timeout: 120_000 });
    const previewDone = await page.evaluate(() => performance.now());
    await page.waitForFunction(
      (expected) =>
        (document.querySelector('[data-testid="source-known"]')?.textContent ?? '').includes(expected),
      String(rowCount),
      { timeout: 120_000 },
    );
    const knownDone = await page.evaluate(() => performance.now());
    const pageHeapMb = await page.evaluate(
      () =>
        (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize / 2 ** 20,
    );
    const timing = await page.evaluate(() => {
      const w = window as unknown as { __chosen: number; __longTasks: PerformanceEntry[] };
      return {
        chosen: w.__chosen,
        longTasks: w.__longTasks.filter((t) => t.startTime >= w.__chosen).map((t) => t.duration),
      };
    });
    runs.push({
      previewDoneMs: Math.round(previewDone - timing.chosen),
      knownDoneMs: Math.round(knownDone - timing.chosen),
      longTasks: timing.longTasks.length,
      longestTaskMs: Math.round(Math.max(0, ...timing.longTasks)),
      pageHeapMb: Math.round(pageHeapMb),
    });
    await context.close();
  }
  const benchPeakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const load = loadavg();
  console.log(
    JSON.stringify(
      { rows: rowCount, node: process.version, loadAtStart, load, benchPeakRssMb, runs },
      null,
      2,
    ),
  );
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const fixed = (numbers: number[]) => numbers.map((n) => n.toFixed(2)).join(', ');
  appendFileSync(
    fileURLToPath(new URL('results/sources-preview.md', import.meta.url)),
    [
      '',
      `## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${commit}`,
      '',
      `Command: \`npx vite build && npx tsx bench/sources-preview.ts --rows ${rowCount} --runs ${values.runs}\``,
      `Load average at start ${fixed(loadAtStart)}, at end ${fixed(load)} (2 cores shared); Node ${process.version};`,
      `bench process peak RSS ${benchPeakRssMb} MB.`,
      '',
      '| run | whole preview (ms) | server’s known rows (ms) | longest main-thread task (ms) | long tasks > 50 ms | page JS heap (MB) |',
      '|---:|---:|---:|---:|---:|---:|',
      ...runs.map(
        (r, i) =>
          `| ${i + 1} | ${r.previewDoneMs} | ${r.knownDoneMs} | ${r.longestTaskMs} | ${r.longTasks} | ${r.pageHeapMb} |`,
      ),
      '',
    ].join('\n'),
  );
} finally {
  await browser.close();
  await listening.close();
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
}
