// Export file writers at 1,000,000 rows: CSV (pt-PT), XLSX through fflate's streaming zip (two deflate
// levels), and exceljs' streaming WorkbookWriter for comparison (DESIGN §3 names both).
// Each case runs in a fresh process so its peak RSS is its own; the bytes go to a temp file through a
// Node write stream that is awaited on back-pressure (the library itself only yields chunks).
//   npx tsx bench/export-files.ts            all cases, writes bench/results/export-files.md
//   npx tsx bench/export-files.ts csv        one case, prints a JSON line
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { csvChunks, type ExportColumn, type ExportRow, xlsxChunks } from '../domain/export-files';
import { mib, runIsolated, writeResult } from './banking-report';

const N = Number(process.env.EXPORT_ROWS ?? 1_000_000);

const COLUMNS: ExportColumn[] = [
  { key: 'id', header: 'ID', kind: 'integer' },
  { key: 'name', header: 'Nome', kind: 'text' },
  { key: 'email', header: 'E-mail', kind: 'text' },
  { key: 'phone', header: 'Telemóvel', kind: 'text' },
  { key: 'nif', header: 'NIF', kind: 'text' },
  { key: 'city', header: 'Localidade', kind: 'text' },
  { key: 'birth', header: 'Data de nascimento', kind: 'date' },
  { key: 'created', header: 'Registado em', kind: 'datetime' },
  { key: 'spent', header: 'Total gasto (€)', kind: 'cents' },
  { key: 'active', header: 'Ativo', kind: 'boolean' },
];

const FIRST = [
  'João',
  'Maria',
  'Conceição',
  'José',
  'Inês',
  'António',
  'Beatriz',
  'Gonçalo',
  'Leonor',
  'Sebastião',
];
const LAST = [
  'Gonçalves',
  'Simões',
  'Araújo',
  'Conceição',
  'Magalhães',
  'Pereira',
  'Fernandes',
  'Brandão',
  'Lourenço',
];
const CITIES = [
  'Lisboa',
  'Porto',
  'Évora',
  'Coimbra',
  'Setúbal',
  'Faro',
  'Viseu',
  'Guimarães',
  'Ponta Delgada, Açores',
];
const PRICES = [2500, 3500, 4000, 4500, 6000, 7500, 12000]; // consultation prices repeat
const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
const FIRST_ASCII = FIRST.map(ascii);
const LAST_ASCII = LAST.map(ascii);

/** Realistic user rows, produced lazily (one object at a time, as a database cursor would). */
function* users(n: number): Generator<ExportRow> {
  const start = Date.UTC(2019, 0, 1);
  for (let i = 1; i <= n; i++) {
    const fi = i % FIRST.length;
    const li = (i * 7) % LAST.length;
    const first = FIRST[fi]!;
    const last = LAST[li]!;
    yield {
      id: i,
      name: i % 97 === 0 ? `${first} "Zé" ${last}` : `${first} ${last}`,
      email: `${FIRST_ASCII[fi]}.${LAST_ASCII[li]}${i}@exemplo.pt`,
      phone: i % 3 === 0 ? null : `+351 9${String(10_000_000 + ((i * 7919) % 89_999_999)).slice(0, 8)}`,
      nif: String(100_000_000 + ((i * 104_729) % 899_999_999)),
      city: CITIES[i % CITIES.length]!,
      birth: `${1940 + (i % 65)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
      created: new Date(start + i * 181_000),
      spent: PRICES[i % PRICES.length]! * (1 + (i % 5)),
      active: i % 11 !== 0,
    };
  }
}

interface CaseResult {
  name: string;
  rows: number;
  ms: number;
  cpuMs: number;
  bytes: number;
  rssStart: number;
  rssPeak: number;
  heapStart: number;
  heapPeak: number;
  /** RSS when a quarter, half, three quarters and all of the rows had been produced. */
  rssSeries: number[];
}

/** Samples heap and RSS every 50,000 rows (cheap) while rows are produced. */
function sampled(
  rows: Iterable<ExportRow>,
  peaks: { heap: number; rss: number; series: number[] },
): Iterable<ExportRow> {
  return (function* () {
    let i = 0;
    for (const r of rows) {
      if (++i % 50_000 === 0) {
        const m = process.memoryUsage();
        peaks.heap = Math.max(peaks.heap, m.heapUsed);
        peaks.rss = Math.max(peaks.rss, m.rss);
        if (i % (N / 4) === 0) peaks.series.push(m.rss);
      }
      yield r;
    }
  })();
}

async function pipeTo(file: string, chunks: AsyncIterable<Uint8Array>): Promise<void> {
  const out = createWriteStream(file);
  for await (const c of chunks) if (!out.write(c)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

async function exceljsXlsx(file: string, rows: Iterable<ExportRow>): Promise<void> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: file,
    useStyles: true,
    useSharedStrings: false,
  });
  const ws = wb.addWorksheet('Utilizadores');
  ws.columns = COLUMNS.map((c) => ({
    header: c.header,
    key: c.key,
    width: 16,
    style:
      c.kind === 'cents'
        ? { numFmt: '#,##0.00' }
        : c.kind === 'date'
          ? { numFmt: 'yyyy-mm-dd' }
          : c.kind === 'datetime'
            ? { numFmt: 'yyyy-mm-dd hh:mm:ss' }
            : {},
  }));
  for (const r of rows) {
    // exceljs takes floats for money and JS Dates (UTC); the fflate writer does exact cents and Lisbon time.
    ws.addRow({
      ...r,
      spent: (r.spent as number) / 100,
      birth: new Date(`${r.birth as string}T00:00:00Z`),
    }).commit();
  }
  ws.commit();
  await wb.commit();
}

async function runCase(name: string): Promise<CaseResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'export-bench-'));
  const file = path.join(dir, 'out');
  const peaks = { heap: 0, rss: 0, series: [] as number[] };
  globalThis.gc?.();
  const m0 = process.memoryUsage();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const rows = sampled(users(N), peaks);
  if (name === 'rows-only') {
    let k = 0;
    for (const _ of rows) k++;
    if (k !== N) throw new Error('rows');
  } else if (name === 'csv') await pipeTo(file, csvChunks(COLUMNS, rows, { locale: 'pt-PT' }));
  else if (name === 'xlsx')
    await pipeTo(file, xlsxChunks(COLUMNS, rows, { sheetName: 'Utilizadores', locale: 'pt-PT' }));
  else if (name.startsWith('xlsx-fflate-l')) {
    const level = Number(name.slice('xlsx-fflate-l'.length)) as 1 | 6;
    const options = { sheetName: 'Utilizadores', locale: 'pt-PT', deflate: 'fflate', level } as const;
    await pipeTo(file, xlsxChunks(COLUMNS, rows, options));
  } else if (name === 'exceljs') await exceljsXlsx(file, rows);
  else throw new Error(`unknown case ${name}`);
  const used = process.cpuUsage(cpu);
  const ms = performance.now() - t;
  const m1 = process.memoryUsage();
  peaks.heap = Math.max(peaks.heap, m1.heapUsed);
  const bytes = name === 'rows-only' ? 0 : statSync(file).size;
  rmSync(dir, { recursive: true, force: true });
  return {
    name,
    rows: N,
    ms,
    cpuMs: (used.user + used.system) / 1000,
    bytes,
    rssStart: m0.rss,
    rssPeak: Math.max(peaks.rss, process.resourceUsage().maxRSS * 1024),
    heapStart: m0.heapUsed,
    heapPeak: peaks.heap,
    rssSeries: peaks.series,
  };
}

const script = fileURLToPath(import.meta.url);
const only = process.argv[2];
if (only) {
  console.log(JSON.stringify(await runCase(only)));
} else {
  const cases = (
    process.env.EXPORT_CASES ?? 'rows-only,csv,xlsx,xlsx-fflate-l6,xlsx-fflate-l1,exceljs'
  ).split(',');
  const results = cases.map((c) => runIsolated<CaseResult>(script, c));
  const rate = (r: CaseResult, t: number) => `${Math.round(r.rows / (t / 1000)).toLocaleString('en-GB')}`;
  const lines = results.map(
    (r) =>
      `| ${r.name} | ${(r.ms / 1000).toFixed(1)} s | ${(r.cpuMs / 1000).toFixed(1)} s | ${rate(r, r.ms)} | ${rate(r, r.cpuMs)} | ${r.bytes ? mib(r.bytes) : '—'} | ${mib(r.rssStart)} → ${mib(r.rssPeak)} (+${mib(r.rssPeak - r.rssStart)}) | ${mib(r.heapStart)} → ${mib(r.heapPeak)} (+${mib(r.heapPeak - r.heapStart)}) | ${r.rssSeries.map((x) => (x / 2 ** 20).toFixed(0)).join(' / ')} |`,
  );
  writeResult(
    'export-files',
    `npx tsx bench/export-files.ts${process.env.EXPORT_ROWS ? ` (EXPORT_ROWS=${N})` : ''}`,
    [
      `${N.toLocaleString('en-GB')} user rows × ${COLUMNS.length} columns (accented names, e-mails, phones that get neutralised, NIF, dates, Lisbon datetimes, repeated amounts), generated lazily and written to a temp file through a Node write stream. One fresh process per case; times include producing the rows (see rows-only).`,
      '',
      '| case | wall | CPU | rows/s (wall) | rows/s (CPU) | file | RSS start → peak (growth) | heap start → peak sampled (growth) | RSS MiB at ¼ / ½ / ¾ / all rows |',
      '|---|---|---|---|---|---|---|---|---|',
      ...lines,
      '',
      'Budgets (DESIGN.md §9): CSV ≥ 100,000 rows/s, XLSX ≥ 30,000 rows/s, memory growth ≤ 100 MB.',
    ].join('\n'),
  );
}
