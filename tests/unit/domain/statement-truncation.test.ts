// Issue 27: a statement file cut short must never import an entry the complete file does not have
// (`-45.310,90` for `-45.310,92`, imported, then doubled by the complete file). Cut at any byte, a file
// gives errors (it is refused), or exactly the first entries of the complete file (the rest comes with it).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStatement } from '../../../domain/statements/detect';

const REAL = fileURLToPath(new URL('../../fixtures/statements/real/', import.meta.url));

/** The complete file reads without errors; each of the given cuts errs or reads a prefix of its entries. */
function checkCuts(bytes: Uint8Array, cuts: Iterable<number>): void {
  const complete = parseStatement(bytes);
  expect(complete.errors).toEqual([]);
  expect(complete.entries.length).toBeGreaterThan(0);
  for (const at of cuts) {
    const cut = parseStatement(bytes.subarray(0, at));
    if (cut.errors.length > 0) continue;
    expect({ at, entries: cut.entries }).toEqual({
      at,
      entries: complete.entries.slice(0, cut.entries.length),
    });
  }
}

/** `1234567` → `12345.67` (cents as an unsigned decimal). */
const decimal = (cents: number) => {
  const abs = Math.abs(cents);
  return `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

const allCuts = (bytes: Uint8Array) => Array.from({ length: bytes.length }, (_, at) => at);

describe('a statement cut at any byte is refused or reads a prefix of the complete file', () => {
  it.each([
    'made-here-cgd-complete.csv',
    'made-here-cgd-nib-account-a.csv',
    'made-here-mt940-two-accounts-return-fee.sta',
    'cmxl-multi-account.sta',
    'jejik-rabobank-iban.sta',
    'citi.sta',
    'genkgo-camt053-v2-multi-statement.xml',
  ])('%s, at every byte', (file) => {
    const bytes = new Uint8Array(readFileSync(`${REAL}${file}`));
    checkCuts(bytes, allCuts(bytes));
  });

  // Generated statements: amounts, accented texts (UTF-8, so a cut can fall inside a character),
  // several statements or accounts, optional final line break.
  const entry = fc.record({
    cents: fc.integer({ min: -9_999_999, max: 9_999_999 }).filter((c) => c !== 0),
    day: fc.integer({ min: 1, max: 28 }),
    text: fc.constantFrom(
      'TRF SEPA+ 0000983 LOTE PAYOUT',
      'DEVOLUÇÃO TRF AC04 STL-2026-05-DOC0042',
      'COMISSÃO MANUTENÇÃO',
      'IMPOSTO DO SELO',
      'TRF CR SEPA+ 0000031 DE CLÍNICA SÃO JOÃO',
    ),
  });
  const statement = fc.record({
    opening: fc.integer({ min: -9_999_999, max: 9_999_999 }),
    entries: fc.array(entry, { minLength: 1, maxLength: 5 }),
  });
  const dd = (day: number) => String(day).padStart(2, '0');
  const mtAmount = (cents: number) => decimal(cents).replace('.', ',');
  const mtBalance = (cents: number, day: number) =>
    `${cents < 0 ? 'D' : 'C'}2606${dd(day)}EUR${mtAmount(cents)}`;
  const utf8 = (text: string) => new TextEncoder().encode(text);
  /** A generated file as UTF-8 bytes and a cut anywhere in it (every byte equally likely). */
  const cutAnywhere = (files: fc.Arbitrary<string>) =>
    files.chain((text) => {
      const bytes = utf8(text);
      return fc.tuple(fc.constant(bytes), fc.integer({ min: 0, max: bytes.length }));
    });
  it('MT940 (property)', () => {
    const files = fc.tuple(fc.array(statement, { minLength: 1, maxLength: 3 }), fc.boolean()).map(
      ([statements, finalBreak]) =>
        statements
          .map((s, k) => {
            const closing = s.opening + s.entries.reduce((sum, e) => sum + e.cents, 0);
            const lines = s.entries.flatMap((e, i) => [
              `:61:2606${dd(e.day)}${e.cents < 0 ? 'D' : 'C'}${mtAmount(e.cents)}NTRFREF${k}-${i}//B${k}${i}`,
              `:86:${e.text}`,
              'SEGUNDA LINHA',
            ]);
            return [
              `:20:ST${k}`,
              `:25:PT5000350999000${k}876543280`,
              `:28C:${k + 1}/1`,
              `:60F:${mtBalance(s.opening, 1)}`,
              ...lines,
              `:62F:${mtBalance(closing, 28)}`,
              '-',
            ].join('\r\n');
          })
          .join('\r\n') + (finalBreak ? '\r\n' : ''),
    );
    fc.assert(
      fc.property(cutAnywhere(files), ([bytes, at]) => checkCuts(bytes, [at])),
      { numRuns: 300 },
    );
  });

  it('camt.053 (property)', () => {
    const camtAmount = decimal;
    const bal = (code: string, cents: number) =>
      `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${camtAmount(cents)}</Amt><CdtDbtInd>${cents < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>2026-06-01</Dt></Dt></Bal>`;
    const files = fc.array(statement, { minLength: 1, maxLength: 3 }).map(
      (statements) =>
        '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>\n' +
        statements
          .map((s, k) => {
            const closing = s.opening + s.entries.reduce((sum, e) => sum + e.cents, 0);
            const entries = s.entries.map(
              (e) =>
                `<Ntry><Amt Ccy="EUR">${camtAmount(e.cents)}</Amt><CdtDbtInd>${e.cents < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Sts>BOOK</Sts>` +
                `<BookgDt><Dt>2026-06-${dd(e.day)}</Dt></BookgDt><AddtlNtryInf>${e.text}</AddtlNtryInf></Ntry>\n`,
            );
            return `<Stmt><Id>S${k}</Id><Acct><Id><IBAN>PT50003509990009876543280</IBAN></Id></Acct>\n${bal('OPBD', s.opening)}${bal('CLBD', closing)}\n${entries.join('')}</Stmt>\n`;
          })
          .join('') +
        '</BkToCstmrStmt></Document>\n',
    );
    fc.assert(
      fc.property(cutAnywhere(files), ([bytes, at]) => checkCuts(bytes, [at])),
      { numRuns: 300 },
    );
  });

  it('CSV, CGD (debit/credit, balances, category), BPI (signed amount, balance) and plain layouts (property)', () => {
    const csvAmount = (cents: number) =>
      decimal(cents)
        .replace('.', ',')
        .replace(/\B(?=(\d{3})+,)/g, '.');
    const layouts = {
      cgd: {
        header:
          'Data mov.;Data valor;Descrição;Débito;Crédito;Saldo contabilístico;Saldo disponível;Categoria',
        row: (date: string, text: string, cents: number, balance: string) =>
          `${date};${date};${text};${cents < 0 ? csvAmount(cents) : ''};${cents > 0 ? csvAmount(cents) : ''};${balance};${balance};Outros`,
      },
      bpi: {
        header: 'Data Mov.;Data Valor;Descrição;Valor;Saldo',
        row: (date: string, text: string, cents: number, balance: string) =>
          `${date};${date};${text};${cents < 0 ? '-' : ''}${csvAmount(cents)};${balance}`,
      },
      plain: {
        header: 'Data;Descrição;Valor',
        row: (date: string, text: string, cents: number) =>
          `${date};${text};${cents < 0 ? '-' : ''}${csvAmount(cents)}`,
      },
    };
    const files = fc
      .tuple(
        statement,
        fc.constantFrom(...(Object.keys(layouts) as (keyof typeof layouts)[])),
        fc.boolean(),
        fc.boolean(),
      )
      .map(([s, layout, preamble, finalBreak]) => {
        const { header, row } = layouts[layout];
        let balance = s.opening;
        const rows = s.entries.map((e) => {
          balance += e.cents;
          return row(
            `${dd(e.day)}-06-2026`,
            e.text,
            e.cents,
            `${balance < 0 ? '-' : ''}${csvAmount(balance)}`,
          );
        });
        const head = preamble
          ? ['Consultar saldos e movimentos à ordem', 'Conta ;0035 0999 00098765432 80 - EUR']
          : [];
        // Without a line break after it, the plain layout's last row ends in its amount: complete when it
        // ends as the earlier amounts do (",99"), so a file of one movement must end its line (VALUE_CUT,
        // statement-structure.test.ts).
        const oneAmountAlone = layout === 'plain' && rows.length === 1;
        return [...head, header, ...rows].join('\r\n') + (finalBreak || oneAmountAlone ? '\r\n' : '');
      });
    fc.assert(
      fc.property(cutAnywhere(files), ([bytes, at]) => checkCuts(bytes, [at])),
      { numRuns: 500 },
    );
  });
});
