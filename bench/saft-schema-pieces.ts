// The SAF-T schema check in pieces (decision 0163) on a month of 100,000 invoices (gzip, as an upload): the
// time and CPU of `saftSchemaErrors` and the process's peak RSS, for several piece sizes, each in a process
// of its own (libxml2-wasm's memory only grows, so one size's peak would hide the next's). Run alone it
// measures every size; `--piece-mib N` measures one and prints its row. `--receipts`: the month billed with
// invoices (FT) and a receipt (RG) each, its Payments section as many entries again (decision 0170).
//   npx tsx bench/saft-schema-pieces.ts [--rows 100000] [--sizes 1,2,4,8,16] [--receipts] [--out bench/results/saft-schema-pieces.md]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'fflate';
import type { DemoPayment } from '../server/seed/demo-payments';
import { writeDemoSaft } from '../server/seed/source-files';
import { SAFT_SCHEMA_PIECE_CHARS, saftSchemaErrors } from '../server/sources/saft-schema';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    sizes: { type: 'string', default: '1,2,4,8,16' },
    'piece-mib': { type: 'string' },
    receipts: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const N = Number(values.rows);
const MiB = 1_048_576;
const MONTH = '2031-01';
const RECEIPTS = values.receipts === true;

const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

/** The month bench/sources-import.ts imports: N payments, 20,000 customers, six prices, one in 50 refunded. */
function payments(count: number): DemoPayment[] {
  return Array.from({ length: count }, (_, i) => ({
    reference: `${String(i).padStart(8, '0')}-4e3b-4a7c-9d2e-${String((i * 7919) % 1e12).padStart(12, '0')}`,
    kind: i % 4 === 0 ? 'subscription' : 'case',
    customerId: `u${i % 20_000}`,
    customerName: `Cliente ${i % 20_000}`,
    customerTaxId: i % 3 === 0 ? null : String(200_000_000 + (i % 20_000)),
    grossCents: [1500, 2500, 3500, 4500, 1990, 2990][i % 6]!,
    paidOn: `${MONTH}-${String(1 + (i % 28)).padStart(2, '0')}`,
    paymentIntentId: i % 4 === 0 ? `pi_${String(i).padStart(24, '0')}` : null,
    refunded: i % 50 === 0,
  }));
}

async function one(pieceMib: number): Promise<string> {
  const xml = new TextEncoder().encode(
    writeDemoSaft(MONTH, payments(Math.round(N / 1.02)), '2031-02-01', { receipts: RECEIPTS }),
  );
  const upload = gzipSync(xml, { level: 6 });
  const xmlMib = xml.length / MiB;
  const before = rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 10);
  let pieces = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const check = await saftSchemaErrors(upload, {
    pieceChars: pieceMib * MiB,
    onProgress: () => {
      pieces++;
      peak = Math.max(peak, rss());
    },
  });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  if (!check.checked || check.errors.length > 0) throw new Error(`not valid: ${JSON.stringify(check)}`);
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');
  return `| ${pieceMib} MiB | ${N.toLocaleString('en-GB')}${RECEIPTS ? ' + receipts' : ''} | ${xmlMib.toFixed(0)} MiB | ${pieces} | **${(ms / 1000).toFixed(2)} s** | ${((used.user + used.system) / 1e6).toFixed(2)} s | ${(before / MiB).toFixed(0)} → ${(peak / MiB).toFixed(0)} MiB | ${load} |`;
}

if (values['piece-mib']) console.log(await one(Number(values['piece-mib'])));
else {
  const rows = values.sizes!.split(',').map((size) => {
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        '--rows',
        String(N),
        '--piece-mib',
        size,
        ...(RECEIPTS ? ['--receipts'] : []),
      ],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    const row = out.trim().split('\n').at(-1)!;
    console.log(row);
    return row;
  });
  const report = `# The SAF-T schema check in pieces (decision 0163)

Command: \`npx tsx bench/saft-schema-pieces.ts --rows ${N}${RECEIPTS ? ' --receipts' : ''}\` — each piece size in a process of its own.
Node ${process.version}; ${cpus().length} cores, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB, shared with other sessions (load per row).

The month of \`bench/sources-import.ts\` (the demo's SAF-T writer, 20,000 customers), gzip, checked by
\`saftSchemaErrors\` as the import job does: decompressed, decoded, cut into pieces (the default is
${SAFT_SCHEMA_PIECE_CHARS / MiB} MiB of entries) and each validated by libxml2-wasm against the official XSD read as 1.0. RSS is the
process's, before the check (the file generated) and its peak during it. The whole document at once was 9.3 s
and 1.8 GiB for the same month (decision 0152).

| piece | invoices | XML | pieces | time | CPU | RSS before → peak | load (1/5/15 min) |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
  if (values.out) writeFileSync(values.out, report);
  else console.log(report);
}
