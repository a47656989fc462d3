// /statements in Chromium: a 100,000-line statement chosen in the file picker → the first preview rows
// on screen (parsed in the preview worker, issue 12 item 2), and every main-thread long task (> 50 ms,
// PerformanceObserver 'longtask') from the choice until the server has said which lines are new.
// Two files: a quoted CSV of a Portuguese bank (';', decimal commas, amounts from 20 values, some
// descriptions with the delimiter or a line break inside quotes) and a camt.053 with 100,000 entries.
//   npx vite build && npx tsx bench/statement-preview.ts [--lines 100000] [--runs 3] [--formats csv,camt053]
// The API runs in this process on PGlite (the preview asks it only for the known lines).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
    lines: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
    /** Comma-separated: csv, camt053. */
    formats: { type: 'string', default: 'csv,camt053' },
  },
});
const lines = Number(values.lines);

/** Consultation prices and payouts repeat: 20 amounts, both signs. */
const AMOUNTS = Array.from({ length: 20 }, (_, i) => 2_500 + i * 250);
const day = (i: number) => {
  const d = new Date(Date.UTC(2026, 0, 1) + (i % 300) * 86_400_000);
  return d.toISOString().slice(0, 10);
};
const euros = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;

function quotedCsv(n: number): string {
  const rows = ['"Data Mov.";"Data Valor";"Descrição";"Montante";"Saldo"'];
  let balance = 1_000_000_00;
  for (let i = 0; i < n; i++) {
    const amount = (i % 3 === 0 ? -1 : 1) * (AMOUNTS[i % AMOUNTS.length] as number);
    balance += amount;
    const [y, m, d] = day(i).split('-');
    const description =
      i % 50 === 0
        ? `TRF SEPA; ref ${i}\nDr. Exemplo ${i % 997}`
        : `TRF ${i % 2 ? 'RECEBIDA' : 'EMITIDA'} Dr. Exemplo ${i % 997}`;
    rows.push(
      `"${d}-${m}-${y}";"${d}-${m}-${y}";"${description.replaceAll('"', '""')}";"${euros(amount)}";"${euros(balance)}"`,
    );
  }
  return `${rows.join('\r\n')}\r\n`;
}

function camt053(n: number): string {
  const entries: string[] = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    const cents = AMOUNTS[i % AMOUNTS.length] as number;
    const debit = i % 3 === 0;
    total += debit ? -cents : cents;
    entries.push(
      `<Ntry><NtryRef>${i + 1}</NtryRef><Amt Ccy="EUR">${(cents / 100).toFixed(2)}</Amt><CdtDbtInd>${debit ? 'DBIT' : 'CRDT'}</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>${day(i)}</Dt></BookgDt><ValDt><Dt>${day(i)}</Dt></ValDt><AcctSvcrRef>REF${i}</AcctSvcrRef><NtryDtls><TxDtls><Refs><EndToEndId>E2E-${i}</EndToEndId></Refs><RltdPties><${debit ? 'Cdtr' : 'Dbtr'}><Nm>Dr. Exemplo ${i % 997}</Nm></${debit ? 'Cdtr' : 'Dbtr'}></RltdPties><RmtInf><Ustrd>Consulta ${i}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
    );
  }
  const opening = 1_000_000_00;
  const bal = (code: string, cents: number) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${(Math.abs(cents) / 100).toFixed(2)}</Amt><CdtDbtInd>${cents < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>2026-01-01</Dt></Dt></Bal>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>BENCH</MsgId><CreDtTm>2026-11-01T06:00:00+00:00</CreDtTm></GrpHdr><Stmt><Id>BENCH-1</Id><CreDtTm>2026-11-01T06:00:00+00:00</CreDtTm><Acct><Id><IBAN>PT50003500010001234567805</IBAN></Id><Ccy>EUR</Ccy></Acct>${bal('OPBD', opening)}${bal('CLBD', opening + total)}
${entries.join('\n')}
</Stmt></BkToCstmrStmt></Document>
`;
}

const distDir = fileURLToPath(new URL('../dist/', import.meta.url));
if (!existsSync(join(distDir, 'index.html'))) throw new Error('build the console first: npx vite build');
const dataDir = mkdtempSync(join(tmpdir(), 'statement-preview-bench-'));
const makers: Record<string, { path: string; text: () => string }> = {
  csv: { path: join(dataDir, `extrato-${lines}.csv`), text: () => quotedCsv(lines) },
  camt053: { path: join(dataDir, `extrato-${lines}.camt.053.xml`), text: () => camt053(lines) },
};
const files: Record<string, string> = {};
for (const format of values.formats.split(',')) {
  const maker = makers[format];
  if (!maker) throw new Error(`unknown format ${format}`);
  writeFileSync(maker.path, maker.text());
  files[format] = maker.path;
}

const config = readConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' });
const db = await openDatabase({});
await prepareDatabase(db, config, 60);
const app = createApp({ db, config, staticDir: distDir });
const listening = await listen(app, { host: '127.0.0.1', port: 0 });
const browser = await launchBrowser();

interface Run {
  firstRowsMs: number;
  previewDoneMs: number;
  knownDoneMs: number;
  longTasks: string[];
  longestTaskMs: number;
  maxDomRows: number;
  /** The page's JS heap once the preview is complete (Chromium's performance.memory). */
  pageHeapMb: number;
}

try {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM users WHERE admin_data IS NOT NULL ORDER BY created_at LIMIT 1',
  );
  const token = await createSession(db, rows[0]!.id, new Date());
  const results: Record<string, Run[]> = {};
  for (const [format, path] of Object.entries(files)) {
    results[format] = [];
    for (let run = 0; run < Number(values.runs); run++) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      await context.addCookies([{ name: 'authorization', value: token, url: listening.url }]);
      const page = await context.newPage();
      // Inside the page: the moment the file is chosen (the input's change event), the frame after the
      // first preview row is attached, and every long task.
      await page.addInitScript(() => {
        const w = window as unknown as {
          __chosen?: number;
          __firstRows?: number;
          __longTasks: PerformanceEntry[];
        };
        w.__longTasks = [];
        new PerformanceObserver((list) => w.__longTasks.push(...list.getEntries())).observe({
          type: 'longtask',
          buffered: true,
        });
        document.addEventListener('change', () => (w.__chosen = performance.now()), true);
        new MutationObserver(() => {
          if (
            w.__firstRows === undefined &&
            document.querySelector('.statement-preview .data-table-body-row')
          )
            requestAnimationFrame(() => (w.__firstRows ??= performance.now()));
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(`${listening.url}/statements`);
      await page.getByTestId('statement-file').waitFor();
      await page.getByTestId('statement-file').setInputFiles(path);
      await page.waitForFunction(
        () => (window as unknown as { __firstRows?: number }).__firstRows !== undefined,
        null,
        {
          timeout: 120_000,
        },
      );
      await page.getByTestId('statement-summary').waitFor({ timeout: 120_000 });
      const previewDone = await page.evaluate(() => performance.now());
      // A CSV's guessed mapping is accepted as it is (the admin's one keypress), then the server is asked.
      if (format === 'csv') await page.getByRole('button', { name: 'Usar este mapeamento' }).click();
      await page.waitForFunction(
        () =>
          /\d/.test(document.querySelector('[data-testid="statement-known"]')?.textContent ?? '') &&
          !document.querySelector('[data-testid="statement-known"]')?.textContent?.includes('…'),
        null,
        { timeout: 120_000 },
      );
      const knownDone = await page.evaluate(() => performance.now());
      const pageHeapMb = await page.evaluate(
        () =>
          (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize / 2 ** 20,
      );
      let maxDomRows = 0;
      const scroller = page.locator('.statement-preview-scroll');
      for (let i = 0; i < 40; i++) {
        await scroller.evaluate((el) => {
          el.scrollTop += el.clientHeight * 50;
        });
        maxDomRows = Math.max(
          maxDomRows,
          await page.locator('.statement-preview .data-table-body-row').count(),
        );
      }
      const timing = await page.evaluate(() => {
        const w = window as unknown as {
          __chosen: number;
          __firstRows: number;
          __longTasks: PerformanceEntry[];
        };
        return {
          chosen: w.__chosen,
          firstRows: w.__firstRows,
          longTasks: w.__longTasks
            .filter((t) => t.startTime >= w.__chosen)
            .map((t) => ({ start: t.startTime - w.__chosen, duration: t.duration })),
        };
      });
      const inWindow = timing.longTasks.filter((t) => t.start <= knownDone - timing.chosen);
      results[format].push({
        firstRowsMs: Math.round(timing.firstRows - timing.chosen),
        previewDoneMs: Math.round(previewDone - timing.chosen),
        knownDoneMs: Math.round(knownDone - timing.chosen),
        longTasks: inWindow.map((t) => `${Math.round(t.start)}+${Math.round(t.duration)}`),
        longestTaskMs: Math.round(Math.max(0, ...inWindow.map((t) => t.duration))),
        maxDomRows,
        pageHeapMb: Math.round(pageHeapMb),
      });
      await context.close();
    }
  }
  const benchRssMb = Math.round(process.memoryUsage().rss / 2 ** 20);
  console.log(
    JSON.stringify({ lines, node: process.version, load: loadavg(), benchRssMb, results }, null, 2),
  );
} finally {
  await browser.close();
  await listening.close();
  await db.close();
  if (!process.env.BENCH_KEEP_FILES) rmSync(dataDir, { recursive: true, force: true });
  else console.log(dataDir);
}
