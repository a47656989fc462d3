// The reconciliation table (/statements, issue 12 item 5) in Chromium over 100,000 statement lines on
// PostgreSQL: first rows from navigation, then two scrolls — a smooth one (a fixed distance every animation
// frame, in the page) and a far one (to the end of the loaded rows, again and again, as pages of 500 load
// behind, until every line is loaded) — recording the row elements in the DOM at every step, every
// main-thread long task (PerformanceObserver 'longtask') and the longest gap between animation frames.
//   npx vite build && npx tsx bench/reconcile-table.ts [--lines 100000] [--url postgres://…] [--keep]
//   npx vite build && npx tsx bench/reconcile-table.ts --database postgres://…/test_xxx   (reuse a kept one)
// The lines come through the real import (the API's upload, parsed, imported and matched on the server):
// a quoted CSV as bench/statement-import.ts makes it — a third provider payouts named in the reference
// (matched), a third invoices paid by amount and date (suggested or unmatched), a third fees.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { StatementImportJob } from '../contract/statement-import';
import { parseStatement } from '../domain/statements/detect';
import { createApp } from '../server/app';
import { readConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { listen } from '../server/http/listen';
import { prepareDatabase } from '../server/platform/bootstrap';
import { PostgresFileStorage } from '../server/platform/files/postgres-storage';
import { createSession } from '../server/platform/sessions';
import { MIN_SEED_USERS } from '../server/seed/seed';
import { launchBrowser } from '../tests/support/browser';
import { createPostgresDatabase } from '../tests/support/databases';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '100000' },
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    database: { type: 'string' },
    keep: { type: 'boolean', default: false },
    /** Animation frames of the smooth scroll, and the pixels it moves per frame. */
    frames: { type: 'string', default: '600' },
    step: { type: 'string', default: '64' },
    /** Most jumps to the end of the loaded rows in the far scroll. */
    jumps: { type: 'string', default: '400' },
  },
});
const lineCount = Number(values.lines);

/** What consultations and payouts cost: twenty amounts, repeated (DESIGN §9 "realistic data"). */
const AMOUNTS = Array.from({ length: 20 }, (_, i) => 2_500 + i * 250);
const euros = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;
const dayOf = (index: number) => new Date(Date.UTC(2033, 0, 1) + (index % 360) * 86_400_000);
const ptDate = (date: Date) =>
  `${String(date.getUTCDate()).padStart(2, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${date.getUTCFullYear()}`;

function statement(): { bytes: Buffer; payouts: unknown[][]; invoices: unknown[][] } {
  const rows = [
    'Conta;PT50 0002 0123 1234 5678 9015 4',
    '',
    'Data Movimento;Data Valor;Descrição;Referência;Montante',
  ];
  const payouts: [string[], number[], string[]] = [[], [], []];
  const invoices: [string[], number[], string[]] = [[], [], []];
  for (let i = 0; i < lineCount; i++) {
    const date = dayOf(i);
    const cents = AMOUNTS[(i * 7) % AMOUNTS.length]!;
    const day = date.toISOString().slice(0, 10);
    if (i % 3 === 0) {
      const id = `po_table_${i}`;
      payouts[0].push(id);
      payouts[1].push(cents);
      payouts[2].push(day);
      rows.push(`${ptDate(date)};${ptDate(date)};"TRF SEPA STRIPE PAYMENTS; ${id}";"${id}";${euros(cents)}`);
    } else if (i % 3 === 1) {
      invoices[0].push(`FT table/${i}`);
      invoices[1].push(cents);
      invoices[2].push(day);
      rows.push(
        `${ptDate(date)};${ptDate(date)};"TRF Clínica São João, Lda; consulta ${i}";"";-${euros(cents)}`,
      );
    } else rows.push(`${ptDate(date)};${ptDate(date)};"COMISSÃO MANUTENÇÃO ${i}";"";-${euros(350)}`);
  }
  return { bytes: Buffer.from(`${rows.join('\r\n')}\r\n`, 'utf8'), payouts, invoices };
}

const distDir = fileURLToPath(new URL('../dist/', import.meta.url));
if (!existsSync(join(distDir, 'index.html'))) throw new Error('build the console first: npx vite build');
const created = values.database ? null : await createPostgresDatabase(values.url);
const databaseUrl = values.database ?? created!.url;
const dataDir = mkdtempSync(join(tmpdir(), 'reconcile-table-bench-'));
const config = readConfig({
  DATABASE_URL: databaseUrl,
  FILES_BACKEND: 'postgres',
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
});
const db = await openDatabase({ databaseUrl });
await prepareDatabase(db, config, MIN_SEED_USERS, new PostgresFileStorage(db));
const app = createApp({ db, config, staticDir: distDir });
const listening = await listen(app, { host: '127.0.0.1', port: 0 });
const { rows: admins } = await db.query<{ id: string }>(
  `SELECT id FROM users WHERE role = 'ADMIN' ORDER BY created_at LIMIT 1`,
);
const token = await createSession(db, admins[0]!.id, new Date());
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');

/** Imports the statement through the API unless the database already holds that many lines. */
async function ensureLines(): Promise<{ importSeconds: number | null; lines: number }> {
  const count = async () =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM statement_lines')).rows[0]!.n;
  if ((await count()) >= lineCount) return { importSeconds: null, lines: await count() };
  const { bytes, payouts, invoices } = statement();
  await db.query(
    `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::date[])`,
    payouts,
  );
  await db.query(
    `INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::date[])`,
    invoices,
  );
  await db.query('VACUUM ANALYZE');
  const { entries } = parseStatement(bytes);
  const query = new URLSearchParams({
    fileName: `extrato-tabela-${lineCount}.csv`,
    expectedLines: String(entries.length),
    expectedTotalCents: String(entries.reduce((sum, entry) => sum + entry.amountCents, 0)),
  });
  const started = performance.now();
  const response = await fetch(`${listening.url}/v2/admin/statements/imports?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    body: new Uint8Array(bytes),
  });
  if (response.status !== 202)
    throw new Error(`upload answered ${response.status}: ${await response.text()}`);
  let job = ((await response.json()) as { job: StatementImportJob }).job;
  while (job.status === 'RUNNING') {
    await new Promise((resolve) => setTimeout(resolve, 200));
    job = (await (
      await fetch(`${listening.url}/v2/admin/statements/imports/${job.id}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as StatementImportJob;
  }
  if (job.status !== 'DONE') throw new Error(`import ${job.status}: ${job.errorCode}`);
  await db.query('VACUUM ANALYZE');
  return { importSeconds: (performance.now() - started) / 1000, lines: await count() };
}

const browser = await launchBrowser();
try {
  const imported = await ensureLines();
  const { rows: byStatus } = await db.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM statement_lines GROUP BY status ORDER BY status',
  );
  console.error(`lines ready: ${JSON.stringify(imported)} ${JSON.stringify(byStatus)}; load ${load()}`);
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addCookies([{ name: 'authorization', value: token, url: listening.url }]);
  const page = await context.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __firstRows?: number; __longTasks: { start: number; ms: number }[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask', buffered: true });
    new MutationObserver((_, observer) => {
      if (w.__firstRows === undefined && document.querySelector('.statement-lines .data-table-body-row')) {
        observer.disconnect();
        requestAnimationFrame(() => {
          w.__firstRows = performance.now();
        });
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const loadAtStart = load();
  await page.goto(`${listening.url}/statements`, { waitUntil: 'commit' });
  await page.waitForFunction(
    () => (window as unknown as { __firstRows?: number }).__firstRows !== undefined,
    null,
    {
      timeout: 120_000,
    },
  );
  const firstRowsMs = await page.evaluate(() => (window as unknown as { __firstRows: number }).__firstRows);
  const total = await page.getByTestId('statement-lines-total').textContent();
  const scroller = '.statement-lines .data-table-scroll';
  // BENCH_PROFILE=file.cpuprofile: the page's main-thread CPU profile over both scrolls (DevTools format).
  const cdp = process.env.BENCH_PROFILE ? await context.newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }

  // Smooth: `step` pixels every animation frame for `frames` frames, measured in the page.
  const smooth = await page.evaluate(
    async ({ selector, frames, step }) => {
      const el = document.querySelector<HTMLElement>(selector)!;
      const w = window as unknown as { __longTasks: { start: number; ms: number }[] };
      const started = performance.now();
      let last = started;
      let longestFrame = 0;
      let maxRows = 0;
      for (let i = 0; i < frames; i++) {
        el.scrollTop += step;
        await new Promise(requestAnimationFrame);
        const now = performance.now();
        longestFrame = Math.max(longestFrame, now - last);
        last = now;
        maxRows = Math.max(
          maxRows,
          document.querySelectorAll('.statement-lines .data-table-body-row').length,
        );
      }
      const ended = performance.now();
      const tasks = w.__longTasks.filter((t) => t.start >= started && t.start <= ended);
      const rows = [...document.querySelectorAll('.statement-lines .data-table-body-row')];
      return {
        ms: Math.round(ended - started),
        fps: Math.round((frames / (ended - started)) * 1000),
        longestFrameMs: Math.round(longestFrame),
        longTasks: tasks.map((t) => Math.round(t.ms)),
        maxRows,
        reachedRow: Number(rows.at(-1)?.getAttribute('aria-rowindex') ?? 1) - 1,
      };
    },
    { selector: scroller, frames: Number(values.frames), step: Number(values.step) },
  );

  // Far: to the end of what is loaded, again and again, waiting each time for the next page.
  const farStarted = await page.evaluate(() => performance.now());
  const far = { jumps: 0, maxRows: 0, reachedRow: 0, rowsPerStep: [] as number[], stalls: 0 };
  for (let jump = 0; jump < Number(values.jumps); jump++) {
    const before = far.reachedRow;
    const step = await page.evaluate(async (selector) => {
      const el = document.querySelector<HTMLElement>(selector)!;
      el.scrollTop = el.scrollHeight;
      await new Promise(requestAnimationFrame);
      await new Promise(requestAnimationFrame);
      const rows = [...document.querySelectorAll('.statement-lines .data-table-body-row')];
      return { count: rows.length, last: Number(rows.at(-1)?.getAttribute('aria-rowindex') ?? 1) - 1 };
    }, scroller);
    far.jumps++;
    far.rowsPerStep.push(step.count);
    far.maxRows = Math.max(far.maxRows, step.count);
    far.reachedRow = Math.max(far.reachedRow, step.last);
    if (far.reachedRow >= imported.lines) break;
    if (far.reachedRow === before) {
      // The next page is on its way: wait for more rows (or give up after 10 s).
      far.stalls++;
      await page
        .waitForFunction(
          ({ selector, seen }) => {
            const table = document.querySelector(`${selector} table`);
            return Number(table?.getAttribute('aria-rowcount') ?? 0) - 1 > seen;
          },
          { selector: scroller, seen: far.reachedRow },
          { timeout: 10_000 },
        )
        .catch(() => undefined);
    }
  }
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
  }
  const farResult = await page.evaluate((since) => {
    const w = window as unknown as { __longTasks: { start: number; ms: number }[] };
    const tasks = w.__longTasks.filter((t) => t.start >= since);
    return {
      ms: Math.round(performance.now() - since),
      longTasks: tasks.map((t) => Math.round(t.ms)),
      heapMb: Math.round(
        (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize / 2 ** 20,
      ),
    };
  }, farStarted);
  const firstTasks = await page.evaluate(
    (until) =>
      (window as unknown as { __longTasks: { start: number; ms: number }[] }).__longTasks
        .filter((t) => t.start <= until)
        .map((t) => `${Math.round(t.start)}+${Math.round(t.ms)}`),
    firstRowsMs,
  );
  const histogram = (counts: number[]) =>
    Object.entries(
      counts.reduce<Record<number, number>>((acc, n) => {
        acc[n] = (acc[n] ?? 0) + 1;
        return acc;
      }, {}),
    ).map(([rows, times]) => `${rows}×${times}`);
  console.log(
    JSON.stringify(
      {
        node: process.version,
        lines: imported.lines,
        byStatus,
        importSeconds: imported.importSeconds && Number(imported.importSeconds.toFixed(1)),
        loadAtStart,
        loadAtEnd: load(),
        firstRowsMs: Math.round(firstRowsMs),
        longTasksBeforeFirstRows: firstTasks,
        totalShown: total,
        smooth,
        far: {
          jumps: far.jumps,
          stalls: far.stalls,
          reachedRow: far.reachedRow,
          maxRows: far.maxRows,
          rowElementsPerJump: histogram(far.rowsPerStep),
          ...farResult,
          longestTaskMs: Math.max(0, ...farResult.longTasks),
        },
        benchRssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
      },
      null,
      2,
    ),
  );
  if (values.keep && created) console.error(`kept: --database ${databaseUrl}`);
} finally {
  await browser.close();
  await listening.close();
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (created && !values.keep) await created.drop();
}
