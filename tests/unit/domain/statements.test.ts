import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { parseCamt053 } from '../../../domain/statements/camt053';
import { parseCsvStatement } from '../../../domain/statements/csv';
import { decodeBytes } from '../../../domain/statements/decode';
import { detectFormat, parseStatement } from '../../../domain/statements/detect';
import { parseField86, parseMt940 } from '../../../domain/statements/mt940';
import type { StatementEntry } from '../../../domain/statements/types';
import { sample } from './shared-fixtures';

const FIXTURES = fileURLToPath(new URL('../../fixtures/statements/', import.meta.url));

const FIELDS = [
  'bookingDate',
  'valueDate',
  'amountCents',
  'currency',
  'description',
  'counterpartyName',
  'counterpartyIban',
  'bankReference',
  'endToEndId',
  'batchId',
  'kind',
  'returnReason',
  'lineNumber',
].sort();

function wellFormed(entries: StatementEntry[]) {
  for (const e of entries) {
    expect(Object.keys(e).sort()).toEqual(FIELDS);
    expect(e.bookingDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isSafeInteger(e.amountCents)).toBe(true);
  }
}

describe('shared samples', () => {
  it('the synthetic camt.053 gives the batch expanded, the credit, the fee and the return', () => {
    const r = parseStatement(sample('synthetic-statement-pt.camt.053.001.02.xml'));
    expect(r.format).toBe('camt053');
    expect(r.errors).toEqual([]);
    expect(r.balance).toEqual({ opening: 2000000, closing: 1849805, consistent: true });
    wellFormed(r.entries);
    expect(r.entries.map((e) => [e.amountCents, e.kind, e.endToEndId, e.batchId])).toEqual([
      [-125000, 'transfer', 'STL-2026-04-DOC0042', 'PAYOUT-2026-04-0001-B1'],
      [-321085, 'transfer', 'STL-2026-04-DOC0107', 'PAYOUT-2026-04-0001-B1'],
      [-12050, 'transfer', 'STL-2026-04-DOC0311', 'PAYOUT-2026-04-0001-B1'],
      [296040, 'transfer', null, null],
      [-150, 'fee', null, null],
      [12050, 'return', 'STL-2026-04-DOC0311', null],
    ]);
    expect(r.entries[0]).toMatchObject({
      bookingDate: '2026-05-05',
      valueDate: '2026-05-05',
      currency: 'EUR',
      counterpartyName: 'Joana Conceicao Goncalves',
      counterpartyIban: 'PT50003300004567890123437',
      bankReference: 'CGD20260505TRF000981',
      description: 'Honorarios consultas 2026-04 STL-2026-04-DOC0042',
    });
    expect(r.entries[4]!.description).toBe('COMISSAO TRF SEPA LOTE PAYOUT-2026-04-0001');
    expect(r.entries[5]).toMatchObject({
      returnReason: 'AC04',
      counterpartyName: 'Ines Baptista Lobo',
      bookingDate: '2026-05-07',
    });
    expect(new Set(r.entries.map((e) => e.lineNumber)).size).toBe(6);
  });

  it('the genkgo camt.053 keeps identifiers as text and reports its inconsistent balance', () => {
    const r = parseStatement(sample('camt053.v2.minimal.xml'));
    expect(r.format).toBe('camt053');
    expect(r.entries).toHaveLength(1);
    wellFormed(r.entries);
    expect(r.balance?.consistent).toBe(false);
    expect(r.errors.map((e) => e.code)).toEqual(['BALANCE_MISMATCH']);
  });

  it('the cmxl MT940 (three statements) parses and balances', () => {
    const r = parseStatement(sample('mt940.sta'));
    expect(r.format).toBe('mt940');
    expect(r.errors).toEqual([]);
    expect(r.entries).toHaveLength(16);
    expect(r.balance).toEqual({ opening: 8434974, closing: 5004000, consistent: true });
    wellFormed(r.entries);
    expect(r.entries[0]).toMatchObject({ bookingDate: '2013-10-17', amountCents: -680000, currency: 'DEM' });
    const mueller = r.entries.find((e) => e.amountCents === -80000)!;
    expect(mueller).toMatchObject({
      valueDate: '2002-11-01',
      bookingDate: '2002-11-02',
      counterpartyName: 'MUELLER',
      bankReference: '55555',
    });
  });

  it('the German SEPA MT940 gives EREF/SVWZ sub-fields and a non-fatal balance mismatch', () => {
    const r = parseStatement(sample('sepa_snippet.sta'));
    expect(r.entries).toHaveLength(11);
    expect(r.errors).toEqual([{ line: 55, code: 'BALANCE_MISMATCH', statement: 1 }]);
    expect(r.statements.map((s) => [s.statementId, s.entryCount, s.balance?.consistent])).toEqual([
      ['T089414086000001', 4, true],
      ['T089414096000001', 7, false],
    ]);
    expect(r.balance?.consistent).toBe(false);
    expect(r.entries[0]).toMatchObject({
      endToEndId: 'EndToEndId TFNR 22 004 00001',
      counterpartyIban: 'DE14508800500194785000',
      amountCents: 5099005,
      kind: 'transfer',
    });
    expect(r.entries[0]!.description).toBe('GUTSCHRIFT Verw CTSc-01 BC-PPP TFNr 22 004');
    expect(r.entries.filter((e) => e.kind === 'return')).toHaveLength(4);
  });
});

describe('camt variants', () => {
  const v08 = `<?xml version="1.0"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt>
<Bal><Tp><CdOrPrtry><Cd>PRCD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd></Bal>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">5.00</Amt><CdtDbtInd>DBIT</CdtDbtInd></Bal>
<Ntry><Amt Ccy="EUR">15.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><DtTm>2026-05-05T10:00:00</DtTm></BookgDt>
  <BkTxCd><Prtry><Cd>CHRG</Cd></Prtry></BkTxCd>
  <NtryDtls><Btch><MsgId>M1</MsgId></Btch><TxDtls><Refs><EndToEndId>A</EndToEndId></Refs></TxDtls><TxDtls><Refs><EndToEndId>B</EndToEndId></Refs></TxDtls></NtryDtls></Ntry>
<Ntry><Amt Ccy="EUR">99.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>PDNG</Cd></Sts><BookgDt><Dt>2026-05-06</Dt></BookgDt></Ntry>
<Ntry><Amt Ccy="EUR">3.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><RvslInd>true</RvslInd><BookgDt><Dt>2026-05-06</Dt></BookgDt></Ntry>
<Ntry><Amt Ccy="EUR">3,00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-05-06</Dt></BookgDt></Ntry>
</Stmt></BkToCstmrStmt></Document>`;

  it('reads .08 status codes, DtTm dates, unexpandable batches, reversals; skips pending entries', () => {
    const r = parseStatement(v08);
    expect(
      r.entries.map((e) => [e.lineNumber, e.bookingDate, e.amountCents, e.kind, e.batchId, e.endToEndId]),
    ).toEqual([
      [5, '2026-05-05', -1500, 'fee', 'M1', null],
      [9, '2026-05-06', 300, 'return', null, null],
    ]);
    // The pending entry is skipped and listed, not an error (issue 27; it used to be ENTRY_NOT_BOOKED).
    expect(r.errors).toEqual([
      { line: 5, code: 'BATCH_NOT_EXPANDED', statement: 0 },
      { line: 10, code: 'INVALID_AMOUNT', statement: 0 },
      { line: 10, code: 'BALANCE_MISMATCH', statement: 0 },
    ]);
    expect(r.skipped).toEqual([
      {
        statement: 0,
        line: 8,
        reason: 'PENDING',
        bookingDate: '2026-05-06',
        amountCents: 9900,
        description: '',
      },
    ]);
    expect(r.balance).toEqual({ opening: 1000, closing: -500, consistent: false });
  });
});

describe('camt entries read as they close (decision 0103)', () => {
  const ntry = (cents: number, ccy?: string) =>
    `<Ntry><Amt${ccy ? ` Ccy="${ccy}"` : ''}>${(cents / 100).toFixed(2)}</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-05-05</Dt></BookgDt></Ntry>`;
  const camt = (...statements: string[][]) =>
    `<Document><BkToCstmrStmt>${statements.map((parts) => `<Stmt>${parts.join('\n')}</Stmt>`).join('\n')}</BkToCstmrStmt></Document>`;
  const acct = (ccy: string) =>
    `<Acct><Id><IBAN>PT50003500010001234567805</IBAN></Id><Ccy>${ccy}</Ccy></Acct>`;

  it('streams the very entries it returns, in order, before the end of the file', () => {
    const streamed: StatementEntry[] = [];
    const r = parseStatement(sample('synthetic-statement-pt.camt.053.001.02.xml'), {
      onEntries: (entries) => streamed.push(...entries),
    });
    expect(r.entries).toHaveLength(6);
    expect(streamed).toHaveLength(6);
    for (const [i, entry] of streamed.entries()) expect(entry).toBe(r.entries[i]);
  });

  it('reads an entry again when the account currency comes after it', () => {
    const streamed: StatementEntry[] = [];
    const r = parseCamt053(camt([ntry(100), acct('USD'), ntry(200)]), {
      onEntries: (entries) => streamed.push(...entries),
    });
    expect(r.entries.map((e) => [e.amountCents, e.currency])).toEqual([
      [100, 'USD'],
      [200, 'USD'],
    ]);
    expect(streamed.map((e) => e.currency)).toEqual(['EUR', 'USD']);
    expect(streamed[0]).not.toBe(r.entries[0]);
    expect(streamed[1]).toBe(r.entries[1]);
  });

  it('returns nothing for a file cut short, whatever it streamed', () => {
    const xml = camt([acct('EUR'), ntry(100), ntry(200)]);
    const streamed: StatementEntry[] = [];
    const r = parseCamt053(xml.slice(0, xml.lastIndexOf('</Stmt>')), {
      onEntries: (entries) => streamed.push(...entries),
    });
    expect(streamed).toHaveLength(2);
    expect(r.entries).toEqual([]);
    expect(r.errors[0]!.code).toBe('UNCLOSED_XML');
  });

  it("each entry's currency is its own, else its statement's first account currency, else EUR (property)", () => {
    const part = fc.oneof(
      fc.record({ kind: fc.constant('acct' as const), ccy: fc.constantFrom('USD', 'GBP', 'CHF') }),
      fc.record({
        kind: fc.constant('ntry' as const),
        cents: fc.integer({ min: 1, max: 10_000 }),
        ccy: fc.option(fc.constantFrom('EUR', 'JPY'), { nil: undefined }),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(part, { maxLength: 6 }), { minLength: 1, maxLength: 3 }),
        (statements) => {
          const expected = statements.flatMap((parts) => {
            const account = parts.find((p) => p.kind === 'acct')?.ccy;
            return parts.flatMap((p) => (p.kind === 'ntry' ? [[p.cents, p.ccy ?? account ?? 'EUR']] : []));
          });
          const xml = camt(
            ...statements.map((parts) =>
              parts.map((p) => (p.kind === 'acct' ? acct(p.ccy) : ntry(p.cents, p.ccy))),
            ),
          );
          const streamed: StatementEntry[] = [];
          const r = parseCamt053(xml, { onEntries: (entries) => streamed.push(...entries) });
          expect(r.entries.map((e) => [e.amountCents, e.currency])).toEqual(expected);
          expect(streamed).toHaveLength(expected.length);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('MT940 :86: variants', () => {
  it('reads Dutch /TAG/ sub-fields', () => {
    expect(
      parseField86(
        '/TRTP/SEPA OVERBOEKING/IBAN/NL91ABNA0417164300/BIC/ABNANL2A/NAME/J. Jansen/REMI/USTD//Factuur 42/EREF/E2E-1/',
      ),
    ).toMatchObject({
      counterpartyName: 'J. Jansen',
      counterpartyIban: 'NL91ABNA0417164300',
      endToEndId: 'E2E-1',
      description: 'Factuur 42',
    });
    expect(parseField86('/RTRN/AC04/EREF/STL-1/NAME/X').returnReason).toBe('AC04');
  });

  it('reports bad lines and keeps going', () => {
    const r = parseMt940(
      ':20:X\n:60F:C260101EUR100,00\n:61:2601XXC5,00NTRF\n:61:260102C5,00NTRFREF//B1\n:86:free text\n:62F:C260102EUR105,00\n',
    );
    expect(r.errors).toEqual([{ line: 3, code: 'INVALID_TRANSACTION_LINE', statement: 0 }]);
    expect(r.entries).toHaveLength(1);
    expect(r.entries[0]).toMatchObject({ description: 'free text', bankReference: 'B1', amountCents: 500 });
    expect(r.balance?.consistent).toBe(true);
  });
});

const CGD =
  'Consultar saldos e movimentos à ordem\nConta;0001234567805\nPeríodo;01-05-2026 a 07-05-2026\n' +
  'Data mov.;Data valor;Descrição;Débito;Crédito;Saldo contabilístico;Saldo disponível;Categoria\n' +
  '05-05-2026;05-05-2026;TRF SEPA+ 0000981 LOTE PAYOUT;4.581,35;;15.418,65;15.418,65;Transferências\n' +
  '05-05-2026;05-05-2026;TRF CR SEPA+ 0000030 DE ADQUIRENTE EXEMPLO;;2.960,40;18.379,05;18.379,05;\n' +
  '06-05-2026;06-05-2026;COMISSAO TRF SEPA;1,50;;18.377,55;18.377,55;Comissões\n' +
  ';;;Saldo final;18.377,55;;;\n';

describe('CSV exports', () => {
  it('reads a CGD-style export (preamble, debit/credit columns, summary line)', () => {
    const r = parseCsvStatement(CGD);
    expect(r.errors).toEqual([]);
    wellFormed(r.entries);
    expect(r.entries.map((e) => [e.lineNumber, e.bookingDate, e.amountCents, e.kind])).toEqual([
      [5, '2026-05-05', -458135, 'transfer'],
      [6, '2026-05-05', 296040, 'transfer'],
      [7, '2026-05-06', -150, 'fee'],
    ]);
  });

  it('detects windows-1252, UTF-16LE with BOM and UTF-8', () => {
    const bytes1252 = Uint8Array.from(
      [...CGD].map((c) => ({ à: 0xe0, í: 0xed, ç: 0xe7, ã: 0xe3, é: 0xe9, õ: 0xf5 })[c] ?? c.charCodeAt(0)),
    );
    expect(decodeBytes(bytes1252)).toEqual({ text: CGD, encoding: 'windows-1252' });
    const utf16 = new Uint8Array(2 + CGD.length * 2);
    utf16.set([0xff, 0xfe]);
    [...CGD].forEach((c, i) => {
      utf16[2 + 2 * i] = c.charCodeAt(0) & 0xff;
      utf16[3 + 2 * i] = c.charCodeAt(0) >> 8;
    });
    expect(decodeBytes(utf16)).toEqual({ text: CGD, encoding: 'utf-16le' });
    for (const bytes of [bytes1252, utf16, new TextEncoder().encode(CGD)]) {
      expect(parseStatement(bytes).entries).toHaveLength(3);
    }
  });

  it('reads a windows-1252 export with € and accented names (bytes written by hand)', () => {
    // ASCII as text, every other byte as its windows-1252 code: € 0x80, á 0xE1, ã 0xE3, ç 0xE7,
    // é 0xE9, í 0xED, ó 0xF3, õ 0xF5, Â 0xC2, º 0xBA. Nothing here is produced by the decoder under test.
    const bytes = (...parts: (string | number)[]) =>
      Uint8Array.from(
        parts.flatMap((p) =>
          typeof p === 'number'
            ? [p]
            : [...p].map((c) => {
                if (c.charCodeAt(0) > 0x7f) throw new Error('ASCII only');
                return c.charCodeAt(0);
              }),
        ),
      );
    const file = bytes(
      'Conta ',
      0xe0,
      ' ordem;PT50 0035 0001 0001 2345 6780 5\r\n',
      'Data mov.;Data valor;Descri',
      0xe7,
      0xe3,
      'o;Benefici',
      0xe1,
      'rio;D',
      0xe9,
      'bito;Cr',
      0xe9,
      'dito\r\n',
      '05-05-2026;05-05-2026;TRF SEPA+ Honor',
      0xe1,
      'rios 120,50 ',
      0x80,
      ';Jo',
      0xe3,
      'o Concei',
      0xe7,
      0xe3,
      'o;120,50;\r\n',
      '06-05-2026;06-05-2026;"Consulta n',
      0xba,
      ' 7; ',
      0x80,
      ' 45";',
      0xc2,
      'ngela Sim',
      0xf5,
      'es;;45,00\r\n',
      '07-05-2026;07-05-2026;Cl',
      0xed,
      'nica Ant',
      0xf3,
      'nio ',
      0x80,
      '1,50;;1,50;\r\n',
    );
    expect(decodeBytes(file).encoding).toBe('windows-1252');
    const r = parseStatement(file);
    expect(r.encoding).toBe('windows-1252');
    expect(r.accountIban).toBe('PT50003500010001234567805');
    expect(r.errors).toEqual([]);
    expect(r.csv?.header).toEqual([
      'Data mov.',
      'Data valor',
      'Descrição',
      'Beneficiário',
      'Débito',
      'Crédito',
    ]);
    expect(r.entries.map((e) => [e.lineNumber, e.amountCents, e.description, e.counterpartyName])).toEqual([
      [3, -12050, 'TRF SEPA+ Honorários 120,50 €', 'João Conceição'],
      [4, 4500, 'Consulta nº 7; € 45', 'Ângela Simões'],
      [5, -150, 'Clínica António €1,50', null],
    ]);
  });

  it('decodes 0x80–0x9F through the windows-1252 table, undefined bytes as C1 controls (WHATWG)', () => {
    // Expected text written by hand from the WHATWG index-windows-1252 (27 defined characters; 0x81,
    // 0x8D, 0x8F, 0x90 and 0x9D stay C1 controls), not computed by the code under test.
    const bytes = new Uint8Array(readFileSync(`${FIXTURES}cgd-windows-1252-c1.csv`));
    for (let b = 0x80; b <= 0x9f; b++) expect(bytes.includes(b)).toBe(true);
    const r = parseStatement(bytes);
    expect(decodeBytes(bytes).encoding).toBe('windows-1252');
    expect(r.errors).toEqual([]);
    expect(r.entries.map((e) => [e.description, e.amountCents])).toEqual([
      ['TRF €\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f', -1250],
      ['DD \u0090‘’“”•–—˜™š›œ\u009džŸ', -310],
    ]);
  });

  it('does not rely on the runtime TextDecoder for windows-1252 (some builds decode it as latin-1)', () => {
    // What Node 20.20 does (and builds without full ICU): 0x80–0x9F come out as U+0080–U+009F.
    class Latin1For1252 extends TextDecoder {
      readonly #latin1: boolean;
      constructor(label?: string, options?: TextDecoderOptions) {
        super(label, options);
        this.#latin1 = this.encoding === 'windows-1252';
      }
      override decode(input?: AllowSharedBufferSource, options?: TextDecodeOptions): string {
        if (!this.#latin1 || !(input instanceof Uint8Array)) return super.decode(input, options);
        return Array.from(input, (b) => String.fromCharCode(b)).join('');
      }
    }
    vi.stubGlobal('TextDecoder', Latin1For1252);
    try {
      expect(new TextDecoder('windows-1252').decode(Uint8Array.of(0x80))).toBe('\u0080');
      expect(decodeBytes(Uint8Array.of(0x80, 0x20, 0x93, 0x96, 0x94))).toEqual({
        text: '€ “–”',
        encoding: 'windows-1252',
      });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('reads a BPI-style signed amount, tabs (Montepio), commas, ISO and slash dates', () => {
    const bpi =
      'Data Mov.;Data Valor;Descrição;Valor;Saldo\n07/05/2026;07/05/2026;DEVOLUCAO TRF;120,50;1,00\n08/05/2026;08/05/2026;DD EDP;-1 234,56;2,00\n';
    expect(parseStatement(bpi).entries.map((e) => [e.bookingDate, e.amountCents, e.kind])).toEqual([
      ['2026-05-07', 12050, 'return'],
      ['2026-05-08', -123456, 'other'],
    ]);
    const montepio =
      'DATA MOV.\tDATA VALOR\tDESCRIÇÃO\tIMPORTÂNCIA\tSALDO\n2026-05-07\t2026-05-07\tTRF\t-12,00\t3\n';
    expect(parseStatement(montepio).entries[0]).toMatchObject({
      amountCents: -1200,
      bookingDate: '2026-05-07',
    });
    const en = 'Date,Description,Amount,Currency\n07/05/2026,"Card, shop",-12.00,EUR\n';
    expect(parseStatement(en).entries[0]).toMatchObject({
      amountCents: -1200,
      description: 'Card, shop',
      currency: 'EUR',
    });
  });

  it('accepts an explicit mapping by name or index', () => {
    const odd = 'Quando|O quê|Quanto\n07-05-2026|Renda|(500,00)\n';
    expect(
      parseCsvStatement(odd, {
        delimiter: '|',
        bookingDate: 'Quando',
        description: 'O quê',
        amount: 'Quanto',
      }).entries[0],
    ).toMatchObject({
      amountCents: -50000,
      description: 'Renda',
    });
    const noHeader = '07-05-2026;Renda;500,00-\n';
    expect(
      parseCsvStatement(noHeader, { bookingDate: 0, description: 1, amount: 2, headerLine: 0 }).entries[0],
    ).toMatchObject({ amountCents: -50000 });
  });

  it('reports line errors instead of throwing', () => {
    const bad =
      'Data;Descrição;Valor\n31-02-2026;X;1,00\n01-03-2026;Y;abc\n02-03-2026;Z;\n03-03-2026;W;2,00\n';
    const r = parseCsvStatement(bad);
    expect(r.entries).toHaveLength(1);
    expect(r.errors).toEqual([
      { line: 2, code: 'INVALID_DATE' },
      { line: 3, code: 'INVALID_AMOUNT' },
      { line: 4, code: 'MISSING_AMOUNT' },
    ]);
    expect(parseCsvStatement('just,some\ntext,here\n').errors).toEqual([
      { line: 1, code: 'HEADER_NOT_FOUND' },
    ]);
  });
});

describe('hostile input', () => {
  it('refuses entity declarations before parsing', () => {
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>' +
      '<Document><BkToCstmrStmt><Stmt><Ntry><AddtlNtryInf>&lol2;</AddtlNtryInf></Ntry></Stmt></BkToCstmrStmt></Document>';
    expect(parseStatement(bomb)).toMatchObject({
      format: 'camt053',
      entries: [],
      errors: [{ line: 1, code: 'DOCTYPE_NOT_ALLOWED' }],
    });
  });

  it('reports truncated or non-camt XML', () => {
    const xml = new TextDecoder().decode(sample('synthetic-statement-pt.camt.053.001.02.xml'));
    expect(parseCamt053(xml.slice(0, 3000)).errors[0]!.code).toBe('UNCLOSED_XML');
    expect(parseCamt053('<Document><A></B></Document>').errors).toEqual([{ line: 1, code: 'MALFORMED_XML' }]);
    expect(parseCamt053('<Document><Other/></Document>').errors).toEqual([{ line: 1, code: 'NOT_CAMT' }]);
  });

  it('bounds huge lines and files', () => {
    const huge = `Data;Descrição;Valor\n01-03-2026;${'x'.repeat(200_000)};1,00\n02-03-2026;ok;2,00\n`;
    expect(parseCsvStatement(huge)).toMatchObject({
      entries: [{ amountCents: 200 }],
      errors: [{ line: 2, code: 'LINE_TOO_LONG' }],
    });
    expect(parseMt940(`:20:X\n:86:${'y'.repeat(20_000)}\n:62F:C260101EUR0,00\n`).errors).toEqual([
      { line: 2, code: 'LINE_TOO_LONG' },
    ]);
    expect(parseStatement(new Uint8Array(2048), { maxBytes: 1024 }).errors).toEqual([
      { line: 0, code: 'FILE_TOO_LARGE' },
    ]);
  });

  it('detects the format', () => {
    expect(detectFormat('\uFEFF  <?xml version="1.0"?>')).toBe('camt053');
    expect(detectFormat(':20:REF\n:25:ACC')).toBe('mt940');
    expect(detectFormat('a;b;c')).toBe('csv');
  });

  it('never throws, whatever the bytes (property)', () => {
    // Strings glued from one format's own fragments, so the parser gets past its first checks.
    const glued = (maxLength: number, ...fragments: string[]) =>
      fc.array(fc.constantFrom(...fragments), { maxLength }).map((p) => p.join(''));
    const xmlish = glued(
      40,
      '<Ntry>',
      '</Ntry>',
      '<Amt Ccy="EUR">',
      '1.00',
      '</Amt>',
      '<Stmt>',
      '<Document>',
      '<BkToCstmrStmt>',
      '&amp;',
      'x',
    );
    const mtish = glued(
      30,
      ':20:X\n',
      ':60F:C260101EUR1,00\n',
      ':61:260101C1,NTRF\n',
      ':86:?20EREF+',
      '\n',
      '-\n',
      ':62F:D',
    );
    const csvish = glued(30, 'Data;Valor\n', '01-01-2026;', '1,00', ';', '"', '\n', 'Débito;Crédito\n');
    fc.assert(
      fc.property(
        fc.oneof(xmlish, mtish, csvish, fc.string()),
        fc.uint8Array({ maxLength: 300 }),
        (text, bytes) => {
          for (const input of [text, bytes]) {
            const r = parseStatement(input);
            expect(Array.isArray(r.entries) && Array.isArray(r.errors)).toBe(true);
            wellFormed(r.entries);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
