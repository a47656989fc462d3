// Writing a 10,000-transaction pain.001.001.03 file, and validating it against the XSD.
import { fileURLToPath } from 'node:url';
import type { SepaBatch } from '../domain/sepa/validate-batch';
import { writePain001 } from '../domain/sepa/write-pain001';
import { painSchemaErrors } from '../server/pain-schema';
import { mib, timeMs, writeResult } from './banking-report';

const N = 10_000;
const IBANS = [
  'PT50003300004567890123437',
  'PT50001000001112223334480',
  'PT50000700009876543210144',
  'DE89370400440532013000',
];
const batch: SepaBatch = {
  messageId: 'BENCH-2099-06-0001',
  executionDate: '2099-06-01',
  debtor: { name: 'Consultas Exemplo, Lda.', iban: 'PT50003500010001234567805', bic: 'CGDIPTPL' },
  transactions: Array.from({ length: N }, (_, i) => ({
    endToEndId: `STL-2099-06-DOC${String(i).padStart(5, '0')}`,
    creditorName: `Dra. Conceição Gonçalves Simões nº ${i}`,
    creditorIban: IBANS[i % IBANS.length]!,
    creditorBic: i % 5 === 0 ? 'bbpiptpl' : null,
    amountCents: ((i * 7919) % 900_000) + 100,
    remittanceInformation: `Honorários consultas Junho/2099 & outros ${i}`,
  })),
};

writePain001(batch);
const runs = Array.from({ length: 5 }, () => {
  let xml = '';
  const t = timeMs(() => {
    const r = writePain001(batch);
    if (!r.ok) throw new Error(JSON.stringify(r.errors.slice(0, 3)));
    xml = r.xml;
  });
  return { ...t, xml };
});
const median = <T>(xs: T[], key: (x: T) => number) =>
  xs.map(key).sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const xml = runs[0]!.xml;
const xsdFile = fileURLToPath(
  new URL('../../shared/fixtures/banking/xsd/pain.001.001.03.xsd', import.meta.url),
);

/** Wall and CPU time of an async step (CPU includes every thread of the process). */
async function timeAsync<T>(fn: () => Promise<T>): Promise<{ ms: number; cpuMs: number; value: T }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000, value };
}

// Cold: the first call loads the wasm module and compiles the XSD (once per process), then validates.
const cold = await timeAsync(() => painSchemaErrors(xml, xsdFile));
if (cold.value.length > 0) throw new Error(cold.value.slice(0, 3).join('\n'));
// Warm: the same compiled schema reused, as in a server or a CLI run that checks several files.
const warm = [];
for (let i = 0; i < 5; i++) {
  const r = await timeAsync(() => painSchemaErrors(xml, xsdFile));
  if (r.value.length > 0) throw new Error(r.value.slice(0, 3).join('\n'));
  warm.push(r);
}

const write = median(runs, (r) => r.ms);
const writeCpu = median(runs, (r) => r.cpuMs);
const validate = median(warm, (r) => r.ms);
const validateCpu = median(warm, (r) => r.cpuMs);
writeResult(
  'banking-sepa',
  'npx tsx bench/banking-sepa.ts',
  `${N.toLocaleString('en-GB')} transactions (Portuguese names transliterated, 1 in 5 with a creditor BIC), one warm-up, then 5 runs.\n\n` +
    '| step | wall | CPU |\n|---|---|---|\n' +
    `| validate + write (median of 5) | ${write.toFixed(0)} ms | ${writeCpu.toFixed(0)} ms |\n` +
    `| XSD validation, first call (loads libxml2-wasm, compiles the XSD, validates) | ${cold.ms.toFixed(0)} ms | ${cold.cpuMs.toFixed(0)} ms |\n` +
    `| XSD validation, schema already compiled (median of 5) | ${validate.toFixed(0)} ms | ${validateCpu.toFixed(0)} ms |\n` +
    `| **written + schema-valid, warm process** (write + warm validation) | **${(write + validate).toFixed(0)} ms** | ${(writeCpu + validateCpu).toFixed(0)} ms |\n` +
    `| written + schema-valid, fresh process (write + first call) | ${(write + cold.ms).toFixed(0)} ms | ${(writeCpu + cold.cpuMs).toFixed(0)} ms |\n\n` +
    `File size ${(xml.length / 2 ** 20).toFixed(1)} MiB; schema-valid: true. ` +
    `Peak RSS of the process: ${mib(process.resourceUsage().maxRSS * 1024)}.\n\n` +
    'Budget (DESIGN.md §9): 10,000 transactions written and schema-valid ≤ 1 s.',
);
