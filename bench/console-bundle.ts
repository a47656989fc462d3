// Console first load against DESIGN.md §9 (entry + preloads ≤ 150 kB gzip; screens and papaparse lazy).
// Run: npx tsx bench/console-bundle.ts — exits 1 when over budget or when papaparse, cmdk or uPlot is in the first load.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';

const BUDGET_BYTES = 150 * 1024;

mkdirSync('.tmp', { recursive: true });
const outDir = mkdtempSync(join('.tmp', 'bundle-'));
const result = (await build({
  logLevel: 'silent',
  build: { outDir, emptyOutDir: true },
})) as Rollup.RollupOutput;
const html = readFileSync(join(outDir, 'index.html'), 'utf8');
// What the first page load fetches: index.html's script and stylesheet, and what they preload.
const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map(
  (m) => m[1] as string,
);
const gz = (file: string) => gzipSync(readFileSync(join(outDir, file))).length;
const lazy = result.output.filter((o) => o.type === 'chunk' && !initial.includes(o.fileName));
const inFirstLoad = (pkg: string) =>
  result.output.some(
    (o) =>
      o.type === 'chunk' &&
      initial.includes(o.fileName) &&
      Object.keys(o.modules).some((m) => new RegExp(`[\\\\/]node_modules[\\\\/]${pkg}[\\\\/]`).test(m)),
  );
const papaparseInitial = inFirstLoad('papaparse');
// The palette's dialog is lazy (docs/decisions/0053); its keyboard handling and commands are not.
const cmdkInitial = inFirstLoad('cmdk');
// The home dashboard's charts load after its counters (issue 13).
const uplotInitial = inFirstLoad('uplot');
const rows = initial.map((file) => ({ file, gzip: gz(file) }));
rmSync(outDir, { recursive: true, force: true });

const total = rows.reduce((sum, row) => sum + row.gzip, 0);
const overBudget = total > BUDGET_BYTES;
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
const load = loadavg()
  .map((n) => n.toFixed(2))
  .join(', ');
const report = `# Console bundle size

Command: \`npx tsx bench/console-bundle.ts\` (vite production build; sizes are gzip level 6).
Measured: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, load average ${load} (1/5/15 min; sizes do not depend on it).

| loaded on first visit | gzip |
|---|---:|
${rows.map((r) => `| ${r.file.replace(/-[A-Za-z0-9_-]{8}\./, '-[hash].')} | ${kb(r.gzip)} |`).join('\n')}
| **total** | **${kb(total)}** |

Budget (DESIGN.md §9): first load (entry + preloads) ≤ ${kb(BUDGET_BYTES)} gzip — ${overBudget ? 'OVER BUDGET' : 'within budget'}.
Lazily loaded chunks: ${lazy.length}. papaparse in the first load: ${papaparseInitial ? 'yes (wrong)' : 'no'}. cmdk in the first load: ${cmdkInitial ? 'yes (wrong)' : 'no'}. uPlot in the first load: ${uplotInitial ? 'yes (wrong)' : 'no'}.
`;
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/console-bundle.md', report);
console.log(report);
if (overBudget || papaparseInitial || cmdkInitial || uplotInitial) {
  console.error('console-bundle: over budget, or a lazy library in the first load (see above)');
  process.exitCode = 1;
}
