import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ibanIn } from '../../../domain/statements/account';
import { parseCsvStatement } from '../../../domain/statements/csv';
import { parseStatement } from '../../../domain/statements/detect';
import { CSV_FIELDS, type CsvMapping } from '../../../domain/statements/types';
import { sample } from './shared-fixtures';

// What the preview shows and the import sends back: the statement's account, how the bytes were
// decoded, and for CSV the header, delimiter and mapping that were used.

describe('the account of the statement', () => {
  it('comes from camt Acct/Id/IBAN and MT940 :25:', () => {
    expect(parseStatement(sample('synthetic-statement-pt.camt.053.001.02.xml')).accountIban).toBe(
      'PT50003500010001234567805',
    );
    expect(parseStatement(sample('camt053.v2.minimal.xml')).accountIban).toBe('NL26VAYB8060476890');
    // These banks write bank code / account number in :25:, not an IBAN: kept as written.
    expect(parseStatement(sample('mt940.sta')).accountIban).toBe('45050050/76198810');
    expect(parseStatement(sample('sepa_snippet.sta')).accountIban).toBe('50880050/0194787400888');
    const mt = ':20:X\n:25:PT50 0035 0001 0001 2345 6780 5EUR\n:60F:C260101EUR1,00\n:62F:C260101EUR1,00\n';
    expect(parseStatement(mt).accountIban).toBe('PT50003500010001234567805');
  });

  it('for CSV: an IBAN above the header, or in an account column, else null', () => {
    const preamble =
      'Movimentos da conta\nIBAN: PT50 0035 0001 0001 2345 6780 5;\nData;Descrição;Valor\n' +
      '07-05-2026;TRF PT50003300004567890123437;1,00\n';
    expect(parseStatement(preamble).accountIban).toBe('PT50003500010001234567805');
    const column = 'Data;Descrição;Valor;IBAN da conta\n07-05-2026;TRF;1,00;NL26VAYB8060476890\n';
    expect(parseStatement(column).accountIban).toBe('NL26VAYB8060476890');
    // A counterparty's IBAN in a data row is not the account's.
    const none =
      'Data;Descrição;Valor;IBAN\n07-05-2026;TRF PT50003500010001234567805;1,00;NL26VAYB8060476890\n';
    expect(parseStatement(none).accountIban).toBeNull();
  });

  it('is found inside text only when its check digits are right', () => {
    expect(ibanIn('conta PT50003500010001234567805EUR')).toBe('PT50003500010001234567805');
    expect(ibanIn('PT50003500010001234567806')).toBeNull();
    expect(ibanIn('10020030/1234567')).toBeNull();
  });
});

describe('the encoding', () => {
  it('is reported for bytes, null for text', () => {
    const csv = 'Data;Descrição;Valor\n07-05-2026;Renda;1,00\n';
    expect(parseStatement(csv).encoding).toBeNull();
    expect(parseStatement(new TextEncoder().encode(csv)).encoding).toBe('utf-8');
    expect(parseStatement(sample('mt940.sta')).encoding).toBe('utf-8');
  });
});

describe('the CSV layout', () => {
  const CGD =
    'Consultar saldos e movimentos\nConta;0001234567805\n' +
    'Data mov.;Data valor;Descrição;Débito;Crédito;Saldo\n' +
    '05-05-2026;05-05-2026;TRF SEPA;4.581,35;;15.418,65\n06-05-2026;06-05-2026;COMISSAO;1,50;;15.417,15\n';

  it('gives the header, the delimiter and the guessed mapping as column indexes', () => {
    const r = parseStatement(CGD);
    expect(r.csv).toEqual({
      header: ['Data mov.', 'Data valor', 'Descrição', 'Débito', 'Crédito', 'Saldo'],
      delimiter: ';',
      mapping: {
        bookingDate: 0,
        valueDate: 1,
        description: 2,
        debit: 3,
        credit: 4,
        headerLine: 3,
        delimiter: ';',
      },
    });
    expect(parseStatement(sample('mt940.sta')).csv).toBeNull();
  });

  it('gives back the mapping it was given, with the delimiter and header line it used', () => {
    const odd = 'Quando|O quê|Quanto\n07-05-2026|Renda|(500,00)\n';
    const mapping = { delimiter: '|', bookingDate: 'Quando', description: 'O quê', amount: 'Quanto' };
    expect(parseCsvStatement(odd, mapping).csv).toEqual({
      header: ['Quando', 'O quê', 'Quanto'],
      delimiter: '|',
      mapping: { ...mapping, headerLine: 1 },
    });
  });

  it('still shows the first row and the delimiter when no header is found, for the mapping editor', () => {
    const r = parseStatement('Quando;O quê;Quanto\n07-05-2026;Renda;5,00\n');
    expect(r.errors).toEqual([{ line: 1, code: 'HEADER_NOT_FOUND' }]);
    expect(r.csv).toEqual({
      header: ['Quando', 'O quê', 'Quanto'],
      delimiter: ';',
      mapping: { delimiter: ';' },
    });
    const mapped = parseStatement('Quando;O quê;Quanto\n07-05-2026;Renda;5,00\n', {
      mapping: { ...r.csv!.mapping, bookingDate: 0, description: 1, amount: 2, headerLine: 1 },
    });
    expect(mapped.entries.map((e) => [e.amountCents, e.description])).toEqual([[500, 'Renda']]);
  });

  it('reads the same entries and errors when its mapping is passed back (property)', () => {
    const header = fc.shuffledSubarray(
      ['Data', 'Data valor', 'Descrição', 'Valor', 'Saldo', 'Moeda', 'IBAN da conta'],
      {
        minLength: 2,
      },
    );
    const cell = fc.oneof(
      fc.constantFrom(
        '07-05-2026',
        '2026-05-08',
        '1,00',
        '-2.345,67',
        'EUR',
        'x',
        '',
        '"a;b"',
        'PT50003500010001234567805',
      ),
      fc.string({ maxLength: 6 }).filter((s) => !/[";\r\n]/.test(s)),
    );
    const preamble = fc.array(fc.array(cell, { maxLength: 3 }), { maxLength: 3 });
    const rows = fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { maxLength: 12 });
    fc.assert(
      fc.property(preamble, header, rows, (above, head, body) => {
        const text = [...above, head, ...body].map((r) => r.join(';')).join('\n');
        const first = parseStatement(text, { format: 'csv' });
        if (first.csv == null) throw new Error('a CSV without a layout');
        const again = parseStatement(text, { format: 'csv', mapping: first.csv.mapping });
        expect(again.entries).toEqual(first.entries);
        expect(again.errors).toEqual(first.errors);
        expect(again.csv?.header).toEqual(first.csv.header);
        expect(again.accountIban).toEqual(first.accountIban);
      }),
      { numRuns: 300 },
    );
  });
});

describe('whatever the input and the mapping (property)', () => {
  it('never throws, never falls back to UNREADABLE, and fills the new fields consistently', () => {
    const column = fc.oneof(
      fc.integer({ min: -2, max: 12 }),
      fc.string({ maxLength: 8 }),
      fc.constantFrom('Data', 'Valor'),
    );
    const mapping: fc.Arbitrary<CsvMapping> = fc.record(
      {
        ...Object.fromEntries(CSV_FIELDS.map((f) => [f, column])),
        headerLine: fc.integer({ min: -1, max: 6 }),
        delimiter: fc.oneof(
          fc.constantFrom(';', ',', '\t', '|', '', '"', '\n', ';;'),
          fc.string({ maxLength: 2 }),
        ),
      },
      { requiredKeys: [] },
    );
    const text = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc
        .array(
          fc.constantFrom(
            'Data;Valor;IBAN\n',
            '07-05-2026;',
            '1,00',
            ';',
            '"',
            '\r\n',
            'PT50003500010001234567805',
          ),
          {
            maxLength: 30,
          },
        )
        .map((p) => p.join('')),
    );
    fc.assert(
      fc.property(
        fc.oneof(text, fc.uint8Array({ maxLength: 200 })),
        fc.option(mapping, { nil: undefined }),
        (input, m) => {
          const r = parseStatement(input, { mapping: m });
          expect(r.errors.map((e) => e.code)).not.toContain('UNREADABLE');
          expect(r.accountIban === null || typeof r.accountIban === 'string').toBe(true);
          expect(r.encoding === null).toBe(typeof input === 'string');
          expect(r.csv === null).toBe(r.format !== 'csv');
          if (r.csv) expect(r.csv.mapping.delimiter).toBe(r.csv.delimiter);
        },
      ),
      { numRuns: 500 },
    );
  });
});
