// Statement parsing at import scale: 100,000 CSV lines and a 100,000-entry camt.053.
// Each case runs in its own process so its peak RSS is its own.
import { fileURLToPath } from 'node:url';
import { parseStatement } from '../domain/statements/detect';
import { mib, runIsolated, timeMs, writeResult } from './banking-report';

const N = 100_000;

function csv(n: number): Uint8Array {
  const lines = [
    'Consultar saldos e movimentos',
    'Conta;0001234567805',
    '',
    'Data mov.;Data valor;Descrição;Débito;Crédito;Saldo contabilístico;Saldo disponível;Categoria',
  ];
  for (let i = 0; i < n; i++) {
    const d = `${String((i % 28) + 1).padStart(2, '0')}-05-2026`;
    const cents = ((i * 7919) % 500_000) + 1;
    const amount = `${Math.floor(cents / 100)
      .toLocaleString('pt-PT')
      .replace(/\s/g, '.')},${String(cents % 100).padStart(2, '0')}`;
    lines.push(
      `${d};${d};TRF SEPA+ ${i} DE NOME DO ORDENANTE ${i % 977};${i % 3 ? amount : ''};${i % 3 ? '' : amount};1.000,00;1.000,00;Outros`,
    );
  }
  lines.push(';;;Saldo final;1.000,00;;;');
  // windows-1252, as the banks send it: exercises the encoding fallback too.
  const text = lines.join('\r\n');
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

const PRICES = [
  2500, 3000, 3500, 4000, 4500, 5000, 5500, 6000, 6500, 7000, 7500, 8000, 9000, 10000, 12000, 15000, 1990,
  2990, 3990, 4990,
];

/**
 * A CSV as banks' exports and Excel write them: UTF-8 with BOM, CRLF, every text cell quoted, some
 * descriptions holding the separator and doubled quotes, amounts from 20 values (prices repeat).
 */
function quotedCsv(n: number): string {
  const lines = [
    '"Consultar saldos e movimentos"',
    '"Conta";"0001234567805"',
    '',
    '"Data mov.";"Data valor";"Descrição";"Débito";"Crédito";"Saldo contabilístico";"Saldo disponível";"Categoria"',
  ];
  for (let i = 0; i < n; i++) {
    const d = `${String((i % 28) + 1).padStart(2, '0')}-05-2026`;
    const cents = PRICES[(Math.imul(i, 0x9e3779b1) >>> 16) % PRICES.length]!;
    const amount = `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
    const description =
      i % 4 === 0
        ? `TRF CR SEPA+ ${i} DE "CLÍNICA ${i % 977}; LDA"`
        : `TRF SEPA+ ${i} DE NOME DO ORDENANTE ${i % 977}`;
    lines.push(
      `"${d}";"${d}";"${description.replace(/"/g, '""')}";${i % 3 ? amount : ''};${i % 3 ? '' : amount};"1.000,00";"1.000,00";"Outros"`,
    );
  }
  lines.push(';;;"Saldo final";"1.000,00";;;');
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** UTF-16 little-endian, BOM first (the text starts with U+FEFF): what some banks' "Unicode" export writes. */
function utf16le(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes[2 * i] = unit & 0xff;
    bytes[2 * i + 1] = unit >> 8;
  }
  return bytes;
}

function camt(n: number): string {
  const parts: string[] = [];
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const cents = ((i * 7919) % 500_000) + 1;
    const credit = i % 3 === 0;
    sum += credit ? cents : -cents;
    parts.push(
      `<Ntry><NtryRef>${i}</NtryRef><Amt Ccy="EUR">${(cents / 100).toFixed(2)}</Amt><CdtDbtInd>${credit ? 'CRDT' : 'DBIT'}</CdtDbtInd><Sts>BOOK</Sts>` +
        `<BookgDt><Dt>2026-05-05</Dt></BookgDt><ValDt><Dt>2026-05-05</Dt></ValDt><AcctSvcrRef>REF${i}</AcctSvcrRef>` +
        '<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>' +
        `<NtryDtls><TxDtls><Refs><EndToEndId>STL-${i}</EndToEndId></Refs><RltdPties><Cdtr><Nm>Nome ${i}</Nm></Cdtr>` +
        '<CdtrAcct><Id><IBAN>PT50003300004567890123437</IBAN></Id></CdtrAcct></RltdPties>' +
        `<RmtInf><Ustrd>Honorarios ${i}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
    );
  }
  const bal = (code: string, cents: number) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${(Math.abs(cents) / 100).toFixed(2)}</Amt><CdtDbtInd>${cents < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>2026-05-05</Dt></Dt></Bal>`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>' +
    '<GrpHdr><MsgId>B</MsgId><CreDtTm>2026-05-05T06:00:00</CreDtTm></GrpHdr><Stmt><Id>S</Id><CreDtTm>2026-05-05T06:00:00</CreDtTm>' +
    `<Acct><Id><IBAN>PT50003500010001234567805</IBAN></Id></Acct>${bal('OPBD', 0)}${bal('CLBD', sum)}\n${parts.join('\n')}\n</Stmt></BkToCstmrStmt></Document>`
  );
}

interface CaseResult {
  name: string;
  inputMiB: number;
  ms: number;
  cpuMs: number;
  entries: number;
  errors: number;
  consistent: boolean | null;
  peakRss: number;
}

function runCase(name: string): CaseResult {
  const input =
    name === 'csv'
      ? csv(N)
      : name === 'csv-quoted'
        ? new TextEncoder().encode(quotedCsv(N))
        : name === 'csv-utf16'
          ? utf16le(quotedCsv(N))
          : camt(N);
  const size = typeof input === 'string' ? input.length : input.byteLength;
  let result = parseStatement(input);
  const { ms, cpuMs } = timeMs(() => {
    result = parseStatement(input);
  });
  return {
    name,
    inputMiB: size / 2 ** 20,
    ms,
    cpuMs,
    entries: result.entries.length,
    errors: result.errors.length,
    consistent: result.balance?.consistent ?? null,
    peakRss: process.resourceUsage().maxRSS * 1024,
  };
}

const LABELS: Record<string, string> = {
  csv: 'CSV (windows-1252, ; , debit/credit columns, no quotes, amounts mostly distinct)',
  'csv-quoted': 'CSV (UTF-8 BOM, CRLF, ; , every text cell quoted, 1 in 4 with ; and "" inside, 20 amounts)',
  'csv-utf16': 'CSV (the quoted one above as UTF-16LE with BOM)',
  camt: 'camt.053.001.02',
};

const which = process.argv[2];
if (which) {
  process.stdout.write(`${JSON.stringify(runCase(which))}\n`);
} else {
  const script = fileURLToPath(import.meta.url);
  const rows = ['csv', 'csv-quoted', 'csv-utf16', 'camt'].map((c) => runIsolated<CaseResult>(script, c));
  const table = rows
    .map(
      (r) =>
        `| ${LABELS[r.name]} | ${r.entries} | ${r.inputMiB.toFixed(1)} MiB | ${r.ms.toFixed(0)} ms | ${r.cpuMs.toFixed(0)} ms | ${Math.round((r.entries / r.ms) * 1000).toLocaleString('en-GB')} | ${mib(r.peakRss)} | ${r.errors} | ${r.consistent} |`,
    )
    .join('\n');
  writeResult(
    'banking-parse',
    'npx tsx bench/banking-parse.ts',
    '100,000 generated lines/entries, parsed once to warm up and then timed (decode + detect + parse). Peak RSS is the whole process (input generation included), one process per case.\n\n' +
      '| input | entries | size | wall time | CPU time | rows/s (wall) | peak RSS | errors | balance consistent |\n|---|---|---|---|---|---|---|---|---|\n' +
      table +
      '\n\nBudget (DESIGN.md §9): 100,000 CSV lines parsed and previewed in Chromium ≤ 2 s (this is the Node figure for the parser alone; the browser measurement belongs to the import screen).',
  );
}
