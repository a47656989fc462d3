// Reconciliation at import scale: N bank entries against N expected items, three data sets, several
// sizes, each case in its own process (so its peak RSS is its own).
//   npx tsx bench/banking-match.ts [--sizes 10000,100000,300000] [--sets unique,repeated,noref] [--runs 3]
//
// - unique:   50 % SEPA by EndToEndId, 20 % payouts by id in the description, 20 % invoices by
//             amount + counterparty + date, 10 % with no counterpart; amounts almost all distinct.
// - repeated: the same mix, amounts drawn from 20 values (consultation prices and payouts repeat).
// - noref:    a CSV-like statement (CSV exports carry no EndToEndId): 90 % invoices found only by
//             amount + counterparty + date, 10 % with no counterpart; amounts from 20 values.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { reconcile } from '../domain/reconcile/match';
import { type DataSet, dataSet } from './banking-match-data';
import { mib, runIsolated, timeMs, writeResult } from './banking-report';

interface CaseResult {
  set: DataSet;
  n: number;
  runs: number;
  ms: number;
  cpuMs: number;
  peakRss: number;
  loadAtStart: string;
  counts: string;
}

const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

function runCase(spec: string): CaseResult {
  const [set, nText, runsText] = spec.split(':') as [DataSet, string, string];
  const n = Number(nText);
  const loadAtStart = loadavg();
  const { entries, items } = dataSet(set, n);
  let result = reconcile(entries, items); // warm-up
  const runs = Array.from({ length: Number(runsText) }, () =>
    timeMs(() => {
      result = reconcile(entries, items);
    }),
  );
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return {
    set,
    n,
    runs: runs.length,
    ms: median(runs.map((r) => r.ms)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
    peakRss: process.resourceUsage().maxRSS * 1024,
    loadAtStart,
    counts: `${result.matches.length} / ${result.suggestions.length} / ${result.unmatchedEntries.length} / ${result.unmatchedItems.length}`,
  };
}

function arg(name: string, fallback: string): string {
  const k = process.argv.indexOf(`--${name}`);
  return k > 0 ? process.argv[k + 1]! : fallback;
}

const single = process.argv[2];
if (single && !single.startsWith('--')) {
  process.stdout.write(`${JSON.stringify(runCase(single))}\n`);
} else {
  const sizes = arg('sizes', '10000,100000,300000').split(',').map(Number);
  const sets = arg('sets', 'unique,repeated,noref').split(',') as DataSet[];
  const runs = Number(arg('runs', '3'));
  const script = fileURLToPath(import.meta.url);
  const rows: CaseResult[] = [];
  for (const set of sets)
    for (const n of sizes) {
      const r = runIsolated<CaseResult>(script, `${set}:${n}:${runs}`);
      process.stderr.write(`${JSON.stringify(r)}\n`);
      rows.push(r);
    }
  const table = rows
    .map(
      (r) =>
        `| ${r.set} | ${r.n.toLocaleString('en-GB')} | ${r.ms.toFixed(0)} ms | ${r.cpuMs.toFixed(0)} ms | ${mib(r.peakRss)} | ${r.loadAtStart} | ${r.counts} |`,
    )
    .join('\n');
  const args = process.argv.slice(2).join(' ');
  writeResult(
    'banking-match',
    `npx tsx bench/banking-match.ts${args ? ` ${args}` : ''}`,
    'N bank entries × N expected items. Data sets: `unique` = 50 % SEPA by EndToEndId, 20 % payouts by id in the description, 20 % invoices by amount + counterparty + date, 10 % unmatched, amounts almost all distinct; `repeated` = the same mix with amounts drawn from 20 values; `noref` = a CSV-like statement, 90 % invoices by amount + counterparty + date only, 10 % unmatched, amounts from 20 values. ' +
      `Each case in its own process: data generated, one warm-up, then ${runs} timed run(s), median shown. Peak RSS is the whole process (data generation included).\n\n` +
      '| data set | N × N | wall (median) | CPU (median) | peak RSS | load at start (1/5/15 min) | matches / suggestions / unmatched entries / unmatched items |\n|---|---|---|---|---|---|---|\n' +
      table +
      '\n\nBudget (DESIGN.md §9): the matcher 100k × 100k ≤ 1 s, also when amounts repeat.',
  );
}
